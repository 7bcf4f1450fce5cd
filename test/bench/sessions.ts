// The timed jobs in the real workbench: one extension (.vsix) installed in code-server, prepared
// once (signed in, as a person would: the token goes to SecretStorage), then a fresh workbench
// per sample: a copy of the prepared server data and browser profile, a new code-server (hence a
// new extension host, the extension not yet active) and a new Chromium. The copy keeps the
// stored token: the web workbench keeps secrets in the browser's storage, encrypted with a key
// half the server keeps in its user data, under the page's origin, hence the fixed port.
//
// Both sides' profiles are prepared by the same steps, and nothing a side's preparation leaves
// may depend on when it ran or on what the other side did: every post the bench files is removed
// from the stand-in again (each session meets the same account), the news watcher is off while
// preparing (no poll time is kept, so every sample's window polls at startup, whatever the clock),
// and the prepared extension host's lock on its workspace storage is not copied (see `sample`).
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, workbenchUrl, type CodeServerInstall } from '../codeServer/codeServerHost';
import { openEditor, type Editor } from '../codeServer/editor';
import { Cleanups, until } from '../codeServer/run';
import { limitMs } from '../limits';
import type { StandIn } from '../server';
import { exactly, Workbench } from '../ui/workbench';
import { activationAtStartup, displayNameIn } from './activation';
import type { ActivationCpu } from './activationCpuHook';
import { pageBusy, pageBusyText, startPageProfile } from './pageProfile';
import { armTimer, pageQuiet, readTimer, readTimes } from './pageTimer';

/** One fresh workbench's figures, in ms. */
export interface Sample {
  /** The extension host activating the extension at startup, nothing opened: loading its code and activate() to its return (0: not activated at startup). */
  activation: number;
  /** The extension host's CPU time over those same spans (see activationCpuHook.ts): the clock less the time other processes held the CPU. */
  activationCpu: number;
  activatedAtStartup: boolean;
  /** The Helpdesk icon pressed → the first post row painted. */
  openToRows: number;
  /** The Helpdesk icon pressed → the first post row painted, the view's progress bar gone (the service's answer in). */
  openToServiceRows: number;
  /** Enter on Report Bug in the palette → the title box shown (the Git lookup runs here). */
  reportBugBox: number;
  /** Enter in the title box → the "Bug #N filed." notification painted. */
  reportBugFiled: number;
  /**
   * The press on the e-mail's row → its message painted: Helpdesk Bridge's conversation page (in
   * its webview's frame), the floor's text document. NaN in runs saved before it was timed.
   */
  openPost: number;
}

/** The rows a sample presses on. */
export interface TimedPosts {
  /** The first post row the Helpdesk view shows. */
  first: string;
  /** A post whose content is an HTML e-mail, with comments, among the first rows. */
  email: { title: string; content: string };
}

/** What Open Post opens, timed to its text painted: a webview's page (Helpdesk Bridge's conversation page, or the floor's with --post-floor webview), or the floor's text document. */
export type OpensPost = 'page' | 'text';

export interface InstallOptions {
  /** What the report calls it. */
  label: string;
  vsix: string;
  /** Which code-server, and the Node that runs it. */
  codeServer: CodeServerInstall;
  /** An empty folder of the caller's, with a short path. */
  dir: string;
  workspace: string;
  standIn: StandIn;
  /** The stand-in account's newest post before the bench filed any: those after it are removed after each session. */
  lastPostId: number;
  /** What its Open Post shows, to be timed to. */
  opensPost: OpensPost;
  /** For the extension host. */
  env?: Record<string, string>;
  verbose: boolean;
  /** The bench's: whatever is running when it stops is stopped. */
  cleanups: Cleanups;
  /** Where each sample's Git extension log (Git's commands, each with its time) is kept, as `<dir's name>-<sample>.log` (--git-logs). */
  gitLogs?: string;
  /**
   * Where each sample's CPU profiles of the workbench page are kept (--profile; see
   * pageProfile.ts): over Report Bug's Enter in the title box → "filed" painted, as
   * `report-bug-<sample>.cpuprofile`, and over Open Post's click → the thread painted, as
   * `open-post-<sample>.cpuprofile`.
   */
  pageProfiles?: string;
}

const REPORT_BUG = 'Helpdesk: Report Bug from Selection…';
const FILE = { name: 'greeting.ts', showing: 'return', clickOn: 'name is required', lines: [2, 3] } as const;
/**
 * The title preparation files under: not the one a sample files (the suggested one), which the
 * extension would otherwise ask about ("#N was filed with this title … File it again?").
 */
const PREPARED_TITLE = 'Filed while the profile was prepared';
/** After activation, longer than Helpdesk Bridge waits to start its background work (src/extension.ts). */
const BACKGROUND_STARTED_MS = 6000;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Removes the posts filed since the account's newest was `lastPostId`: every session meets the same account. */
export function forgetFiled(standIn: StandIn, lastPostId: number): void {
  const posts = standIn.store.account(standIn.prefix).records.posts;
  for (const id of [...posts.keys()]) if (id > lastPostId) standIn.store.remove(standIn.prefix, 'posts', id);
}

/** Finds `label` in the command palette; Enter runs it (the command may open a box of its own, so the palette need not close). */
async function choose(page: Page, wb: Workbench, label: string, enter = true): Promise<void> {
  await wb.commandPalette(label.replace(/…$/, ''));
  await wb.quickPickRows
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) })
    .first()
    .waitFor({ state: 'visible' });
  if (enter) await page.keyboard.press('Enter');
}

/**
 * Not the sockets, scratch files and logs a session left, nor its extension host's lock on the
 * workspace storage: a copy's new mtime makes it look held whenever the recorded pid has been
 * reused, and the sample's host then takes another, empty folder.
 */
const leftBySession = (path: string) => lstatSync(path).isSocket() || ['tmp', 'logs', 'vscode.lock'].includes(basename(path));

export class Installed {
  /** What Running Extensions calls it, from its installed manifest. */
  private displayName = '';
  /** Samples taken so far. */
  private samples = 0;

  private constructor(
    private readonly options: InstallOptions,
    private readonly port: number,
    private readonly template: string,
  ) {}

  /** Where each session's extension host appends its activation's CPU time (see activationCpuHook.ts): outside the copied profile. */
  private get activationCpuFile(): string {
    return join(this.options.dir, 'activation-cpu.jsonl');
  }

  /**
   * Where the profile is prepared, and each sample runs from a fresh copy of it: one path, as a
   * person's extensions folder keeps one (Helpdesk Bridge's code cache is made for its bundle's path).
   */
  get workDir(): string {
    return join(this.options.dir, 'work');
  }

  get label(): string {
    return this.options.label;
  }

  /**
   * Installs the .vsix, signs in and files a bug (its post then removed again), as a person who
   * uses it has; opens the Helpdesk view once and waits for the first row (what the extension
   * keeps of it is its own doing), and opens the e-mail's post once (a webview's first start in a
   * browser profile registers its service worker: a person who opened a page before has it);
   * returns what was posted (the token and title left out).
   */
  static async prepare(options: InstallOptions, posts: TimedPosts): Promise<{ installed: Installed; post: Record<string, unknown> }> {
    const template = join(options.dir, 'template');
    const installed = new Installed(options, await freePort(), template);
    const work = installed.workDir;
    mkdirSync(work, { recursive: true });
    let post: Record<string, unknown> = {};
    // The watcher off: it would keep when it polled, and a sample's window would poll at startup or not by the clock.
    await installed.session(work, [options.vsix], { 'helpdesk.watch.intervalMinutes': 0 }, async (page, wb) => {
      const { standIn } = options;
      await choose(page, wb, 'Helpdesk: Sign In…');
      const box = await wb.inputBox(/^(Sign In to the Helpdesk \(1\/2\)|API token)$/);
      if ((await box.getAttribute('type')) !== 'password') {
        await box.press('Enter');
        await wb.inputBox('Sign In to the Helpdesk (2/2)');
      }
      await wb.quickInputField.pressSequentially(standIn.token);
      await wb.quickInputField.press('Enter');
      await wb.toast(`Signed in to ${standIn.url}.`).waitFor({ state: 'visible' });
      const before = standIn.requests.length;
      await installed.reportBug(page, wb, false, PREPARED_TITLE);
      const sent = standIn.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/app/posts.json');
      const body = sent?.body as { post?: Record<string, unknown> } | undefined;
      if (!body?.post) throw new Error(`${options.label} filed a bug without a POST /app/posts.json wrapping a post.`);
      post = { ...body.post };
      delete post.title;
      await wb.runCommand('View: Close All Editors');
      forgetFiled(standIn, options.lastPostId);
      // The view opened once, its rows those every sample's service answers.
      await wb.activity('Helpdesk').click();
      await wb
        .row(wb.pane('Helpdesk'), posts.first)
        .first()
        .waitFor({ state: 'visible', timeout: limitMs('workbenchReady') });
      await installed.openPost(page, wb, posts.email, false);
      await wb.runCommand('View: Close All Editors');
      // Each sample starts where a person would: the Explorer showing, the Helpdesk container closed.
      await wb.activity('Explorer').click();
      // The web workbench writes its state to the browser's storage a moment after it changes.
      await page.waitForTimeout(2000);
    });
    cpSync(work, template, { recursive: true, filter: (path) => !leftBySession(path) });
    rmSync(work, { recursive: true, force: true });
    installed.displayName = displayNameIn(join(template, 'server', 'extensions'));
    return { installed, post };
  }

  /** One sample in a fresh workbench. */
  async sample(posts: TimedPosts): Promise<Sample> {
    const firstTitle = posts.first;
    const dir = this.workDir;
    rmSync(dir, { recursive: true, force: true });
    rmSync(this.activationCpuFile, { force: true });
    cpSync(this.template, dir, { recursive: true, filter: (path) => !leftBySession(path) });
    try {
      let sample: Sample | undefined;
      await this.session(dir, [], {}, async (page, wb) => {
        if (await wb.pane('Helpdesk').isVisible()) throw new Error('The Helpdesk view was open at start: nothing to time.');
        // Read first, so that nothing the person does can have activated it, and so that both
        // extensions are already active (or, for a build on first use, not) when the icon is pressed.
        const activation = await activationAtStartup(page, wb, this.displayName);
        // Helpdesk Bridge starts its background work (the news watcher, the branch's post) 5 s
        // after the window is ready, or at the first command: timed before that, a sample has it
        // in the view's or Report Bug's path or not as the machine's pace decides. After it, never.
        // The last second of it is the page's quiet second.
        await page.waitForTimeout(BACKGROUND_STARTED_MS - 1000);
        await pageQuiet(page, 1000, 6000);
        await armTimer(page, {
          start: 'mousedown',
          selector: '.part.sidebar .monaco-list-row .label-name',
          text: `^${escape(firstTitle)}$`,
          settled: true,
        });
        await wb.activity('Helpdesk').click();
        const rows = await readTimes(page, `${this.label}: the first post row ("${firstTitle}"; is the template signed in?)`);
        sample = {
          activation: activation.ms,
          activationCpu: this.readActivationCpu(activation.atStartup),
          activatedAtStartup: activation.atStartup,
          openToRows: rows.shown,
          openToServiceRows: rows.settled,
          ...(await this.reportBug(page, wb, true)),
          openPost: Number.NaN,
        };
        // Last, so that the figures before it are timed as they were before it was.
        await wb.runCommand('View: Close All Editors');
        sample.openPost = await this.openPost(page, wb, posts.email, true);
      });
      return sample!;
    } finally {
      forgetFiled(this.options.standIn, this.options.lastPostId);
      this.samples += 1;
      if (this.options.gitLogs) this.keepGitLog(dir, join(this.options.gitLogs, `${basename(this.options.dir)}-${this.samples}.log`));
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The sample's Git extension log (the output channel "Git": each Git command and its time), copied to `to`, where it wrote one. */
  private keepGitLog(dir: string, to: string): void {
    const logs = join(dir, 'server', 'user-data', 'logs');
    const found = existsSync(logs)
      ? readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((path) => basename(path) === 'Git.log')
      : [];
    if (found[0]) cpSync(join(logs, found[0]), to);
    else console.log(`[bench] ${this.label}: no Git log under ${logs} for ${to}.`);
  }

  /**
   * What this sample's extension host wrote: load and activate() in CPU ms (0 when not activated
   * at startup, as `activation`); NaN, said, when it wrote no one record (a host restarted), which
   * the report then leaves out.
   */
  private readActivationCpu(atStartup: boolean): number {
    if (!atStartup) return 0;
    const lines = existsSync(this.activationCpuFile) ? readFileSync(this.activationCpuFile, 'utf8').trim().split('\n').filter(Boolean) : [];
    if (lines.length !== 1) {
      console.log(
        `[bench] ${this.label}: ${lines.length} activation CPU records in ${this.activationCpuFile}, not 1: this sample has no CPU figure.`,
      );
      return Number.NaN;
    }
    const cpu = JSON.parse(lines[0]!) as ActivationCpu;
    return cpu.loadCpuMs + cpu.activateCpuMs;
  }

  /** Report Bug on lines 2–3 of greeting.ts, from the palette, with the suggested title. */
  private async reportBug(
    page: Page,
    wb: Workbench,
    timed: boolean,
    title?: string,
  ): Promise<Pick<Sample, 'reportBugBox' | 'reportBugFiled'>> {
    const editor = await wb.quickOpen(FILE.name, FILE.showing);
    await wb.selectLines(editor, FILE.clickOn, ...FILE.lines);
    await choose(page, wb, REPORT_BUG, false);
    if (timed) {
      await pageQuiet(page, 500);
      await armTimer(page, { start: 'Enter', selector: '.quick-input-widget .quick-input-title', text: '^Report Bug: ' });
    }
    await page.keyboard.press('Enter');
    const reportBugBox = timed ? await readTimer(page, `${this.label}: Report Bug's title box`) : 0;
    await wb.inputBox(/^Report Bug: /);
    if (title !== undefined) await wb.quickInputField.fill(title);
    if (timed)
      await armTimer(page, {
        start: 'Enter',
        selector: '.notifications-toasts .notification-list-item-message',
        text: '^Bug #\\d+ filed\\.$',
      });
    const reportBugFiled = await this.pageProfiled(page, timed, 'report-bug', 'Enter → "Bug #N filed."', async () => {
      await page.keyboard.press('Enter');
      return timed ? await readTimer(page, `${this.label}: "Bug #N filed."`) : 0;
    });
    if (!timed) await wb.toast(/^Bug #\d+ filed\.$/).waitFor({ state: 'visible' });
    return { reportBugBox, reportBugFiled };
  }

  /**
   * A click on the e-mail's row in the Helpdesk view (its command is Open Post) → its message
   * painted: the conversation page's first message with its text, in the page's frame; or the
   * floor's text document showing the content's first line.
   */
  private async openPost(page: Page, wb: Workbench, email: TimedPosts['email'], timed: boolean): Promise<number> {
    const row = wb.row(wb.pane('Helpdesk'), email.title).first();
    await row.waitFor({ state: 'visible' });
    const firstLine = email.content.trimStart().split('\n', 1)[0]!.slice(0, 40);
    const end =
      this.options.opensPost === 'page'
        ? { selector: 'main#conversation article .body', text: '\\S', inFrames: true }
        : { selector: '.part.editor .monaco-editor .view-lines .view-line', text: `^${escape(firstLine).replace(/ /g, '\\s')}` };
    // Preparing, the view has just opened: the service's rows may still replace those it painted
    // first, and a press on a row being replaced is lost (VS Code has let go of its command:
    // "Actual command not found"). Pressed once no progress bar runs in the side bar.
    if (!timed)
      await page.waitForFunction(
        "![...document.querySelectorAll('.part.sidebar .monaco-progress-container.active')].some((bar) => !bar.classList.contains('done') && bar.getClientRects().length > 0)",
        undefined,
        { timeout: limitMs('uiReaction'), polling: 100 },
      );
    // Untimed (preparing), the same wait.
    await pageQuiet(page, 500);
    await armTimer(page, { start: 'mousedown', ...end });
    return await this.pageProfiled(page, timed, 'open-post', "Open Post's click → the thread", async () => {
      await row.click();
      return await readTimer(page, `${this.label}: the e-mail's post opened ("${email.title}")`);
    });
  }

  /**
   * A timed step (`step` resolves with its figure), with --profile the page's CPU profile over it
   * kept as `<name>-<sample>.cpuprofile` and what the page was busy with said in a line. Started
   * after the timer is armed, in the quiet the page had: what it counts before the input is next
   * to nothing.
   */
  private async pageProfiled(page: Page, timed: boolean, name: string, what: string, step: () => Promise<number>): Promise<number> {
    const dir = timed ? this.options.pageProfiles : undefined;
    const stop = dir === undefined ? undefined : await startPageProfile(page);
    if (!stop || dir === undefined) return await step();
    // Stopped however the step ends: a failed step leaves no profiler running on the page.
    const ms = await step().catch(async (error: unknown) => {
      await stop().catch(() => undefined);
      throw error;
    });
    const profile = await stop();
    writeFileSync(join(dir, `${name}-${this.samples + 1}.cpuprofile`), JSON.stringify(profile));
    console.log(
      `[bench] ${this.label}: the page during ${what} (${ms.toFixed(0)} ms), to the profile's end ${pageBusyText(pageBusy(profile))}.`,
    );
    return ms;
  }

  /** The caller's environment for the extension host, with the activation CPU hook preloaded besides whatever NODE_OPTIONS it has. */
  private hookedEnv(dir: string): Record<string, string> {
    const env = this.options.env ?? {};
    const hook = join(__dirname, 'activationCpuHook.js');
    return {
      ...env,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim(),
      HELPDESK_ACTIVATION_DIR: join(dir, 'server', 'extensions'),
      HELPDESK_ACTIVATION_FILE: this.activationCpuFile,
    };
  }

  /** code-server on `dir` (installing `install` first) and Chromium, the workbench ready and Git done with the workspace; stopped after `work`. */
  private async session(
    dir: string,
    install: string[],
    settings: Record<string, unknown>,
    work: (page: Page, wb: Workbench) => Promise<void>,
  ): Promise<void> {
    const { options } = this;
    const own = new Cleanups('bench');
    const stop = options.cleanups.add(() => own.runAll());
    try {
      const editor: Editor = await openEditor({
        codeServer: options.codeServer,
        dir,
        port: this.port,
        workspace: options.workspace,
        env: this.hookedEnv(dir),
        // VS Code 1.139 opens some editors (Running Extensions among them) in a modal over the
        // window, which the palette does not open over: each in an editor group, as 1.100 has it.
        settings: { 'helpdesk.accountUrl': options.standIn.url, 'workbench.editor.useModal': 'off', ...settings },
        installExtensions: install,
        verbose: options.verbose,
        cleanups: own,
        purpose: `the ${options.label} session`,
      });
      const { page } = editor;
      page.setDefaultTimeout(limitMs('uiReaction'));
      const wb = new Workbench(page);
      const ready = async () => {
        await page.goto(workbenchUrl(editor.server, options.workspace));
        await wb.ready();
        // The Git extension has opened the workspace's repository (its branch shows).
        await wb.statusItem(/\bmain\b/).waitFor({ state: 'visible', timeout: limitMs('workbenchReady') });
        await work(page, wb);
      };
      await until(ready(), editor.broken);
    } finally {
      await stop();
    }
  }
}
