// The timed jobs in the real workbench: one extension (.vsix) installed in code-server, prepared
// once (signed in, as a person would: the token goes to SecretStorage), then a fresh workbench
// per sample: a copy of the prepared server data and browser profile, a new code-server (hence a
// new extension host, the extension not yet active) and a new Chromium. The copy keeps the
// stored token: the web workbench keeps secrets in the browser's storage, encrypted with a key
// half the server keeps in its user data, under the page's origin, hence the fixed port.
import { cpSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, workbenchUrl, type CodeServerInstall } from '../codeServer/codeServerHost';
import { openEditor, type Editor } from '../codeServer/editor';
import { Cleanups, until } from '../codeServer/run';
import type { StandIn } from '../server';
import { exactly, Workbench } from '../ui/workbench';
import { activationAtStartup, displayNameIn } from './activation';
import { armTimer, pageQuiet, readTimer } from './pageTimer';

/** One fresh workbench's figures, in ms. */
export interface Sample {
  /** The extension host activating the extension at startup, nothing opened: loading its code and activate() to its return (0: not activated at startup). */
  activation: number;
  activatedAtStartup: boolean;
  /** The Helpdesk icon pressed → the first post row painted. */
  openToRows: number;
  /** Enter on Report Bug in the palette → the title box shown (the Git lookup runs here). */
  reportBugBox: number;
  /** Enter in the title box → the "Bug #N filed." notification painted. */
  reportBugFiled: number;
}

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
  /** For the extension host. */
  env?: Record<string, string>;
  verbose: boolean;
  /** The bench's: whatever is running when it stops is stopped. */
  cleanups: Cleanups;
}

const REPORT_BUG = 'Helpdesk: Report Bug from Selection…';
const FILE = { name: 'greeting.ts', showing: 'return', clickOn: 'name is required', lines: [2, 3] } as const;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds `label` in the command palette; Enter runs it (the command may open a box of its own, so the palette need not close). */
async function choose(page: Page, wb: Workbench, label: string, enter = true): Promise<void> {
  await wb.commandPalette(label.replace(/…$/, ''));
  await wb.quickPickRows.filter({ has: page.locator('.label-name', { hasText: exactly(label) }) }).first().waitFor({ state: 'visible' });
  if (enter) await page.keyboard.press('Enter');
}

export class Installed {
  private samples = 0;
  /** What Running Extensions calls it, from its installed manifest. */
  private displayName = '';

  private constructor(
    private readonly options: InstallOptions,
    private readonly port: number,
    private readonly template: string,
  ) {}

  get label(): string {
    return this.options.label;
  }

  /** Installs the .vsix and signs in. With `fileOneBug`, also files a bug and returns what was posted (the token left out). */
  static async prepare(options: InstallOptions, fileOneBug = false): Promise<{ installed: Installed; post?: Record<string, unknown> }> {
    const template = join(options.dir, 'template');
    mkdirSync(template, { recursive: true });
    const installed = new Installed(options, await freePort(), template);
    let post: Record<string, unknown> | undefined;
    await installed.session(template, [options.vsix], async (page, wb) => {
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
      if (fileOneBug) {
        const before = standIn.requests.length;
        await installed.reportBug(page, wb, false);
        const sent = standIn.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/app/posts.json');
        const body = sent?.body as { post?: Record<string, unknown> } | undefined;
        if (!body?.post) throw new Error(`${options.label} filed a bug without a POST /app/posts.json wrapping a post.`);
        post = { ...body.post };
        delete post.title;
        await wb.runCommand('View: Close All Editors');
      }
      // Each sample starts where a person would: the Explorer showing, the Helpdesk container closed.
      if (await wb.pane('Helpdesk').isVisible()) await wb.activity('Explorer').click();
      // The web workbench writes its state to the browser's storage a moment after it changes.
      await page.waitForTimeout(2000);
    });
    installed.displayName = displayNameIn(join(template, 'server', 'extensions'));
    return { installed, post };
  }

  /** One sample in a fresh workbench. `firstTitle`: the first post row the view should show. Without `reportBug`, open to rows only. */
  async sample(firstTitle: string, reportBug = true): Promise<Sample> {
    const dir = join(this.options.dir, `s${++this.samples}`);
    // Not the sockets, scratch files and logs the last session left.
    const skip = (path: string) => lstatSync(path).isSocket() || ['tmp', 'logs'].includes(basename(path));
    cpSync(this.template, dir, { recursive: true, filter: (path) => !skip(path) });
    try {
      let sample: Sample | undefined;
      await this.session(dir, [], async (page, wb) => {
        if (await wb.pane('Helpdesk').isVisible()) throw new Error('The Helpdesk view was open at start: nothing to time.');
        // Read first, so that nothing the person does can have activated it, and so that both
        // extensions are already active (or, for a build on first use, not) when the icon is pressed.
        const activation = await activationAtStartup(page, wb, this.displayName);
        await pageQuiet(page, 1000, 6000);
        await armTimer(page, { start: 'mousedown', selector: '.part.sidebar .monaco-list-row .label-name', text: `^${escape(firstTitle)}$` });
        await wb.activity('Helpdesk').click();
        const openToRows = await readTimer(page, `${this.label}: the first post row ("${firstTitle}"; is the template signed in?)`);
        sample = { activation: activation.ms, activatedAtStartup: activation.atStartup, openToRows, ...(reportBug ? await this.reportBug(page, wb, true) : { reportBugBox: NaN, reportBugFiled: NaN }) };
      });
      return sample!;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Report Bug on lines 2–3 of greeting.ts, from the palette, with the suggested title. */
  private async reportBug(page: Page, wb: Workbench, timed: boolean): Promise<Pick<Sample, 'reportBugBox' | 'reportBugFiled'>> {
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
    if (timed) await armTimer(page, { start: 'Enter', selector: '.notifications-toasts .notification-list-item-message', text: '^Bug #\\d+ filed\\.$' });
    await page.keyboard.press('Enter');
    const reportBugFiled = timed ? await readTimer(page, `${this.label}: "Bug #N filed."`) : 0;
    if (!timed) await wb.toast(/^Bug #\d+ filed\.$/).waitFor({ state: 'visible' });
    return { reportBugBox, reportBugFiled };
  }

  /** code-server on `dir` (installing `install` first) and Chromium, the workbench ready and Git done with the workspace; stopped after `work`. */
  private async session(dir: string, install: string[], work: (page: Page, wb: Workbench) => Promise<void>): Promise<void> {
    const { options } = this;
    const own = new Cleanups('bench');
    const stop = options.cleanups.add(() => own.runAll());
    try {
      const editor: Editor = await openEditor({
        codeServer: options.codeServer,
        dir,
        port: this.port,
        workspace: options.workspace,
        env: options.env ?? {},
        settings: { 'helpdesk.accountUrl': options.standIn.url },
        installExtensions: install,
        verbose: options.verbose,
        cleanups: own,
        purpose: `the ${options.label} session`,
      });
      const { page } = editor;
      page.setDefaultTimeout(20_000);
      const wb = new Workbench(page);
      const ready = async () => {
        await page.goto(workbenchUrl(editor.server, options.workspace));
        await wb.ready();
        // The Git extension has opened the workspace's repository (its branch shows).
        await wb.statusItem(/\bmain\b/).waitFor({ state: 'visible', timeout: 30_000 });
        await work(page, wb);
      };
      await until(ready(), editor.broken);
    } finally {
      await stop();
    }
  }
}
