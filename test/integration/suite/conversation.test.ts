import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import { CONVERSATION_VIEW, type ConversationPanel } from '../../../src/conversation/panel';
import type { PageModel } from '../../../src/conversation/pageModel';
import { postUri } from '../../../src/views/postUri';
import { commentDraft } from '../../../src/commands/commentOnTask';
import { HOSTILE_GLOBALS } from '../../server/demoEmails';
import { PROFILES } from '../../server';
import { extensionApi, forEachProfile, signInToStandIn, standIn, standInOf, useCleanSlate, waitFor, withoutRef } from './helpers';

/* The conversation page (src/conversation/): Open Post makes one page per post of an account and
 * shows it again; the reply is a draft sent once, kept through a lost answer, a closed page and a
 * reload of the page; a page of another account's post acts on that account. What the page sends
 * is given to the panel as the page would send it (its script's own run is the UI test's). */

async function read<T>(path: string, on: { url: string; token: string } = standIn): Promise<T> {
  const response = await fetch(`${on.url}${path}?api_token=${encodeURIComponent(on.token)}`);
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

/** The tabs of the page of post `id` (its title starts with its number). */
const pageTabs = (id: number) =>
  vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label === `#${id}` || tab.label.startsWith(`#${id} `));

/** What the page would send: its message, naming its post and account. */
const from = (panel: ConversationPanel, fields: Record<string, unknown>) =>
  panel.receive({ account: panel.account.url, post: panel.postId, ...fields });

async function openPage(id: number, accountUrl = standIn.url): Promise<ConversationPanel> {
  const api = await extensionApi();
  await vscode.commands.executeCommand('helpdesk.openPost', postUri(id, accountUrl));
  const panel = await waitFor('the page', () => api.conversations.get(accountUrl, id));
  await waitFor('the page to show the post', () => panel.lastModel?.facts.length);
  return panel;
}

const postsSent = async (on: { url: string } = standIn) =>
  ((await (await fetch(`${on.url}/__standin/requests`)).json()) as { method: string; path: string; body: unknown }[]).filter(
    (r) => r.method === 'POST' && r.path === '/app/posts.json',
  );

/** A page's reply 'Mine', saved as its draft, then that draft saved elsewhere (its editor, another window) with `saved`. */
async function replyChangedElsewhere(saved: string) {
  const api = await extensionApi();
  const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
  assert.ok(post);
  const panel = await openPage(post.id);
  await from(panel, { type: 'reply', text: 'Mine' });
  const theirs = await waitFor('the reply saved as a draft', () => api.drafts.all().find((d) => d.postId === post.id));
  const changed = theirs.text.replace(/Mine\n$/, `${saved}\n`);
  await api.drafts.update(theirs.id, changed);
  return { api, post, panel, theirs, changed };
}

forEachProfile((profile) =>
  describe('the conversation page', () => {
    useCleanSlate();

    it('Open Post opens the page of the post: title, facts, the thread; opened again, the same page, read again', async () => {
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && typeof p.title === 'string');
      assert.ok(post);
      const panel = await openPage(post.id);
      assert.equal(panel.lastModel?.title, post.title);
      assert.ok(panel.lastModel?.facts.some((f) => f.value === `#${post.id}`));
      assert.equal(panel.lastModel?.messages[0]?.id, post.id, 'the post first');
      await waitFor('its tab', () => pageTabs(post.id).length === 1);
      const reads = async () =>
        (await standIn.requests()).filter((r) => r.method === 'GET' && r.path === `/app/posts/${post.id}.json`).length;
      const before = await reads();
      await vscode.commands.executeCommand('helpdesk.openPost', postUri(post.id, standIn.url));
      assert.equal((await extensionApi()).conversations.get(standIn.url, post.id), panel, 'the same page');
      assert.equal(pageTabs(post.id).length, 1, 'one tab');
      await waitFor('the post to be read again', async () => (await reads()) > before);
      // Open as Text: today's document, still there.
      await from(panel, { type: 'action', action: 'openAsText' });
      await waitFor('the post document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'helpdesk-post');
    });

    it("the hostile e-mail's page: every message sanitized, nothing of the sender's to run", async () => {
      const hostile = (await read<Post[]>('/app.json')).find(
        (p) => typeof p.content === 'string' && p.content.includes(HOSTILE_GLOBALS[0]!),
      );
      assert.ok(hostile, 'the corpus is in the demo data');
      const panel = await openPage(hostile.id);
      const html = panel.lastModel!.messages.map((m) => m.html ?? '').join('\n');
      assert.ok(html.length > 0, 'shown as an e-mail');
      assert.doesNotMatch(html, /<script|\son\w+\s*=|javascript:|\shref=|\sstyle=|<iframe|<form/i);
      for (const name of HOSTILE_GLOBALS) assert.ok(!html.includes(name), `${name} is in no markup`);
      // A message naming another post or account, or of no shape of the page's, does nothing.
      const before = (await standIn.requests()).length;
      await panel.receive({ type: 'action', action: 'close', account: panel.account.url, post: panel.postId + 1 });
      await panel.receive({ type: 'action', action: 'close', account: 'https://evil.example', post: panel.postId });
      await panel.receive({ type: 'run', command: 'workbench.action.terminal.new', account: panel.account.url, post: panel.postId });
      // The page's own loads (its customer card reads a list) may still be answered meanwhile:
      // what these messages would ask is a write, or something of the other post.
      const asked = (await standIn.requests())
        .slice(before)
        .filter((r) => r.method !== 'GET' || r.path.startsWith(`/app/posts/${panel.postId + 1}`))
        .map((r) => `${r.method} ${r.path}`);
      assert.deepEqual(asked, [], 'nothing asked of the helpdesk');
      assert.equal((await read<Post>(`/app/posts/${hostile.id}.json`)).closed, hostile.closed);
    });

    it('a reply whose answer is lost mid-send, pressed again meanwhile and retried, is filed once', async () => {
      const api = await extensionApi();
      const parent = (await read<Post[]>('/app.json')).find((p) => !p.post_id && p.task_kind !== 'comment')!;
      const panel = await openPage(parent.id);
      const text = `Checked with DPD ${Date.now()}`;
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', hold: true, dropAfterHandling: true, times: 1 });
      const first = from(panel, { type: 'send', text });
      await waitFor('the POST to be under way', async () => (await postsSent()).length === 1);
      assert.equal(panel.lastModel?.reply.state, 'sending');
      // A second press and a Retry while the first is held: nothing more is sent.
      const again = [from(panel, { type: 'send', text }), from(panel, { type: 'retry' })];
      await standIn.release();
      await Promise.all([first, ...again]);
      await waitFor('the page to say it was not sent', () => panel.lastModel?.reply.state === 'failed');
      assert.match(panel.lastModel?.reply.why ?? '', /Your reply is kept as a draft/);
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      assert.equal(draft.postId, parent.id);
      // Retried: where the helpdesk lists comments, the one the lost answer was for is found by its
      // marker; where it does not, the person is asked, and keeps the draft.
      if (!PROFILES[profile].listsComments) api.ui.answerNextQuestion('Keep Draft');
      await from(panel, { type: 'retry' });
      assert.equal((await postsSent()).length, 1, 'one POST');
      const sent = (await postsSent())[0]!.body as { post: Record<string, unknown> };
      assert.equal(withoutRef(sent.post.content), text);
      assert.equal(sent.post.post_id, parent.id);
      if (PROFILES[profile].listsComments) {
        await waitFor('the draft to be gone: the earlier attempt filed it', () => api.drafts.all().length === 0);
        assert.equal(panel.lastModel?.reply.state, 'writing');
      } else assert.equal(api.drafts.all().length, 1, 'kept, as the person chose');
    });

    it('the page is sent its model when it changes and whenever it starts, not at each change of the list that leaves it as it was', async () => {
      const [post] = (await read<Post[]>('/app.json')).filter(
        (p) => !p.post_id && typeof p.client_id === 'number' && p.closed !== true && p.task_kind !== 'comment',
      );
      assert.ok(post);
      const panel = await openPage(post.id);
      // The page's own start resends it all (it had nothing): that is not what is counted here.
      await waitFor('the page to have started', () => panel.pageStarts > 0);
      await waitFor(
        'the customer card to be read',
        () => panel.lastModel?.client?.postsCount && !/Loading/.test(panel.lastModel.client.postsCount),
      );
      // The list as the helpdesk has it now (earlier tests wrote to these posts): what follows reads it again, unchanged.
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      const settled = panel.lastModel!;
      const sent: PageModel[] = [];
      const { webview } = panel.panel;
      const postMessage = webview.postMessage.bind(webview);
      webview.postMessage = (message: { type?: string; model?: PageModel }) => {
        if (message?.type === 'show' && message.model) sent.push(message.model);
        return postMessage(message);
      };
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      const changed = (model: PageModel) =>
        Object.keys({ ...settled, ...model }).filter(
          (key) => JSON.stringify(settled[key as keyof PageModel]) !== JSON.stringify(model[key as keyof PageModel]),
        );
      assert.equal(
        sent.length,
        0,
        `the list read again, the page as it was: nothing sent (sent with ${sent.map(changed).join('; ')} changed)`,
      );
      // The page started again (a reload of its webview): it has nothing, and is sent all, its reply included.
      await from(panel, { type: 'ready', reply: 'Typed before the reload' });
      assert.equal(sent.length, 1);
      assert.deepEqual(sent[0], panel.lastModel);
      assert.equal(sent[0]!.reply.text, 'Typed before the reload');
      assert.equal(sent[0]!.messages[0]?.id, post.id, 'the thread');
      // An update of the post, answered (as a write of this extension's is shown): sent, the thread still there.
      const record = await read<Post>(`/app/posts/${post.id}.json`);
      (await extensionApi()).conversations.showUpdated(standIn.url, { ...record, title: 'Renamed while shown' });
      assert.equal(sent.at(-1)?.title, 'Renamed while shown');
      assert.deepEqual(sent.at(-1)!.messages, sent[0]!.messages);
      const draft = (await extensionApi()).drafts.all().find((d) => d.postId === post.id);
      assert.ok(draft?.text.endsWith('Typed before the reload\n'), 'the reply kept as a draft');
    });

    it("the customer card reads the Helpdesk list further only once the page has started: the page's start shares the window with no list pages", async () => {
      const api = await extensionApi();
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await waitFor('the first page of posts', () => !api.store.posts.state.loading && api.store.posts.state.items.length > 0);
      const { items, hasMore } = api.store.posts.state;
      assert.ok(hasMore, 'the helpdesk holds more than a page (else this could tell nothing)');
      // A post of a client's (after earlier tests, the newest page may hold only the posts they filed).
      const post = (await read<Post[]>('/app.json')).find(
        (p) => !p.post_id && typeof p.client_id === 'number' && p.task_kind !== 'comment',
      );
      assert.ok(post, 'a post of a client');
      const listed = items.length;
      const panel = await api.conversations.open(post.id, standIn.url);
      assert.ok(panel);
      // Made just now: the page's start (its first message) comes later, as a message of the window.
      const receive = panel.receive.bind(panel);
      let atStart: number | undefined;
      panel.receive = (value: unknown) => {
        if (atStart === undefined && (value as { type?: unknown } | undefined)?.type === 'ready')
          atStart = api.store.posts.state.items.length;
        return receive(value);
      };
      await waitFor('the page to have started', () => panel.pageStarts > 0);
      assert.equal(atStart, listed, 'no page of the list read for the card before the page started');
      await waitFor(
        'the customer card to be read',
        () => panel.lastModel?.client?.postsCount && !/Loading/.test(panel.lastModel.client.postsCount),
      );
      // Read further: it grew, or it was found to hold no more (a helpdesk that lists less than it stores).
      const after = api.store.posts.state;
      assert.ok(after.items.length > listed || !after.hasMore, 'then the list read further for the client’s other open posts');
    });

    it('a page shown again after it was hidden reads its customer card once it has started again, as at its first start', async () => {
      const api = await extensionApi();
      const [post, other] = (await read<Post[]>('/app.json')).filter(
        (p) => !p.post_id && typeof p.client_id === 'number' && p.task_kind !== 'comment',
      );
      assert.ok(post && other, 'two posts of clients');
      const panel = await openPage(post.id);
      await waitFor('the page to have started', () => panel.pageStarts > 0);
      await waitFor(
        'the customer card to be read',
        () => panel.lastModel?.client?.dealsCount && !/Loading/.test(panel.lastModel.client.dealsCount),
      );
      const second = await openPage(other.id);
      await waitFor('the first page to be hidden behind the second', () => !panel.panel.visible);
      // The second page's own card read first (it counts among the reads below).
      await waitFor(
        'the second card to be read',
        () => second.lastModel?.client?.dealsCount && !/Loading/.test(second.lastModel.client.dealsCount),
      );
      // Its deals to be read again at its next card (else that read would ask nothing of the helpdesk).
      api.store.retryDeals(post.client_id!);
      const dealsReads = async () => (await standIn.requests()).filter((r) => r.method === 'GET' && r.path === '/app/deals.json').length;
      const before = await dealsReads();
      // The page's start, when it comes, is held: until it is let through, the page has not started again.
      const starts = panel.pageStarts;
      const receive = panel.receive.bind(panel);
      let restarted = false;
      let letThrough!: () => void;
      const held = new Promise<void>((resolve) => (letThrough = resolve));
      panel.receive = async (value: unknown) => {
        if ((value as { type?: unknown } | undefined)?.type === 'ready') {
          restarted = true;
          await held;
        }
        return receive(value);
      };
      assert.equal(await api.conversations.open(post.id, standIn.url), panel, 'the same page, shown again');
      await panel.load();
      await waitFor('the page, shown again, to start again (a hidden page is not kept)', () => restarted);
      assert.equal(await dealsReads(), before, 'no card read while the page shown again is still starting');
      letThrough();
      await waitFor('the page to have started again', () => panel.pageStarts > starts);
      await waitFor('then the card to be read', async () => (await dealsReads()) > before);
    });

    it('a page that starts while its reply cannot be kept still reads its customer card', async () => {
      const api = await extensionApi();
      const post = (await read<Post[]>('/app.json')).find(
        (p) => !p.post_id && typeof p.client_id === 'number' && p.task_kind !== 'comment',
      );
      assert.ok(post, 'a post of a client');
      const panel = await api.conversations.open(post.id, standIn.url);
      assert.ok(panel);
      // The page's own start is held back: the one below, with the reply typed before a reload, is its start.
      const receive = panel.receive.bind(panel);
      panel.receive = (value: unknown) =>
        (value as { type?: unknown } | undefined)?.type === 'ready' ? Promise.resolve() : receive(value);
      await waitFor('the page to show the post', () => panel.lastModel?.facts.length);
      const create = api.drafts.create.bind(api.drafts);
      api.drafts.create = () => Promise.reject(new Error('ENOSPC: no space left on device'));
      try {
        await receive({ type: 'ready', reply: 'Typed before the reload', account: panel.account.url, post: panel.postId });
      } finally {
        api.drafts.create = create;
      }
      await waitFor(
        'the customer card to be read',
        () => panel.lastModel?.client?.postsCount && !/Loading/.test(panel.lastModel.client.postsCount),
      );
    });

    it('shows the newest copy of the post: a read of the list answered after the page read the post leaves it as it was', async () => {
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && typeof p.title === 'string');
      assert.ok(post);
      // The list is read, and its answer, made now, is slow to come.
      await standIn.addFault({ method: 'GET', path: '/app.json', holdAnswer: true, times: 1 });
      const listRead = vscode.commands.executeCommand('helpdesk.refreshPosts');
      await waitFor('the list to be read', async () =>
        (await standIn.requests()).some((r) => r.method === 'GET' && r.path === '/app.json'),
      );
      // Meanwhile renamed in the web app, and the page opened: it reads the post as it is now.
      const title = `Renamed in the web app ${Date.now()}`;
      await standIn.changeRecord('posts', post.id, { title });
      const panel = await openPage(post.id);
      await waitFor('the page to show the post as it is now', () => panel.lastModel?.title === title);
      // The list's answer, older than the page's copy, comes.
      assert.equal(await standIn.release(), 1);
      await listRead;
      assert.equal(panel.lastModel?.title, title, 'the newer copy kept');
      // Read again, the list has the newer copy too.
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      assert.equal(panel.lastModel?.title, title);
    });

    it('a later copy in the list (changed in the web app) is shown with its change and the whole message, as read', async () => {
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      // A post the list shows, longer than what a list may hand back of it (an abstract).
      let post: Post | undefined;
      for (const listed of (await extensionApi()).store.posts.state.items.filter((p) => !p.post_id && typeof p.title === 'string')) {
        const whole = await read<Post>(`/app/posts/${listed.id}.json`);
        if (typeof whole.content === 'string' && whole.content.length > 300) post = whole;
        if (post) break;
      }
      assert.ok(post, 'a listed post of some length');
      const panel = await openPage(post.id);
      const message = JSON.stringify(panel.lastModel?.messages[0]);
      const title = `Renamed in the web app ${Date.now()}`;
      await standIn.changeRecord('posts', post.id, { title });
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await waitFor('the page to show the change', () => panel.lastModel?.title === title);
      assert.equal(JSON.stringify(panel.lastModel?.messages[0]), message, 'the message as read, whatever the list hands back of it');
    });

    it('the unsent reply is kept as a draft: through a page closed and opened again; emptied, the draft goes', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id);
      const panel = await openPage(post!.id);
      const text = 'Half a reply, **with** Markdown';
      await from(panel, { type: 'reply', text });
      const draft = await waitFor('the reply saved as a draft', () => api.drafts.all().find((d) => d.postId === post!.id));
      assert.equal(draft.kind, 'comment');
      assert.equal(draft.accountUrl, standIn.url);
      assert.ok(draft.text.endsWith(`\n\n${text}\n`), draft.text);
      assert.equal((await postsSent()).length, 0, 'nothing sent');
      // The page's own reload (its webview state, Developer: Reload Webviews) is the UI test's: here, in a long
      // suite, code-server's webview service worker may keep a page from starting for a while.
      // Closed and opened again: the reply comes from its draft.
      panel.panel.dispose();
      await waitFor('the page to be gone', () => api.conversations.get(standIn.url, post!.id) === undefined);
      const again = await openPage(post!.id);
      assert.notEqual(again, panel);
      await waitFor('the new page to be given the reply', () => again.replyGiven === text);
      // Emptied, the draft goes.
      await from(again, { type: 'reply', text: '' });
      await waitFor('the emptied reply to leave no draft', () => api.drafts.all().length === 0);
    });

    it('what the page typed before its post is read is kept: given back to the page, and saved as the draft once the post comes', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      const first = await openPage(post.id);
      await from(first, { type: 'reply', text: 'abc' });
      await waitFor('the reply saved as a draft', () => api.drafts.all().find((d) => d.postId === post.id));
      first.panel.dispose();
      await waitFor('the page to be gone', () => api.conversations.get(standIn.url, post.id) === undefined);
      // The post's read is held: the page starts (as after a window reload, with more typed than the draft holds) before it comes.
      await standIn.addFault({ method: 'GET', path: `/app/posts/${post.id}.json`, hold: true, times: 1 });
      const panel = await api.conversations.open(post.id, standIn.url);
      assert.ok(panel);
      const receive = panel.receive.bind(panel);
      panel.receive = (value: unknown) =>
        (value as { type?: unknown } | undefined)?.type === 'ready' ? Promise.resolve() : receive(value);
      await receive({ type: 'ready', reply: 'abc def', account: panel.account.url, post: panel.postId });
      assert.equal(panel.lastModel?.facts.length, 0, 'the post not read yet');
      assert.equal(panel.replyGiven, 'abc def', 'the page keeps what it had, not the older draft');
      await receive({ type: 'reply', text: 'abc def ghi', account: panel.account.url, post: panel.postId });
      await waitFor('the held read', async () => (await standIn.release()) > 0);
      await waitFor('the post shown', () => panel.lastModel?.facts.length);
      await waitFor('what was typed saved as the draft', () =>
        api.drafts.all().find((d) => d.postId === post.id && d.text.endsWith('\n\nabc def ghi\n')),
      );
      assert.equal(api.drafts.all().filter((d) => d.postId === post.id).length, 1, 'one draft');
    });

    it('a reply draft changed elsewhere (another window, its editor) is not written over: it stays as it is, and what the page types is a draft of its own', async () => {
      const { api, post, panel, theirs, changed } = await replyChangedElsewhere('Theirs, saved in its editor');
      await from(panel, { type: 'reply', text: 'Mine, typed on' });
      await waitFor('what the page typed saved as a draft of its own', () =>
        api.drafts.all().some((d) => d.postId === post.id && d.id !== theirs.id && d.text.endsWith('\n\nMine, typed on\n')),
      );
      assert.equal(api.drafts.get(theirs.id)?.text, changed, 'the other text as it was saved');
      assert.match(panel.lastModel?.reply.note ?? '', /changed in another window/, 'the page says where the other text is');
      await from(panel, { type: 'openKeptDraft' });
      await waitFor('that draft in an editor', () =>
        vscode.window.activeTextEditor?.document.getText().includes('Theirs, saved in its editor'),
      );
      // Emptied, the page's own draft goes; the other stays.
      await from(panel, { type: 'reply', text: '' });
      await waitFor('the page’s draft gone', () => api.drafts.all().filter((d) => d.postId === post.id).length === 1);
      assert.equal(api.drafts.get(theirs.id)?.text, changed);
    });

    it('a reply emptied after its draft was changed elsewhere leaves that draft as it is', async () => {
      const { api, panel, theirs, changed } = await replyChangedElsewhere('Theirs');
      await from(panel, { type: 'reply', text: '' });
      assert.equal(api.drafts.get(theirs.id)?.text, changed, 'kept');
      await waitFor('the page to say where the other text is', () => /changed in another window/.test(panel.lastModel?.reply.note ?? ''));
    });

    it('Send, when the reply’s draft was changed elsewhere, sends nothing until the page has said so: the next Send sends the page’s text, once', async () => {
      const { api, panel, theirs, changed } = await replyChangedElsewhere('Theirs');
      await standIn.clearRequests();
      const sends = panel.lastModel!.reply.sends;
      await from(panel, { type: 'send', text: 'Mine, sent' });
      assert.equal((await postsSent()).length, 0, 'nothing sent');
      assert.match(panel.lastModel?.reply.note ?? '', /changed in another window/);
      assert.equal(panel.lastModel?.reply.sends, sends + 1, 'the Send answered: the page unlocks its box');
      await from(panel, { type: 'send', text: 'Mine, sent' });
      const sent = await postsSent();
      assert.equal(sent.length, 1, 'one POST');
      assert.equal(withoutRef((sent[0]!.body as { post: Record<string, unknown> }).post.content), 'Mine, sent');
      assert.equal(api.drafts.get(theirs.id)?.text, changed, 'the other kept, not sent');
    });

    it('Edit, after the failed reply’s draft was edited in its editor, types on that text: no second draft', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      const panel = await openPage(post.id);
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 422, times: 1 });
      await from(panel, { type: 'send', text: 'First try' });
      await waitFor('the page to say it was not sent', () => panel.lastModel?.reply.state === 'failed');
      const [draft] = api.drafts.all().filter((d) => d.postId === post.id);
      assert.ok(draft);
      // "Edit Draft" of the failure's notification: saved in the draft's editor.
      await api.drafts.update(draft.id, draft.text.replace(/First try\n$/, 'Second try\n'));
      await from(panel, { type: 'edit' });
      assert.equal(panel.replyGiven, 'Second try');
      await from(panel, { type: 'reply', text: 'Second try, typed on' });
      const drafts = api.drafts.all().filter((d) => d.postId === post.id);
      assert.deepEqual(
        drafts.map((d) => [d.id, d.text.endsWith('\n\nSecond try, typed on\n')]),
        [[draft.id, true]],
      );
      assert.equal(panel.lastModel?.reply.note, undefined);
    });

    it('a reply draft grown past the box in its editor: the page, started again, leaves it a draft of its own and starts empty', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      const panel = await openPage(post.id);
      await from(panel, { type: 'reply', text: 'Short' });
      const draft = await waitFor('the reply saved as a draft', () => api.drafts.all().find((d) => d.postId === post.id));
      const long = 'Written on in its editor. '.repeat(5_000); // 130,000 characters
      await api.drafts.update(draft.id, draft.text.replace(/Short\n$/, `${long}\n`));
      await from(panel, { type: 'ready' });
      assert.match(panel.lastModel?.reply.note ?? '', /longer than this box takes/);
      assert.ok((panel.replyGiven ?? '').length <= 100, 'the box not given the long text');
      await from(panel, { type: 'reply', text: 'A new one' });
      assert.ok(api.drafts.get(draft.id)?.text.includes(long.trim()), 'the long one as it was');
      assert.equal(api.drafts.all().filter((d) => d.postId === post.id).length, 2);
    });

    it('a page opened on a post with two unsent replies takes the newer and says where the other is', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      const older = await api.drafts.create(commentDraft({ url: standIn.url }, { parent: post, text: 'The older' }));
      await api.drafts.create(commentDraft({ url: standIn.url }, { parent: post, text: 'The newer' }));
      const panel = await openPage(post.id);
      await waitFor('the page to be given the newer', () => panel.replyGiven === 'The newer');
      assert.match(panel.lastModel?.reply.note ?? '', /Another unsent reply/);
      await from(panel, { type: 'openKeptDraft' });
      await waitFor('the older in an editor', () => vscode.window.activeTextEditor?.document.getText().includes('The older'));
      assert.ok(api.drafts.get(older.id));
    });

    it('a page that starts again with an empty box (its reply was sent) keeps a reply drafted since elsewhere, and shows it', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      // A follow-up written in the draft's editor (Comment on Task) while the page's box was empty.
      const followUp = await api.drafts.create(commentDraft({ url: standIn.url }, { parent: post, text: 'A follow-up' }));
      const again = await openPage(post.id);
      // Its start, as after a window reload, with the empty box its state kept.
      await from(again, { type: 'ready', reply: '' });
      assert.ok(api.drafts.get(followUp.id), 'the follow-up kept');
      assert.equal(again.replyGiven, 'A follow-up');
    });

    it('a reply draft longer than the box takes stays a draft of its own: the page says so and opens it, and starts with an empty box', async () => {
      const api = await extensionApi();
      const [post] = (await read<Post[]>('/app.json')).filter((p) => !p.post_id && p.task_kind !== 'comment');
      assert.ok(post);
      const long = 'A reply written in an editor. '.repeat(5_000); // 150,000 characters
      const kept = await api.drafts.create(commentDraft({ url: standIn.url }, { parent: post, text: long }));
      const panel = await openPage(post.id);
      assert.ok(panel.lastModel?.reply.note, 'the page says where the longer reply is');
      assert.equal(panel.lastModel?.reply.text, undefined, 'not given to the box');
      // The page's start, as after a reload, is taken (it names no reply the page could not send back).
      await from(panel, { type: 'ready' });
      assert.equal(panel.pageStarts > 0, true);
      await from(panel, { type: 'openKeptDraft' });
      await waitFor('the draft in an editor', () => vscode.window.activeTextEditor?.document.getText().includes(long.slice(0, 200)));
      await from(panel, { type: 'reply', text: 'A short one' });
      await waitFor('the short reply saved as a draft of its own', () =>
        api.drafts.all().some((d) => d.postId === post.id && d.id !== kept.id && d.text.endsWith('\n\nA short one\n')),
      );
      assert.ok(api.drafts.get(kept.id)?.text.includes(long.trim()), 'the long one as it was');
    });
  }),
);

describe("the conversation page of another account's post", () => {
  useCleanSlate();
  const contrary = standInOf('contrary');
  const LISTED_ELSEWHERE = 'Listed when this window uses this post’s account.';

  /** Signed in to both, this window on likely: a post of a client's of the contrary account. */
  async function theirPostOfAClient(): Promise<Post> {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // this window: likely
    const theirs = (await read<Post[]>('/app.json', contrary)).find(
      (p) => !p.post_id && p.task_kind !== 'comment' && typeof p.client_id === 'number',
    );
    assert.ok(theirs, 'a post with a client');
    return theirs;
  }

  it('a page brought back after a reload, of an account no longer signed in to, is closed; the reply its state kept is saved as the reply’s draft', async () => {
    const api = await extensionApi();
    await signInToStandIn(); // this window: likely
    const gone = 'https://signed-out.example.com'; // an account no window is signed in to (any more)
    const withDraft: Post = { id: 501, title: 'Invoice missing', client_id: 7 };
    const without: Post = { id: 502, title: 'Login fails' };
    const saved = await api.drafts.create(commentDraft({ url: gone }, { parent: withDraft, text: 'Typed' }));
    const restored = async (id: number, reply: string) => {
      const panel = vscode.window.createWebviewPanel(CONVERSATION_VIEW, `#${id}`, vscode.ViewColumn.Active, {});
      let closed = false;
      panel.onDidDispose(() => (closed = true));
      await api.conversations.restore(panel, { account: gone, post: id, reply });
      assert.equal(closed, true, 'closed');
      assert.equal(api.conversations.get(gone, id), undefined);
    };
    // Typed in the last moment before the reload (the page saves 400 ms after the last key): the draft has it.
    await restored(withDraft.id, 'Typed before the reload');
    assert.ok(api.drafts.get(saved.id)?.text.endsWith('\n\nTyped before the reload\n'), api.drafts.get(saved.id)?.text);
    // No draft yet: one is made, of that account and post.
    await restored(without.id, 'A first word');
    const made = api.drafts.all().filter((d) => d.postId === without.id);
    assert.deepEqual(
      made.map((d) => [d.accountUrl, d.kind, d.text.endsWith('\n\nA first word\n')]),
      [[gone, 'comment', true]],
    );
    assert.equal(api.drafts.all().length, 2);
    // A state that names no account's address as the extension writes one: closed, and nothing kept of it.
    const junk = vscode.window.createWebviewPanel(CONVERSATION_VIEW, '#504', vscode.ViewColumn.Active, {});
    await api.conversations.restore(junk, { account: '[Open](command:workbench.action.quit)', post: 504, reply: 'Hello' });
    assert.equal(api.drafts.all().filter((d) => d.postId === 504).length, 0);
  });

  it('acts on that account: its reply and its Close go there, none to the window’s account', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // this window: likely
    const theirs = (await read<Post[]>('/app.json', contrary)).find((p) => !p.post_id && p.closed !== true && p.task_kind !== 'comment');
    assert.ok(theirs);
    await standIn.clearRequests();
    const panel = await openPage(theirs.id, contrary.url);
    assert.equal(panel.account.url, contrary.url);
    assert.equal(panel.lastModel?.account, contrary.url);
    await from(panel, { type: 'send', text: 'Answered from the other account' });
    await waitFor('the reply to be filed', () => api.drafts.all().length === 0);
    const [sent] = await postsSent(contrary);
    assert.ok(sent, "the reply went to the post's account");
    assert.equal((sent.body as { post: { post_id: number } }).post.post_id, theirs.id);
    await from(panel, { type: 'action', action: 'close' });
    await waitFor('closed at that account', async () => (await read<Post>(`/app/posts/${theirs.id}.json`, contrary)).closed === true);
    await waitFor('the page to show it closed', () => panel.lastModel?.closed === true);
    const writes = (await standIn.requests()).filter((r) => r.method !== 'GET');
    assert.deepEqual(writes, [], "nothing written to the window's account");
    // Reopened, as it was.
    await from(panel, { type: 'action', action: 'reopen' });
    await waitFor('reopened', async () => (await read<Post>(`/app/posts/${theirs.id}.json`, contrary)).closed === false);
  });

  it('a page of the window’s account still reads and acts on it after the window switched to another account', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // this window: likely
    const ours = (await read<Post[]>('/app.json')).find((p) => !p.post_id && p.closed !== true && p.task_kind !== 'comment');
    assert.ok(ours);
    const panel = await openPage(ours.id);
    await vscode.commands.executeCommand('helpdesk.switchAccount', contrary.url);
    assert.equal(api.gateway.current?.account?.url, contrary.url);
    await standIn.clearRequests();
    await from(panel, { type: 'action', action: 'refresh' });
    assert.equal(panel.lastModel?.error, undefined, `read again, with no error (${panel.lastModel?.error})`);
    assert.ok(
      (await standIn.requests()).some((r) => r.method === 'GET' && r.path === `/app/posts/${ours.id}.json`),
      'read from the post’s account',
    );
    await from(panel, { type: 'send', text: 'Answered after the switch' });
    await waitFor('the reply to be filed', () => api.drafts.all().length === 0);
    const [sent] = await postsSent();
    assert.equal(
      (sent?.body as { post?: { post_id?: number } } | undefined)?.post?.post_id,
      ours.id,
      'the reply filed at the post’s account',
    );
  });

  it('its customer card is read from that account: the client and its deals, and says its other posts are not listed', async () => {
    const theirs = await theirPostOfAClient();
    const client = await read<{ name?: unknown }>(`/app/clients/${theirs.client_id}.json`, contrary);
    await standIn.clearRequests();
    const panel = await openPage(theirs.id, contrary.url);
    await waitFor('the card to be read', () => panel.lastModel?.client?.dealsCount !== 'Loading…');
    const card = panel.lastModel!.client!;
    if (typeof client.name === 'string') assert.ok(card.name.includes(client.name.trim().slice(0, 20)), card.name);
    assert.ok(card.dealsCount && !card.note, `deals read: ${card.dealsCount} ${card.note ?? ''}`);
    assert.equal(card.postsCount, LISTED_ELSEWHERE);
    const deals = (await (await fetch(`${contrary.url}/__standin/requests`)).json()) as { method: string; path: string }[];
    assert.ok(
      deals.some((r) => r.method === 'GET' && r.path === '/app/deals.json'),
      "the deals asked of the post's account",
    );
    assert.ok(!(await standIn.requests()).some((r) => r.path.includes('deals')), "none of the window's account");
  });

  it('its card counts the client’s other open posts once the window switches to that account', async () => {
    const theirs = await theirPostOfAClient();
    const panel = await openPage(theirs.id, contrary.url);
    await waitFor('the card, read from that account alone', () => panel.lastModel?.client?.postsCount === LISTED_ELSEWHERE);
    await vscode.commands.executeCommand('helpdesk.switchAccount', contrary.url);
    await waitFor('the card to count the other open posts from the window’s list', () => {
      const count = panel.lastModel?.client?.postsCount;
      return count !== undefined && count !== LISTED_ELSEWHERE && !/Loading/.test(count);
    });
  });
});
