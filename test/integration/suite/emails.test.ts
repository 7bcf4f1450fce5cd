// Issue 49: customers' HTML e-mails read as text in the real editor wherever a post's content
// shows — the Helpdesk view's tooltip, a reference's hover, the post document, the agent's tools —
// and the news notification — on each stand-in profile, whose `use_html` is a boolean (likely), a
// string (contrary) or left out (sparse). The posts are the hostile corpus, served by the stand-in
// as that profile sends them.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HOSTILE_ACTIVE, HOSTILE_BROKEN, HOSTILE_COMMENT, HOSTILE_ENCODED, HOSTILE_HIDDEN } from '../../server/demoEmails';
import { assertReadable, shownByMarkdown } from '../../unit/readableCheck';
import { extensionApi, forEachProfile, labelOf, outputLog, standIn, useCleanSlate, waitFor, type Profile } from './helpers';
import { elsewhere, freshStart, toldSince, useWatcher } from './newsHelpers';

const EMAILS = [
  { id: 9401, title: '', content: HOSTILE_ACTIVE, task_kind: 'email' },
  { id: 9402, title: 'Your mailbox is almost full', content: HOSTILE_HIDDEN, task_kind: 'email' },
  { id: 9403, title: '', content: HOSTILE_ENCODED, task_kind: 'email' },
  { id: 9404, title: 'Delivery failure notice', content: HOSTILE_BROKEN, task_kind: 'email' },
  { id: 9405, title: '', content: HOSTILE_COMMENT, task_kind: 'email' },
];

/** `use_html` as each profile's answers carry it (test/server/profile.ts). */
const USE_HTML: Record<Profile, { use_html?: unknown }> = { likely: { use_html: true }, contrary: { use_html: 'true' }, sparse: {} };

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const insideFences = (answer: string) => [...answer.matchAll(/^(`{3,})[^\n]*\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!).join('\n');
const config = () => vscode.workspace.getConfiguration('helpdesk');

describe('HTML e-mails as text in the editor', () => {
  before(() => config().update('referencePrefix', 'HD-', vscode.ConfigurationTarget.Global));
  after(() => config().update('referencePrefix', undefined, vscode.ConfigurationTarget.Global));

  forEachProfile((profile) => {
    useCleanSlate();
    const posts = EMAILS.map((post) => ({ ...post, ...USE_HTML[profile], status_id: 1, closed: false }));

    beforeEach(async () => {
      await standIn.addFault({ path: '/app.json', body: posts });
      for (const post of posts) await standIn.addFault({ path: `/app/posts/${post.id}.json`, body: post });
      await vscode.commands.executeCommand('helpdesk.refresh');
    });

    after(async () => {
      await standIn.clearFaults();
      await vscode.commands.executeCommand('helpdesk.refresh');
      const api = await extensionApi();
      await waitFor('the demo posts again', async () => !(await api.posts.getChildren()).some((n) => n.id === 'post:9401'));
    });

    it('the rows and their tooltips: the e-mail as text, escaped', async () => {
      const api = await extensionApi();
      const nodes = await waitFor('the e-mails as rows', async () => {
        const shown = (await api.posts.getChildren()).filter((n) => String(n.id).startsWith('post:94'));
        return shown.length === EMAILS.length ? shown : undefined;
      });
      for (const node of nodes) {
        const tooltip = api.posts.resolveTreeItem(new vscode.TreeItem('x'), node).tooltip;
        assert.ok(tooltip instanceof vscode.MarkdownString && !tooltip.isTrusted && !tooltip.supportHtml, String(node.id));
        assertReadable(shownByMarkdown(tooltip.value, String(node.id)), `${node.id}'s tooltip`);
        assertReadable(labelOf(node), `${node.id}'s label`);
      }
      const active = nodes.find((n) => n.id === 'post:9401')!;
      assert.match(labelOf(active), /^Dear customer, your invoice/, 'an untitled e-mail is named by its text');
    });

    it("a reference's hover names an untitled e-mail by its text", async () => {
      await extensionApi();
      const document = await vscode.workspace.openTextDocument({ content: '// HD-9401 and HD-9405\n', language: 'typescript' });
      for (const at of [5, 17]) {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          document.uri,
          new vscode.Position(0, at),
        );
        const markdown = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        assert.match(markdown, /command:helpdesk\.openPost/, markdown);
        const ours = markdown.split('\n').filter((line) => !line.includes('command:helpdesk'));
        assertReadable(shownByMarkdown(ours.join('\n'), `hover at ${at}`), `hover at ${at}`);
      }
    });

    it('the post document: the e-mail as text in its fence, said to be an HTML e-mail', async () => {
      const api = await extensionApi();
      for (const { id } of EMAILS) {
        await api.postDocuments.open(id);
        const text = vscode.window.activeTextEditor?.document.getText() ?? '';
        const fenced = /^(`{3,})text\n([\s\S]*?)\n\1$/m.exec(text);
        assert.ok(fenced, `#${id}: a fence in\n${text.slice(0, 400)}`);
        assertReadable(fenced[2]!, `#${id}'s document`);
        assert.match(text, /^- Content: an HTML e-mail, shown as text$/m, `#${id}`);
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it("the agent's tools: the e-mail as text, said to be HTML; found by its words, not its markup", async () => {
      const answer = await invoke('helpdesk_getPost', { post: 9401 });
      assertReadable(insideFences(answer), 'helpdesk_getPost');
      assert.match(answer, /Invoice portal <https:\/\/pay\.phish\.example\/inv\/2291>/, answer);
      assert.match(answer, /The content is an HTML e-mail, given as its text/, answer);
      const found = await invoke('helpdesk_searchPosts', { query: 'invoice portal', state: 'all' });
      assert.match(found, /HD-9401 · Dear customer, your invoice/, found);
      assert.match(await invoke('helpdesk_searchPosts', { query: 'onmouseover', state: 'all' }), /^No post matched/);
    });
  });
});

describe('a hostile e-mail told by the news', () => {
  forEachProfile((profile) => {
    useCleanSlate();
    useWatcher();
    const made: number[] = [];
    before(() => config().update('watch.notify', 'all', vscode.ConfigurationTarget.Global));
    after(async () => {
      await config().update('watch.notify', undefined, vscode.ConfigurationTarget.Global);
      for (const id of made.splice(0)) await fetch(`${standIn.url}/__standin/records/posts/${id}`, { method: 'DELETE' });
    });

    // No title, and a title of nothing one can read (a bidi mark, a zero-width space): named by the e-mail's text either way, as its row is.
    for (const [what, title] of [
      ['no title', ''],
      ['a title of invisible characters', '\u200f \u200b'],
    ] as const) {
      it(`with ${what}: plain text, one line, cut`, async () => {
        const api = await freshStart();
        const post = await elsewhere('POST', 'posts', { title, content: HOSTILE_ACTIVE, use_html: true, task_kind: 'email', user_id: 99 });
        made.push(post.id);
        const logged = outputLog(api).length;
        await api.watcher.pollNow();
        const line = await waitFor('the notification', () => toldSince(api, logged).find((l) => l.includes(`#${post.id}`)));
        // The whole message on its line: a line break in it would leave its end on the next.
        const told = new RegExp(`Notification: New post: "(.*)" \\(#${post.id}\\)\\.$`).exec(line);
        assert.ok(told, line);
        const name = told[1]!;
        assertReadable(name, `the notification of #${post.id}`);
        assert.ok(name.length <= 60, `cut: ${name}`);
        // The sparse service lists an abstract of the content: its first 250 characters, all of them the e-mail's head.
        if (profile !== 'sparse') assert.match(name, /^Dear customer, your invoice #INV-2291 is overdue\. .+…$/, name);
      });
    }
  });
});
