// The UI tests: what a person does with Helpdesk Bridge, done through the real workbench.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { RecordedRequest, StandIn } from '../server';
import { limitMs } from '../limits';
import type { UiTest } from './runner';
import { NO_WINDOW } from '../../src/agent/mcp/entry/endpointClient';
import { CONNECTION_FILE, ENTRY_FILE } from '../../src/agent/mcp/protocol';
import { startAgent } from '../agent/mcpAgent';
import { AGENT_COMMAND, AGENT_TASK } from './agentStandIn';
import { exactly, Workbench } from './workbench';
import { HIDDEN_MARKER, HOSTILE_COMMENT, HOSTILE_GLOBALS } from '../server/demoEmails';
import type { Frame } from 'playwright-core';
import { MAX_REPLY_CHARS } from '../../src/conversation/pageMessages';

/** How long a step waits for what a click or a key brings about, and for the workbench after a reload (test/limits.ts). */
const REACTION = limitMs('uiReaction');
const READY = limitMs('workbenchReady');
/** How long a step looks for something that may not come before it tries another way (the step's own limit ends it). */
const PROBE = limitMs('uiProbe');

export interface StepContext {
  page: Page;
  standIn: StandIn;
  /** Another account, at another address (an empty one). */
  secondAccount: StandIn;
  /** Where README screenshots go, when they are wanted. */
  screenshotDir: string | undefined;
  /** The workspace folder (a Git repository on `main`). */
  workspace: string;
  /** Where the agent stand-in writes the tools' answers, a line each (see agentStandIn.ts). */
  agentAnswers: string;
  /** The extension's MCP connection folder (connection.json and the stdio entry's copy), once the window serves agents. */
  mcpFolder: string;
}

/** What the demo data should show first: the newest open posts, the first clients by name. */
export interface Expected {
  posts: string[];
  clients: string[];
}

/** Asks the stand-in (over HTTP, as the extension does) for the first rows each view should show. */
export async function expectedRows(standIn: StandIn, count = 3): Promise<Expected> {
  const get = async (path: string, query: Record<string, string>) => {
    const params = new URLSearchParams({ api_token: standIn.token, ...query });
    const response = await fetch(`${standIn.url}${path}?${params.toString()}`);
    assert.equal(response.status, 200, `GET ${path}`);
    return (await response.json()) as Array<Record<string, unknown>>;
  };
  const posts = await get('/app.json', { order: 'id.desc', per_page: '50' });
  const clients = await get('/app/clients.json', { order: 'name', per_page: '50' });
  return {
    posts: posts
      .filter((p) => p.closed !== true && typeof p.title === 'string')
      .slice(0, count)
      .map((p) => String(p.title)),
    clients: clients.slice(0, count).map((c) => String(c.name)),
  };
}

export const STEP = {
  container: 'the activity bar shows the Helpdesk container, signed out',
  signIn: 'Sign In through the welcome view fills both trees',
  reportBug: 'Report Bug… in the editor context menu files the selected code',
  palette: 'the command palette lists the Helpdesk commands',
  draftAfterReload: 'a bug whose filing failed is offered again after a reload, and Send files it once',
  todoTask: 'Create Task from Comment… in the Quick Fix menu files the TODO and writes HD-<id> into it; Ctrl+Z takes it back',
  startWork: "Start Work on Post… on a post row: the proposed branch accepted, Git's branch and HD-<id> in the status bar",
  closePost: "Close Post on a row's context menu: the helpdesk has the post closed, and the row goes",
  findOldPost: 'Comment on Task from the palette finds a post older than the rows loaded, by typing its title',
  agentConsent: 'the agent creates a task: VS Code shows the whole text first; Cancel files nothing, Yes files it once',
  mcpConsent:
    'an agent outside VS Code (Claude Code, over MCP) creates a task: the window names it and shows the whole text; Cancel files nothing, Continue files it once',
  startup:
    'after a reload with the Helpdesk closed, the status bar and the palette know the account and the closed-posts setting before any use',
  twoAccounts: "signed in to a second account through the status bar, each account's posts by switching there",
  secondWindow: 'a second window opened after sign-in is signed in too',
  newsTwoWindows: 'a post assigned to me between polls: one notification in two windows, the count in both',
  signOutElsewhere: 'signing out in one window shows the welcome view in the other',
  replySent:
    "a reply sent with Ctrl+Enter on a post's page: the box is locked at the press, the reply filed once as typed, and the box empty once it is",
  conversation:
    "a stranger's hostile e-mail opened from its row: its page runs none of it (no global it sets, no CSP violation), and a reply typed there outlives a reload of the page",
  customerConversation:
    "a client's e-mail opened from the client's posts: its page shows, from the top, the title, the facts in words, the customer card and the thread",
} as const;

/** The demo's customer e-mail the conversation screenshots show: a Gmail message with a signature and a quoted thread, and the client's reply as a comment. */
export const CUSTOMER_POST = 'Order #4471 has not arrived';

/** How long the other window may take to follow a sign-out. */
const FOLLOW_MS = REACTION;
/** Who the person says they are in the news step (Set Who I Am…, typed). */
const NEWS_USER = 4242;

/** What the agent outside VS Code asks to file in the MCP step. */
const MCP_TASK = {
  title: 'Export times out on large customer lists',
  description: 'Seen with 40,000 contacts: the export stops after 30 s. Page it.',
};

const BUG_TITLE = 'greeting() throws when the name is empty';
const DRAFT_TITLE = 'greeting() greets nobody when the name is blank';
/** Lines 2–3 of src/greeting.ts (createWorkspace), the selection Report Bug files (it drops the common indentation). */
const SELECTED_CODE = ['if (!name) throw new Error("name is required");', 'return `Hello, ${name}!`;'];
/** The lines of src/greeting.ts (createWorkspace). */
const GREETING = [
  'export function greeting(name: string): string {',
  '  if (!name) throw new Error("name is required");',
  '  return `Hello, ${name}!`;',
  '}',
];
/** What the TODO step types as line 2 of src/greeting.ts, after the editor's indentation. */
const TODO_TEXT = 'reject names with only spaces';
const TODO_LINE = `  // TODO: ${TODO_TEXT}`;
const PALETTE_ENTRIES = [
  'Helpdesk: Sign Out',
  'Helpdesk: Refresh',
  'Helpdesk: Report Bug from Selection…',
  'Helpdesk: Comment on Task…',
  'Helpdesk: Link Deal…',
  'Helpdesk: Create Task…',
  'Helpdesk: Filter Posts…',
];

export function uiTests(context: StepContext, expected: Expected): UiTest[] {
  const { page, standIn, secondAccount } = context;
  const wb = new Workbench(page);
  const posts = wb.pane('Helpdesk');
  const clients = wb.pane('Clients');

  const screenshot = async (name: string) => {
    if (!context.screenshotDir) return;
    await page.screenshot({ path: join(context.screenshotDir, name), animations: 'disabled', caret: 'hide' });
  };
  /** A screenshot of a conversation page from its top, the notifications cleared and the mouse parked. */
  const screenshotTop = async (body: Locator, name: string) => {
    if (!context.screenshotDir) return;
    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.toasts.first().waitFor({ state: 'hidden' });
    await body.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await wb.parkMouse();
    await screenshot(name);
  };
  /** How many posts with this title the stand-in holds. */
  const filed = (title: string): number => standIn.store.list(standIn.prefix, 'posts').filter((p) => p.title === title).length;
  const postRequests = (): RecordedRequest[] => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
  /**
   * Fails unless the command palette lists each entry, typed in full (the palette shows only a
   * screenful of what "Helpdesk:" finds). The palette reads the context keys when it opens, so it
   * is opened again while one may still be on its way.
   */
  const paletteLists = async (entries: readonly string[], timeoutMs = REACTION) => {
    const deadline = Date.now() + timeoutMs;
    for (const entry of entries) {
      for (;;) {
        await wb.commandPalette(entry);
        const row = wb.quickPickRows.filter({ has: page.locator('.label-name', { hasText: exactly(entry) }) }).first();
        const found = await row.waitFor({ state: 'visible', timeout: PROBE }).then(
          () => true,
          () => false,
        );
        const listed = found ? [] : (await wb.quickPickRows.locator('.label-name').allInnerTexts()).map((t) => t.trim());
        await page.keyboard.press('Escape');
        await wb.quickInput.waitFor({ state: 'hidden' });
        if (found) break;
        if (Date.now() > deadline)
          throw new Error(`The palette does not list "${entry}". Typed in full, it shows: ${listed.join(' | ') || 'nothing'}`);
      }
    }
  };
  /** The agent stand-in's `n`th answer, once it has come. */
  const agentAnswer = async (n: number): Promise<string> => {
    const deadline = Date.now() + REACTION;
    for (;;) {
      const lines = existsSync(context.agentAnswers) ? readFileSync(context.agentAnswers, 'utf8').split('\n').filter(Boolean) : [];
      if (lines.length >= n) return lines[n - 1]!;
      if (Date.now() > deadline) throw new Error(`The agent stand-in has given ${lines.length} answers, not ${n}: ${lines.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A second window (browser page) on the same workbench URL, while the two-window steps run. */
  let other: Page | undefined;

  /** The TODO step: type a TODO comment, file it from the Quick Fix menu, undo the reference, revert the file. */
  // The menu opens once every provider has answered, TypeScript's too, whose server on a busy
  // machine may still be loading the project (a CI machine's menu had not come after 20 s). As a
  // person would, the step closes the menu and asks again, and says what it saw if it never came.
  const openQuickFix = async (item: Locator) => {
    const deadline = Date.now() + limitMs('typeScriptAnalysis');
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Control+.');
      const shown = await item.waitFor({ state: 'visible', timeout: REACTION / 4 }).then(
        () => true,
        () => false,
      );
      if (shown) return;
      const seen = await wb.quickFixMenu.innerText({ timeout: limitMs('uiProbe') }).catch(() => '(no menu)');
      if (Date.now() > deadline) throw new Error(`Ctrl+. showed no "Create Task from Comment…" in ${attempt} tries; the menu: ${seen}`);
      await page.keyboard.press('Escape');
    }
  };

  const fileTodoTask = async () => {
    const editor = await wb.quickOpen('greeting.ts');
    // Started now, as it may come and go while the comment is typed.
    const settled = wb.typeScriptSettled();
    const lines = editor.locator('.view-lines');
    const line2 = async () => (await wb.lineTexts(editor))[1];
    await lines.locator('.view-line', { hasText: 'return' }).waitFor({ state: 'visible' });

    // A new line 2 below the function's first line; the editor indents it.
    await lines.locator('.view-line', { hasText: 'export function' }).click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(`// TODO: ${TODO_TEXT}`);
    await lines.locator('.view-line', { hasText: TODO_TEXT }).waitFor({ state: 'visible' });
    assert.equal(await line2(), TODO_LINE, 'the typed comment is line 2');

    // The cursor is on the TODO line: Ctrl+. opens the Quick Fix menu there.
    await settled;
    const item = wb.quickFixItem('Create Task from Comment…');
    await openQuickFix(item);
    // The menu ignores the pointer until it moves (a block over it goes on the first move).
    const box = await item.boundingBox();
    assert.ok(box, 'the menu item is on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 2 });
    await item.hover();
    await screenshot('todo-task.png');
    await item.click();
    await wb.quickFixMenu.waitFor({ state: 'hidden' });

    const title = await wb.inputBox('Create Task: src/greeting.ts:2');
    assert.equal(await title.inputValue(), TODO_TEXT, 'the title box suggests the comment');
    const before = postRequests().length;
    await title.press('Enter');
    await wb.quickInput.waitFor({ state: 'hidden' });

    const toast = wb.toast(/^Task #\d+ created\.$/);
    await toast.waitFor({ state: 'visible', timeout: REACTION });
    const id = (await toast.locator('.notification-list-item-message').innerText()).match(/#(\d+)/)?.[1];
    assert.ok(id, 'the notification names the task');
    const sent = postRequests().slice(before);
    assert.equal(sent.length, 1, 'one POST /app/posts.json');
    const post = (sent[0]!.body as { post?: Record<string, unknown> } | null)?.post;
    assert.ok(post, 'the body wraps a post');
    assert.equal(post.task_kind, 'task');
    assert.equal(post.title, TODO_TEXT, 'titled with the comment');
    const content = String(post.content);
    assert.match(
      content,
      /^Sent from VS Code · hb-[0-9a-z]{10}\n\n/,
      `the task starts with the marker a lost answer is found by:\n${content}`,
    );
    assert.ok(content.replace(/^[^\n]*\n\n/, '').startsWith(`TODO: ${TODO_TEXT}`), `then the comment:\n${content}`);
    assert.ok(content.includes('src/greeting.ts'), `the task names the file:\n${content}`);
    assert.ok(
      content.includes(['```typescript', GREETING[0], TODO_LINE, ...GREETING.slice(1)].join('\n')),
      `the task quotes the code around the comment:\n${content}`,
    );

    // The reference is written into the comment, and is a link with the post's hover.
    const written = `  // TODO(HD-${id}): ${TODO_TEXT}`;
    await lines.locator('.view-line', { hasText: `HD-${id}` }).waitFor({ state: 'visible' });
    assert.equal(await line2(), written, 'the comment names the new task');
    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.toasts.first().waitFor({ state: 'hidden' });
    const reference = lines.locator('.detected-link', { hasText: exactly(`HD-${id}`) });
    await reference.waitFor({ state: 'visible' });
    await reference.hover();
    const hover = wb.hover.filter({ hasText: 'Open Post' });
    await hover.waitFor({ state: 'visible' });
    assert.ok((await hover.innerText()).replace(/\u00a0/g, ' ').includes(`#${id} ${TODO_TEXT}`), 'the hover shows the new task');
    await screenshot('post-hover.png');
    await wb.parkMouse();
    await hover.waitFor({ state: 'hidden' });

    // One Ctrl+Z takes the reference back out, leaving the comment as typed.
    await lines.locator('.view-line', { hasText: 'return' }).click();
    await page.keyboard.press('Control+Z');
    await lines.locator('.view-line', { hasText: `HD-${id}` }).waitFor({ state: 'hidden' });
    assert.equal(await line2(), TODO_LINE, 'Ctrl+Z restores the comment');

    // Leave the file as it was for the steps that follow.
    await wb.runCommand('File: Revert File');
    await page.locator('.tab.active.dirty').waitFor({ state: 'hidden' });
    assert.deepEqual((await wb.lineTexts(editor)).slice(0, GREETING.length), GREETING, 'the file is as it was');
  };

  return [
    {
      name: STEP.container,
      async run() {
        const activity = wb.activity('Helpdesk');
        await activity.waitFor({ state: 'visible', timeout: READY });
        await activity.click();
        await wb.setSidebarWidth(460); // room for the titles
        for (const pane of [posts, clients]) {
          await pane.locator('.welcome-view-content').waitFor({ state: 'visible', timeout: READY });
          await pane.locator('.welcome-view-content', { hasText: 'Sign in to see your helpdesk posts and clients.' }).waitFor();
          await pane.locator('.welcome-view-content .monaco-button', { hasText: exactly('Sign In') }).waitFor();
        }
      },
    },
    {
      name: STEP.signIn,
      needs: [STEP.container],
      async run() {
        await posts.locator('.welcome-view-content .monaco-button', { hasText: exactly('Sign In') }).click();
        const address = await wb.inputBox('Sign In to the Helpdesk (1/2)');
        assert.equal(await address.inputValue(), standIn.url, 'the address box is pre-filled from helpdesk.accountUrl');
        await address.press('Enter');

        const token = await wb.inputBox('Sign In to the Helpdesk (2/2)');
        assert.equal(await token.getAttribute('type'), 'password', 'the token box hides what is typed');
        await token.pressSequentially(standIn.token);
        await token.press('Enter');
        await wb.quickInput.waitFor({ state: 'hidden' });

        await wb.toast(`Signed in to ${standIn.url}.`).waitFor({ state: 'visible' });
        for (const title of expected.posts) await wb.row(posts, title).waitFor({ state: 'visible', timeout: REACTION });
        for (const name of expected.clients) await wb.row(clients, name).waitFor({ state: 'visible', timeout: REACTION });
        assert.equal(
          await wb
            .firstRow(posts)
            .getAttribute('aria-label')
            .then((l) => l?.split(',')[0]),
          expected.posts[0],
          'the newest open post comes first',
        );

        // Quiet the screen for the next steps and the screenshot.
        await wb.runCommand('Notifications: Clear All Notifications');
        await wb.toasts.first().waitFor({ state: 'hidden' });
        await wb.parkMouse();
        await screenshot('helpdesk-views.png');
      },
    },
    {
      name: STEP.reportBug,
      needs: [STEP.signIn],
      async run() {
        // Quick Open, as a person would.
        const editor = await wb.quickOpen('greeting.ts', 'return');
        const lines = editor.locator('.view-lines');
        if (context.screenshotDir) {
          // Only for tidy pictures: let the TypeScript server finish "Analyzing 'greeting.ts'…".
          // It shows up a second or two after the file opens and goes a few seconds later.
          const analyzing = wb.statusItem(/^\s*Analyzing/);
          await analyzing.waitFor({ state: 'visible', timeout: PROBE }).catch(() => undefined);
          await analyzing.waitFor({ state: 'hidden', timeout: limitMs('typeScriptAnalysis') }).catch(() => undefined);
        }

        // Lines 2–3: click into the code, then select with the keyboard from the file's start.
        await wb.selectLines(editor, 'name is required', 2, 3);

        // Right-click at the end of the selected code (a line's element spans the editor's
        // width; its first span, the text's): the menu opens beside it, keeping the selection.
        const text = lines.locator('.view-line', { hasText: 'return' }).locator('span').first();
        const box = await wb.boxOf(text);
        await text.click({ button: 'right', position: { x: box.width - 4, y: box.height / 2 } });
        await wb.chooseMenuItem('Report Bug…', () => screenshot('report-bug-menu.png'));

        const title = await wb.inputBox('Report Bug: src/greeting.ts:2–3');
        assert.equal(await title.inputValue(), SELECTED_CODE[0], 'the title box suggests the first line of the selection');
        await wb.parkMouse();
        await screenshot('report-bug-title.png');
        const before = postRequests().length;
        await title.fill(BUG_TITLE);
        await title.press('Enter');

        const toast = wb.toast(/^Bug #\d+ filed\.$/);
        await toast.waitFor({ state: 'visible', timeout: REACTION });
        await wb.toast('Filing the bug…').waitFor({ state: 'hidden', timeout: REACTION });
        const sent = postRequests().slice(before);
        assert.equal(sent.length, 1, 'one POST /app/posts.json');
        const post = (sent[0]!.body as { post?: Record<string, unknown> } | null)?.post;
        assert.ok(post, 'the body wraps a post');
        assert.equal(post.kind, 'error');
        assert.equal(post.title, BUG_TITLE);
        const content = String(post.content);
        assert.ok(content.includes('src/greeting.ts'), `the report names the file:\n${content}`);
        assert.ok(
          content.includes(['```typescript', ...SELECTED_CODE, '```'].join('\n')),
          `the report quotes the selected lines:\n${content}`,
        );
        assert.match(
          content,
          /https:\/\/github\.com\/example\/sample\/blob\/[0-9a-f]{40}\/src\/greeting\.ts#L2-L3/,
          'a permalink to the pushed commit',
        );

        const id = (await toast.locator('.notification-list-item-message').innerText()).match(/#(\d+)/)?.[1];
        const row = wb.row(posts, BUG_TITLE);
        await row.waitFor({ state: 'visible' });
        assert.match((await row.getAttribute('aria-label')) ?? '', new RegExp(`#${id}\\b`), 'the tree row is the filed bug');
        assert.equal(
          await wb
            .firstRow(posts)
            .getAttribute('aria-label')
            .then((l) => l?.split(',')[0]),
          BUG_TITLE,
          'the new bug comes first',
        );
        await wb.parkMouse();
        await screenshot('bug-filed.png');
      },
    },
    {
      name: STEP.palette,
      needs: [STEP.signIn],
      async run() {
        await paletteLists(PALETTE_ENTRIES);
      },
    },
    {
      name: STEP.draftAfterReload,
      needs: [STEP.reportBug],
      async run() {
        // The service fails with a proxy's error page: the report must stay a draft.
        standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 500, html: true });
        try {
          // greeting.ts is still open with lines 2–3 selected, as the Report Bug step left it.
          await wb.runCommand('Helpdesk: Report Bug from Selection…', 3, { opensInput: true });
          const title = await wb.inputBox('Report Bug: src/greeting.ts:2–3');
          await title.fill(DRAFT_TITLE);
          await title.press('Enter');
          await wb
            .toast(/^Not sent: The service failed \(HTTP 500\)\. Try again later\. Your draft is kept\.$/)
            .waitFor({ state: 'visible', timeout: REACTION });
        } finally {
          standIn.clearFaults();
        }
        assert.equal(filed(DRAFT_TITLE), 0, 'nothing was stored while the service failed');

        // As a person would, read the notification before reloading. The web workbench writes
        // extension state to the browser's storage a moment after it changes; a reload within
        // that moment can lose the last write (the desktop writes it on shutdown).
        await page.waitForTimeout(1500);
        await page.reload();
        await wb.ready();
        // A proxy's 500 may come after the service stored the post: the draft keeps its marker, and is offered as one that may be filed.
        const offer = wb.toast(
          `A helpdesk draft may have been filed already: "${DRAFT_TITLE}" (bug · src/greeting.ts:2). Send looks for it on the helpdesk first, and files it only if it is not there.`,
        );
        await offer.waitFor({ state: 'visible', timeout: READY });
        await offer.locator('.monaco-button', { hasText: exactly('Send') }).click();
        // Filed first (the stand-in has it), then told. The toast, right after the offer's own toast
        // closes under the mouse, is not always seen in this headless workbench (in about half the
        // runs of this day; the cause is not found): the notification centre keeps what was told.
        for (const deadline = Date.now() + REACTION; filed(DRAFT_TITLE) === 0 && Date.now() < deadline;) await page.waitForTimeout(200);
        await wb.runCommand('Notifications: Show Notifications');
        await page
          .locator('.notifications-center .notification-list-item-message', { hasText: /^Bug #\d+ filed\.$/ })
          .waitFor({ state: 'visible', timeout: REACTION });
        await wb.runCommand('Notifications: Hide Notifications');
        assert.equal(filed(DRAFT_TITLE), 1, 'filed once');
        await wb.row(posts, DRAFT_TITLE).waitFor({ state: 'visible', timeout: REACTION });
        await wb.runCommand('Notifications: Clear All Notifications');
      },
    },
    {
      name: STEP.todoTask,
      needs: [STEP.signIn],
      async run() {
        // Hovers on for this step only: the others keep them off for steady screenshots.
        await wb.setBooleanSetting('editor.hover.enabled', true);
        try {
          await fileTodoTask();
        } finally {
          await wb.setBooleanSetting('editor.hover.enabled', false);
        }
      },
    },
    {
      name: STEP.startWork,
      needs: [STEP.signIn],
      async run() {
        const title = expected.posts[0]!;
        const row = wb.row(posts, title);
        await row.waitFor({ state: 'visible' });
        const id = (await row.getAttribute('aria-label'))?.match(/#(\d+)/)?.[1];
        assert.ok(id, 'the row names its post');
        await row.click({ button: 'right' });
        await wb.chooseMenuItem('Start Work on Post…');
        try {
          const box = await wb.inputBox(new RegExp(`^Start Work on #${id}: `));
          const branch = await box.inputValue();
          assert.match(branch, new RegExp(`^hd-${id}-[a-z0-9-]+$`), 'the proposed name');
          await box.press('Enter');
          await wb.toast(`You are working on HD-${id} on branch ${branch}.`).waitFor({ state: 'visible', timeout: REACTION });
          // Git's own branch item, and ours beside it.
          await wb.statusItem(branch).first().waitFor({ state: 'visible', timeout: REACTION });
          await wb.statusItem(exactly(`HD-${id}`)).waitFor({ state: 'visible', timeout: REACTION });
          assert.equal(
            execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: context.workspace, encoding: 'utf8' }).trim(),
            branch,
          );
          await wb.parkMouse();
          await screenshot('start-work.png');
        } finally {
          // The other steps expect main (the bug's permalink is to its pushed commit).
          execFileSync('git', ['checkout', '-q', 'main'], { cwd: context.workspace });
        }
        await wb.statusItem(exactly(`HD-${id}`)).waitFor({ state: 'hidden', timeout: REACTION });
      },
    },
    {
      name: STEP.conversation,
      needs: [STEP.signIn],
      async run() {
        // The corpus's message with scripts, handlers and javascript: links, made the newest post so that its row is at the top.
        const corpus = standIn.store
          .list(standIn.prefix, 'posts')
          .find((p) => typeof p.content === 'string' && p.content.includes(`${HOSTILE_GLOBALS[0]}=1`) && p.post_id === null);
        assert.ok(corpus, 'the hostile corpus is in the demo data');
        const title = `Hostile e-mail ${Date.now()}`;
        const hostile = standIn.store.insert(standIn.prefix, 'posts', {
          title,
          content: corpus.content,
          use_html: true,
          task_kind: 'email',
          nick: 'Stranger',
        });
        standIn.store.insert(standIn.prefix, 'posts', {
          title: `Re: ${title}`,
          content: HOSTILE_COMMENT,
          post_id: hostile.id,
          task_kind: 'comment',
        });
        // Every CSP violation any frame reports from now on (Chromium says each in the console).
        const violations: string[] = [];
        const onConsole = (message: { text(): string }) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        };
        page.on('console', onConsole);
        try {
          await wb.runCommand('Helpdesk: Refresh');
          // Clicked once the refreshed list is drawn, and again if no page came (openPostPage).
          const body = await openPostPage(wb, posts, title, hostile.id);
          // The e-mail (its comment is listed only where the helpdesk lists comments: not the likely one's).
          await body.locator('article .body.email').first().waitFor({ state: 'visible', timeout: REACTION });
          const shown = await body.innerText();
          assert.ok(!shown.includes(HIDDEN_MARKER), 'nothing hidden is shown');
          // Nothing of the sender's ran, in any frame of the workbench.
          for (const each of page.frames()) {
            const set = await each.evaluate((names) => names.filter((name) => name in globalThis), HOSTILE_GLOBALS).catch(() => []);
            assert.deepEqual(set, [], `no global the corpus sets, in ${each.url().slice(0, 80)}`);
          }
          // Keyboard and screen reader: the reply box and every button have a name.
          const area = body.locator('textarea#reply-text');
          assert.equal(await area.getAttribute('aria-labelledby'), 'reply-heading');
          // It holds no more than a reply may (a longer one would be refused, at a send or at the page's next start).
          assert.equal(await area.getAttribute('maxlength'), String(MAX_REPLY_CHARS));
          for (const button of await body.locator('button').all()) assert.ok((await button.innerText()).trim(), 'a button with words');
          // A reply typed in the page outlives a reload of the page.
          const reply = 'Thanks, we are looking into it.';
          await area.click();
          await page.keyboard.type(reply);
          await page.waitForTimeout(600); // the page saves what is typed after 400 ms of quiet
          const before = await conversationFrame(page, hostile.id);
          await wb.runCommand('Developer: Reload Webviews');
          // The page's frame from before the reload may still be found until it is detached.
          for (const deadline = Date.now() + REACTION; !before.isDetached();) {
            if (Date.now() > deadline) throw new Error('Reload Webviews left the old page in place');
            await page.waitForTimeout(100);
          }
          const again = await conversationFrame(page, hostile.id);
          await again.locator('main#conversation h1', { hasText: exactly(title) }).waitFor({ state: 'visible', timeout: REACTION });
          assert.equal(await again.locator('textarea#reply-text').inputValue(), reply, 'the reply is still there');
          assert.equal(postRequests().filter((r) => (r.body as { post?: { post_id?: unknown } })?.post?.post_id === hostile.id).length, 0);
          assert.deepEqual(violations, [], 'no CSP violation');
        } finally {
          page.off('console', onConsole);
          await wb.runCommand('View: Close All Editors');
        }
      },
    },
    {
      name: STEP.customerConversation,
      needs: [STEP.signIn],
      async run() {
        const post = standIn.store.list(standIn.prefix, 'posts').find((p) => p.title === CUSTOMER_POST && p.post_id === null);
        assert.ok(post && typeof post.client_id === 'number', 'the demo has the e-mail, from a client');
        const client = standIn.store.get(standIn.prefix, 'clients', post.client_id);
        assert.ok(client, "the e-mail's client");
        await showClientPosts(wb, clients, String(client.name), 'Show Posts of This Client');
        try {
          const body = await openPostPage(wb, posts, CUSTOMER_POST, post.id);
          await body.locator('#customer .client-name', { hasText: exactly(`${client.name} (#${client.id})`) }).waitFor();
          // The card has read the client's other posts and deals.
          await customerCardRead(body, 'Other open posts', 'Deals', 'Loading…');
          const facts = Object.fromEntries(
            await body.locator('.facts dt').evaluateAll((terms) => terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
          ) as Record<string, string>;
          assert.equal(facts.Post, `#${post.id}`);
          assert.equal(facts.Kind, 'email');
          assert.match(
            facts.Created ?? '',
            /^[A-Z][a-z]{2} \d{1,2}, 2025, \d{1,2}:\d\d\s[AP]M$/,
            "a date in words, not the service's time stamp",
          );
          const first = body.locator('article.original');
          assert.equal(await first.locator('h3 .who').innerText(), String(post.nick), 'the sender');
          assert.match(await first.locator('h3 time').innerText(), /^[A-Z][a-z]{2} \d{1,2}, 2025, /, "the message's date in words");
          assert.ok(
            (await first.locator('.body.email').innerText()).includes('Tracking shows the parcel stuck in Rotterdam'),
            'the e-mail, as HTML',
          );
          await screenshotTop(body, 'conversation-dark.png');
          if (context.screenshotDir) {
            await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
            await page.locator('.monaco-workbench.vs').waitFor({ state: 'attached' });
            await page.waitForTimeout(500); // the webview takes the theme's colours a moment later
            await screenshotTop(body, 'conversation-light.png');
            await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
            await page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached' });
          }
        } finally {
          await wb.runCommand('View: Close All Editors');
          await wb.runCommand('Helpdesk: Clear Filter');
        }
      },
    },
    {
      name: STEP.closePost,
      needs: [STEP.signIn],
      async run() {
        // A post the view shows that no other step uses.
        const open = standIn.store
          .list(standIn.prefix, 'posts')
          .filter((p) => p.closed !== true && p.post_id === null && typeof p.title === 'string' && !expected.posts.includes(p.title));
        const post = open.sort((a, b) => b.id - a.id)[0]!;
        const row = wb.row(posts, String(post.title));
        await row.waitFor({ state: 'visible' });
        try {
          await row.click({ button: 'right' });
          await wb.chooseMenuItem('Close Post');
          for (const deadline = Date.now() + REACTION; standIn.store.get(standIn.prefix, 'posts', post.id)?.closed !== true;) {
            if (Date.now() > deadline) throw new Error(`#${post.id} was not closed on the helpdesk`);
            await page.waitForTimeout(200);
          }
          const puts = standIn.requests.filter((r) => r.method === 'PUT' && r.path === `/app/posts/${post.id}.json`);
          assert.equal(puts.length, 1, 'one PUT');
          assert.deepEqual((puts[0]!.body as { post: unknown }).post, { closed: true }, 'only what changed');
          // Closed posts are hidden unless shown: the row goes.
          await row.waitFor({ state: 'hidden', timeout: REACTION });
        } finally {
          standIn.store.update(standIn.prefix, 'posts', post.id, { closed: false });
        }
      },
    },
    {
      name: STEP.findOldPost,
      needs: [STEP.signIn],
      async run() {
        // Newer posts than the view loaded (50 a page), so the oldest is past what any list holds.
        const oldest = standIn.store
          .list(standIn.prefix, 'posts')
          .filter((p) => p.closed !== true && p.post_id === null)
          .sort((a, b) => a.id - b.id)[0]!;
        const routine = Array.from(
          { length: 60 },
          (_, i) => (standIn.insertRecord('posts', { title: `Routine check ${i}`, content: 'x', task_kind: 'task' }) as { id: number }).id,
        );
        try {
          await wb.runCommand('Helpdesk: Comment on Task…', 3, { opensInput: true });
          await wb.quickInput.waitFor({ state: 'visible' });
          await wb.quickInputField.fill(String(oldest.title));
          const found = wb.quickPickRows.filter({ hasText: `#${oldest.id}` }).first();
          await found.waitFor({ state: 'visible', timeout: REACTION });
          assert.ok((await found.innerText()).includes(String(oldest.title)), 'the old post, by its title');
          await page.keyboard.press('Escape');
          await wb.quickInput.waitFor({ state: 'hidden' });
        } finally {
          // The other steps expect the demo's newest posts at the top.
          for (const id of routine) standIn.store.remove(standIn.prefix, 'posts', id);
        }
      },
    },
    {
      name: STEP.agentConsent,
      needs: [STEP.signIn],
      async run() {
        const before = postRequests().length;
        const ask = async () => {
          await wb.runCommand(AGENT_COMMAND);
          await wb.dialog.waitFor({ state: 'visible', timeout: REACTION });
          const text = await wb.dialog.innerText();
          assert.ok(text.includes('Create a helpdesk task?'), `the question: ${text}`);
          assert.ok(text.includes(AGENT_TASK.title) && text.includes(AGENT_TASK.description), `the whole text: ${text}`);
          assert.ok(text.includes(standIn.url), `where it goes: ${text}`);
          return text;
        };

        // Refused: VS Code never calls the tool, and nothing is sent or kept.
        await wb.runCommand('Notifications: Clear All Notifications');
        const shown = await ask();
        await wb.parkMouse();
        await screenshot('agent-asks.png');
        const cancel = wb.dialogButton(/^Cancel$/);
        assert.ok(await cancel.isVisible(), `a Cancel button: ${shown}`);
        await cancel.click();
        await wb.dialog.waitFor({ state: 'hidden' });
        assert.match(await agentAnswer(1), /^the call ended: Canceled$/, 'VS Code did not call the tool');
        assert.equal(postRequests().length, before, 'nothing sent');
        assert.equal(filed(AGENT_TASK.title), 0);

        // Agreed: filed once, and the person is told as for their own tasks.
        await ask();
        const labels = (await wb.dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim());
        const yes = wb.dialogButton(/^Yes$/);
        assert.ok(await yes.isVisible(), `a Yes button: ${labels.join(' | ')}`);
        await yes.click();
        await wb.dialog.waitFor({ state: 'hidden' });
        await wb.toast(/^Task #\d+ created\.$/).waitFor({ state: 'visible', timeout: REACTION });
        assert.match(await agentAnswer(2), /^Task HD-\d+ created\. Web page: /, 'the agent is told');
        assert.equal(postRequests().length, before + 1, 'one POST');
        assert.equal(filed(AGENT_TASK.title), 1);
      },
    },
    {
      name: STEP.mcpConsent,
      needs: [STEP.signIn],
      async run() {
        const folder = context.mcpFolder;
        // The window starts serving agents a few seconds after it has started.
        const deadline = Date.now() + REACTION;
        while (!existsSync(join(folder, CONNECTION_FILE))) {
          if (Date.now() > deadline) throw new Error(`No MCP endpoint in ${folder} after 30 s.`);
          await page.waitForTimeout(200);
        }
        const agent = await startAgent('claude-code', join(folder, ENTRY_FILE), folder);
        try {
          const before = postRequests().length;
          const ask = async () => {
            const answer = agent.call('helpdesk_createTask', MCP_TASK);
            await wb.dialog.waitFor({ state: 'visible', timeout: REACTION });
            const text = await wb.dialog.innerText();
            assert.ok(text.includes('Claude Code asks: Create a helpdesk task?'), `the question names the agent: ${text}`);
            assert.ok(text.includes(MCP_TASK.title) && text.includes(MCP_TASK.description), `the whole text: ${text}`);
            assert.ok(text.includes(standIn.url), `where it goes: ${text}`);
            return { answer };
          };

          // Refused: the agent is told, and nothing is sent.
          await wb.runCommand('Notifications: Clear All Notifications');
          const refused = (await ask()).answer;
          await wb.parkMouse();
          await screenshot('mcp-asks.png');
          await wb.dialogButton(/^Cancel$/).click();
          await wb.dialog.waitFor({ state: 'hidden' });
          assert.match((await refused).text, /^The person declined in VS Code: nothing was written/);
          assert.equal(postRequests().length, before, 'nothing sent');
          assert.equal(filed(MCP_TASK.title), 0);

          // Agreed: filed once, and the agent gets the task's number and page.
          const agreed = (await ask()).answer;
          await wb.dialogButton(/^Continue$/).click();
          await wb.dialog.waitFor({ state: 'hidden' });
          const { text } = await agreed;
          assert.match(text, /^Task HD-\d+ created\. Web page: /);
          assert.notEqual(text, NO_WINDOW);
          assert.equal(postRequests().length, before + 1, 'one POST');
          assert.equal(filed(MCP_TASK.title), 1);
        } finally {
          await agent.close();
        }
      },
    },
    // Activation at startup loads only dist/extension.js; it still starts the session, for the
    // status bar and the context keys of menus (and for a sign-out in another window).
    {
      name: STEP.startup,
      needs: [STEP.signIn],
      async run() {
        // Closed posts shown: the palette must offer Hide, not Show, before the posts view is made.
        await wb.setBooleanSetting('helpdesk.showClosedPosts', true);
        try {
          await wb.runCommand('View: Show Explorer');
          await posts.waitFor({ state: 'hidden' });
          await page.waitForTimeout(1500); // the layout is written to the browser's storage a moment later
          await page.reload();
          await wb.ready();
          await wb.statusItem(new URL(standIn.url).host).waitFor({ state: 'visible', timeout: READY });
          await paletteLists(['Helpdesk: Sign Out', 'Helpdesk: Hide Closed Posts']);
          assert.equal(await posts.isVisible(), false, 'the Helpdesk view stayed closed');
        } finally {
          await wb.setBooleanSetting('helpdesk.showClosedPosts', false);
        }
        // Opened now, the view loads the rest and shows the rows (and the layout is as the next steps expect).
        await wb.activity('Helpdesk').click();
        await wb.row(posts, expected.posts[0]!).waitFor({ state: 'visible', timeout: REACTION });
      },
    },
    {
      name: STEP.twoAccounts,
      needs: [STEP.signIn],
      async run() {
        const only = `Only in the second account ${Date.now()}`;
        secondAccount.insertRecord('posts', { title: only, task_kind: 'task' });
        const host = (url: string) => new URL(url).host;
        const accountItem = (url: string) => wb.statusItem(host(url));
        const menu = async () => {
          await accountItem(standIn.url).or(accountItem(secondAccount.url)).first().click();
          await wb.inputBox('Helpdesk Account');
        };
        await menu();
        await wb.quickPickRows.filter({ hasText: 'Sign In to Another Account…' }).first().click();
        const address = await wb.inputBox('Sign In to the Helpdesk (1/2)');
        await address.fill(secondAccount.url);
        await address.press('Enter');
        const token = await wb.inputBox('Sign In to the Helpdesk (2/2)');
        await token.pressSequentially(secondAccount.token);
        await token.press('Enter');
        await wb.quickInput.waitFor({ state: 'hidden' });
        await accountItem(secondAccount.url).waitFor({ state: 'visible' });
        await wb.row(posts, only).waitFor({ state: 'visible', timeout: REACTION });
        // Back to the first through the status bar: its posts, not the second's.
        await menu();
        await wb.quickPickRows
          .filter({ hasText: host(standIn.url) })
          .filter({ hasNotText: 'Sign Out' })
          .first()
          .click();
        await accountItem(standIn.url).waitFor({ state: 'visible' });
        await wb.row(posts, expected.posts[0]!).waitFor({ state: 'visible', timeout: REACTION });
        assert.equal(await wb.row(posts, only).count(), 0, "the second account's post is not in the first's list");
        await wb.runCommand('Notifications: Clear All Notifications');
      },
    },
    // Last, as the second one signs out. In code-server each browser page is a window with its own
    // extension host; both share the browser's localStorage, where the web workbench keeps secrets.
    {
      name: STEP.secondWindow,
      needs: [STEP.signIn],
      async run() {
        const second = await page.context().newPage();
        try {
          second.setDefaultTimeout(REACTION);
          await second.goto(page.url());
          const wb2 = new Workbench(second);
          await wb2.ready();
          const posts2 = wb2.pane('Helpdesk');
          // The new window restores the layout the first one saved, usually with the container open;
          // clicking its icon then would close it again.
          const restored = await posts2.waitFor({ state: 'visible', timeout: PROBE }).then(
            () => true,
            () => false,
          );
          if (!restored) {
            await wb2.activity('Helpdesk').waitFor({ state: 'visible', timeout: READY });
            await wb2.activity('Helpdesk').click();
          }
          for (const title of expected.posts) await wb2.row(posts2, title).waitFor({ state: 'visible', timeout: REACTION });
          assert.equal(await posts2.locator('.welcome-view-content').isVisible(), false, 'no Sign In welcome in the second window');
          other = second;
        } finally {
          if (!other) await second.close();
        }
      },
    },
    // Before the news step: a customer's post replied to before a poll saw it is the person's, and
    // not news to them (the news step then counts one post, the one assigned to them).
    {
      name: STEP.replySent,
      needs: [STEP.signIn],
      async run() {
        const title = `Call me back ${Date.now()}`;
        const asked = standIn.store.insert(standIn.prefix, 'posts', { title, content: 'Can you call me back today?', nick: 'Customer' });
        await wb.runCommand('Helpdesk: Refresh');
        try {
          const body = await openPostPage(wb, posts, title, asked.id);
          const replies = () => postRequests().filter((r) => (r.body as { post?: { post_id?: unknown } })?.post?.post_id === asked.id);
          const box = body.locator('textarea#reply-text');
          const readOnly = () => box.evaluate((area) => (area as { readOnly: boolean }).readOnly);
          await box.click();
          const reply = 'Calling you at noon.';
          await page.keyboard.type(reply);
          // Locked at the press, so nothing typed before the extension has the reply is left out of
          // what is sent and then emptied with the box.
          await page.keyboard.press('Control+Enter');
          assert.equal(await readOnly(), true, 'locked at the press');
          assert.equal(await box.getAttribute('aria-readonly'), 'true', 'and a screen reader told so');
          await page.keyboard.type(' And more');
          await wb.toast(/^Comment added to #\d+\.$/).waitFor({ state: 'visible', timeout: REACTION });
          for (const deadline = Date.now() + REACTION; (await box.inputValue()) !== ''; await page.waitForTimeout(100))
            if (Date.now() > deadline) throw new Error(`the box kept ${JSON.stringify(await box.inputValue())} once filed`);
          assert.equal(await readOnly(), false, 'open again once filed');
          assert.equal(replies().length, 1, 'one POST');
          assert.match(String((replies()[0]!.body as { post: { content: unknown } }).post.content), /Calling you at noon\.$/);
        } finally {
          await wb.runCommand('View: Close All Editors');
        }
      },
    },
    // Each window has a watcher; the one holding the lease reads, both show the news, one tells it.
    {
      name: STEP.newsTwoWindows,
      needs: [STEP.secondWindow],
      async run() {
        assert.ok(other, 'the second window is open');
        const wb2 = new Workbench(other);
        await page.bringToFront();
        await wb.runCommand('Helpdesk: Set Who I Am…', 3, { opensInput: true });
        // The pick comes a moment after the palette closes: type only once it is there.
        await (await wb.inputBox(/Set Who I Am/)).fill(String(NEWS_USER));
        await wb.quickPickRows
          .filter({ hasText: `User ${NEWS_USER}` })
          .first()
          .waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await wb.quickInput.waitFor({ state: 'hidden' });
        // A read now, whatever the first window's watcher read 5 s after it started: this one is the baseline or has no news.
        await wb.runCommand('Helpdesk: Check for News Now');
        const title = `Assigned between polls ${Date.now()}`;
        standIn.insertRecord('posts', { title, task_kind: 'task', user_id: 99, responsible_id: NEWS_USER });
        await wb.runCommand('Helpdesk: Check for News Now');
        const told = /A new post is assigned to you: .*Assigned between polls/;
        await wb.toast(told).waitFor({ state: 'visible', timeout: REACTION });
        const badge = (w: Workbench) =>
          w.page
            .locator('.part.activitybar .action-item', { has: w.page.locator('.action-label[aria-label^="Helpdesk"]') })
            .locator('.badge-content', { hasText: exactly('1') });
        const bell = (w: Workbench) =>
          w.page.locator('.part.statusbar .statusbar-item', { has: w.page.locator('.codicon-bell-dot') }).filter({ hasText: '1' });
        await badge(wb).waitFor({ state: 'visible', timeout: REACTION });
        await bell(wb).waitFor({ state: 'visible', timeout: REACTION });
        await wb.parkMouse();
        await screenshot('news.png');
        // The other window shows the same count, from the files the first one wrote, and tells nothing.
        await other.bringToFront();
        await badge(wb2).waitFor({ state: 'visible', timeout: REACTION });
        await bell(wb2).waitFor({ state: 'visible', timeout: REACTION });
        await other.waitForTimeout(3_000);
        assert.equal(await wb2.toast(told).count(), 0, 'the second window does not tell it again');
        assert.equal(await wb.toast(told).count(), 1, 'one notification');
        await page.bringToFront();
      },
    },
    // The web workbench tells only the window that wrote of a secret's change; the extension's
    // SignOutSignal carries the news to the other windows.
    {
      name: STEP.signOutElsewhere,
      needs: [STEP.secondWindow],
      async run() {
        assert.ok(other, 'the second window is open');
        const second = other;
        try {
          const wb2 = new Workbench(second);
          await second.bringToFront();
          await wb2.runCommand('Helpdesk: Sign Out');
          await wb2
            .pane('Helpdesk')
            .locator('.welcome-view-content', { hasText: 'Sign in to see your helpdesk posts and clients.' })
            .waitFor({ state: 'visible' });

          await page.bringToFront();
          const start = Date.now();
          await posts
            .locator('.welcome-view-content', { hasText: 'Sign in to see your helpdesk posts and clients.' })
            .waitFor({ state: 'visible', timeout: FOLLOW_MS })
            .catch(async () => {
              const shown = await wb.row(posts, expected.posts[0]!).isVisible();
              throw new Error(
                `Signed out in the second window; ${FOLLOW_MS / 1000} s later the first window still ${shown ? 'shows the Helpdesk rows' : 'does not show the Sign In welcome'}.`,
              );
            });
          console.log(`      (the first window followed in ${Date.now() - start} ms)`);
        } finally {
          other = undefined;
          await second.close();
        }
      },
    },
  ];
}

/** The frame of the conversation page of post `id`, once its script has filled it. */
export async function conversationFrame(page: Page, id: number): Promise<Frame> {
  const deadline = Date.now() + REACTION;
  for (;;) {
    for (const frame of page.frames()) {
      // Read at once in each frame (a locator would wait in every frame that has none).
      const post = await frame
        .evaluate(() => {
          const doc = (globalThis as { document?: { querySelector(s: string): { getAttribute(n: string): string | null } | null } })
            .document;
          return doc?.querySelector('main#conversation[aria-busy="false"]')?.getAttribute('data-post') ?? null;
        })
        .catch(() => null);
      if (post === String(id)) return frame;
    }
    if (Date.now() > deadline) throw new Error(`No conversation page of #${id} among the page's frames`);
    await page.waitForTimeout(200);
  }
}

/** Shows a client's posts as a person does: the client's row, then its context menu's `item` (the menu item's words). */
export async function showClientPosts(wb: Workbench, clients: Locator, clientName: string, item: string): Promise<void> {
  const clientRow = wb.row(clients, clientName);
  await clientRow.waitFor({ state: 'visible', timeout: REACTION });
  await clientRow.click({ button: 'right' });
  await wb.chooseMenuItem(item);
}

/**
 * Waits until the conversation page's customer card has read the client's other posts and deals:
 * both headings shown, and no count under them still `loading` (the page's words for it).
 */
export async function customerCardRead(body: Locator, otherPosts: string, deals: string, loading: string): Promise<void> {
  await body.locator('#customer h3', { hasText: exactly(otherPosts) }).waitFor({ state: 'visible', timeout: REACTION });
  await body.locator('#customer h3', { hasText: exactly(deals) }).waitFor({ state: 'visible', timeout: REACTION });
  const stillLoading = body.locator('#customer .hint', { hasText: exactly(loading) });
  for (const deadline = Date.now() + REACTION; (await stillLoading.count()) > 0;) {
    if (Date.now() > deadline) throw new Error(`The customer card still says "${loading}"`);
    await body.page().waitForTimeout(100);
  }
}

/**
 * Opens a post's conversation page from its row, loading more of the list until the row shows.
 * Answers the page's main element, once it shows the post's title.
 */
export async function openPostPage(wb: Workbench, posts: Locator, title: string, id: number): Promise<Locator> {
  const { page } = wb;
  const row = wb.row(posts, title);
  const more = wb.rows(posts).filter({ has: page.locator('.codicon-ellipsis') });
  for (const deadline = Date.now() + REACTION; !(await row.isVisible());) {
    if (Date.now() > deadline) throw new Error(`The Helpdesk view does not show "${title}"`);
    if (await more.isVisible()) await more.click();
    await row.waitFor({ state: 'visible', timeout: PROBE }).catch(() => undefined);
  }
  // A filtered list reads on until it fills the view: a row clicked while it redraws may not open.
  const loading = wb.rows(posts).filter({ has: page.locator('.codicon-loading') });
  let frame: Frame | undefined;
  for (let attempt = 1; !frame; attempt++) {
    await loading.first().waitFor({ state: 'hidden', timeout: REACTION });
    await row.click();
    frame = await conversationFrame(page, id).catch(async (error: unknown) => {
      const tabs = (await page.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.trim()).join(' | ');
      if (attempt >= 2) throw new Error(`${(error as Error).message} (the editor's tabs: ${tabs || 'none'})`);
      return undefined;
    });
  }
  const body = frame.locator('main#conversation');
  await body.locator('h1', { hasText: exactly(title) }).waitFor({ state: 'visible', timeout: REACTION });
  return body;
}
