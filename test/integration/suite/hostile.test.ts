// What a hostile or broken server sends must show inert and readable: markup and command links
// escaped, invisible and bidi characters gone, long titles cut, wrong types and records without
// an id shrugged off. The stand-in answers the lists with forced bodies.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, labelOf, standIn, useCleanSlate, waitFor } from './helpers';

const QUIT = '[click](command:workbench.action.quit)';
const LONG = `${'Long title '.repeat(909)}!`; // 10,000 characters
/** Controls, bidi marks and zero-width or other invisible characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

const HOSTILE_POST = {
  id: 9101,
  title: '<script>alert(1)</script><img src=x onerror=alert(2)>',
  content: `${QUIT} <script>alert(3)</script>\n\`\`\`\n<b>after a fence</b>`,
  kind: '<b>kind</b>',
  created_at: QUIT,
  client_id: 'abc',
};

const POSTS: unknown[] = [
  HOSTILE_POST,
  { id: 9102, title: `${QUIT} <command:workbench.action.quit>`, content: '$(zap) **bold**', kind: 'constructor' },
  { id: 9103, title: 'invoice\u202Efdp.exe\u200B\u200C\u200D\u2060\uFEFF\u061C\u2066end', content: '\u202Eright to left\u200B' },
  { id: 9104, title: '😀 👨‍👩‍👧 🇫🇷 e\u0301', content: '😀'.repeat(400) },
  { id: 9105, title: LONG, content: LONG },
  {
    id: 9106,
    title: 42,
    content: { a: 1 },
    closed: 'yes',
    kind: ['x'],
    task_kind: 7,
    created_at: 7,
    client_id: 'abc',
    comments_cache: '3',
  },
  { id: 9107, title: null, content: null, kind: null, task_kind: null, closed: null, created_at: null, client_id: null },
  { id: 9108, title: 'one\ntwo\r\nthree\u2028four\u0000five\u001b[31m', content: 'a\r\nb\u0000' },
  // A numeric string is read as the number it spells.
  { id: '9109', title: 'a string id' },
  // Without a usable id: skipped, not shown, not fatal.
  { id: -1, title: 'negative id' },
  { id: 1.5, title: 'fractional id' },
  { id: null, title: 'null id' },
  { title: 'no id' },
  null,
  'a string',
  42,
  ['a', 'list'],
  { id: 9101, title: 'the same id again' },
];

const CLIENTS: unknown[] = [
  { id: 9201, name: '<script>alert(1)</script>', city: '\u202Eevil', email: QUIT },
  { id: 9202, name: LONG, city: 'x'.repeat(500) },
  { id: 9203, name: 42, city: { a: 1 }, email: ['x'], company: 'no' },
  { id: 9204, name: null, city: null, email: null, company: null },
  { id: 'x', name: 'a string id' },
  null,
];

const DEALS: unknown[] = [
  { id: 9301, name: '<script>alert(1)</script>\u202E', price: { a: 1 }, client_id: 9201 },
  { id: 9302, name: LONG, price: '9'.repeat(300), client_id: '9201' },
  { id: 9303, name: "another client's deal", client_id: 9202 },
  { id: 'z', name: 'a string id', client_id: 9201 },
];

/** A label or description that is one clean line of at most `max` characters. */
function assertCleanLine(text: string, max: number, what: string): void {
  assert.ok(text.length <= max, `${what}: ${text.length} > ${max}`);
  assert.ok(!INVISIBLE.test(text), `${what}: ${JSON.stringify(text)}`);
  assert.equal(text, text.trim(), what);
}

describe('hostile content from the server', () => {
  // Posts made here by earlier files stay in the view while the service's list does not show them
  // gone (a list that repeats one page never does): signed out, the view starts as a new window's.
  before(() => vscode.commands.executeCommand('helpdesk.signOut', standIn.url));
  useCleanSlate();

  beforeEach(async () => {
    await standIn.addFault({ path: '/app.json', body: POSTS });
    await standIn.addFault({ path: '/app/posts/9101.json', body: HOSTILE_POST });
    await standIn.addFault({ path: '/app/clients.json', body: CLIENTS });
    await standIn.addFault({ path: '/app/deals.json', body: DEALS });
    await vscode.commands.executeCommand('helpdesk.refresh');
  });

  after(async () => {
    await standIn.clearFaults();
    await vscode.commands.executeCommand('helpdesk.refresh');
    const api = await extensionApi();
    await waitFor('the demo posts again', async () => !(await api.posts.getChildren()).some((n) => n.id === 'post:9101'));
  });

  it('the Helpdesk view shows one row per record with a usable id, with clean one-line labels', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('helpdesk.posts.focus');
    await vscode.commands.executeCommand('helpdesk.showClosedPosts');
    const nodes = (await api.posts.getChildren()).filter((n) => n.contextValue !== 'loadMore');
    await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
    assert.deepEqual(
      nodes.map((n) => n.id),
      [9109, 9108, 9107, 9106, 9105, 9104, 9103, 9102, 9101].map((id) => `post:${id}`),
      'newest first; records without a positive whole id, and a repeated id, are skipped',
    );
    for (const node of nodes) {
      assertCleanLine(labelOf(node), 120, String(node.id));
      assertCleanLine(String(node.description), 120, `${node.id} description`);
      assert.equal(typeof (node.iconPath as vscode.ThemeIcon).id, 'string', `${node.id} icon`);
    }
    const label = (id: number) => labelOf(nodes.find((n) => n.id === `post:${id}`)!);
    assert.equal(label(9101), HOSTILE_POST.title, 'markup is plain text in a label');
    assert.equal(label(9103), 'invoice fdp.exe end');
    assert.equal(label(9104), '😀 👨 👩 👧 🇫🇷 e\u0301', 'emoji stay (joiners drop)');
    assert.equal(label(9105).length, 120);
    assert.ok(label(9105).endsWith('…') && LONG.startsWith(label(9105).slice(0, -1)));
    assert.equal(label(9106), '42');
    assert.equal(label(9107), 'Post #9107');
    assert.equal(label(9108), 'one two three four five [31m');
    assert.equal(label(9109), 'a string id');
    assert.match(nodes.find((n) => n.id === 'post:9106')!.contextValue ?? '', /^post\.closed(\.client)?$/, '"yes" reads as true');
    assert.equal((nodes.find((n) => n.id === 'post:9102')!.iconPath as vscode.ThemeIcon).id, 'note', 'kind "constructor" is no icon name');
  });

  it('tooltips are untrusted Markdown without HTML, and markup and command links stay text', async () => {
    const api = await extensionApi();
    for (const node of (await api.posts.getChildren()).filter((n) => n.contextValue !== 'loadMore')) {
      const tooltip = api.posts.resolveTreeItem(new vscode.TreeItem('x'), node).tooltip;
      assert.ok(tooltip instanceof vscode.MarkdownString, String(node.id));
      assert.ok(!tooltip.isTrusted, `${node.id} is not trusted`);
      assert.ok(!tooltip.supportHtml, `${node.id} renders no HTML`);
      const md = tooltip.value;
      assert.ok(!/(?<!\\)\]\(/.test(md), `${node.id}: no live link in ${md}`);
      assert.ok(!/(?<!\\)>/.test(md), `${node.id}: no tag can close in ${md}`);
      assert.ok(!/(?<!\\)\$\(/.test(md), `${node.id}: no theme icon in ${md}`);
      assert.ok(!INVISIBLE.test(md.replace(/\n/g, '')), `${node.id}: ${JSON.stringify(md)}`);
      assert.ok(md.length < 2000, `${node.id}: ${md.length} characters`);
    }
    const hostile = (await api.posts.getChildren()).find((n) => n.id === 'post:9101')!;
    const md = (api.posts.resolveTreeItem(new vscode.TreeItem('x'), hostile).tooltip as vscode.MarkdownString).value;
    assert.ok(md.includes('\\[click\\]') && !/\]\s*\\?\(command:/.test(md.replace(/\\\]/g, '')), md);
  });

  it('the post document shows the title escaped, the facts escaped and the content fenced', async () => {
    await (await extensionApi()).postDocuments.open(9101);
    const editor = await waitFor('the post editor', () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'helpdesk-post' ? vscode.window.activeTextEditor : undefined,
    );
    const text = editor.document.getText();
    const [head, fence] = [text.slice(0, text.indexOf('````text\n')), text.slice(text.indexOf('````text\n'))];
    assert.match(head, /^# \\<script\\>alert\(1\)\\<\/script\\>\\<img src=x onerror=alert\(2\)\\>\n/);
    // workbench.action.quit is a host name by its shape: inline code, which no preview links.
    assert.match(head, /\n- Created: \\\[click\\\] `\(command:workbench\.action\.quit\)`\n/, 'escaped, and no `](` left for a link');
    assert.match(head, /\n- Kind: \\<b\\>kind\\<\/b\\>\n/);
    assert.ok(!head.includes('- Client:'), 'a client id that is not a number is left out');
    assert.ok(!/(?<!\\)[<>]|(?<!\\)\]\(/.test(head), `nothing live outside the fence:\n${head}`);
    assert.equal(fence, `\`\`\`\`text\n${QUIT} <script>alert(3)</script>\n\`\`\`\n<b>after a fence</b>\n\`\`\`\`\n`);
  });

  it("the Clients view and a client's deals take wrong types and markup in their stride", async () => {
    const api = await extensionApi();
    const clients = (await api.clients.getChildren()).filter((n) => n.contextValue === 'client');
    // By name as read: no name, '<script>…', '42', 'Long title…'.
    assert.deepEqual(
      clients.map((n) => n.id),
      ['client:9204', 'client:9201', 'client:9203', 'client:9202'],
    );
    for (const node of clients) {
      assertCleanLine(labelOf(node), 120, String(node.id));
      assertCleanLine(String(node.description ?? ''), 80, `${node.id} description`);
    }
    assert.equal(labelOf(clients[1]!), '<script>alert(1)</script>');
    assert.equal(labelOf(clients[2]!), '42');
    assert.equal(labelOf(clients[0]!), 'Client #9204');
    const deals = await api.clients.getChildren(clients[1]);
    assert.deepEqual(
      deals.map((n) => n.id),
      ['deal:9301', 'deal:9302'],
      "only this client's deals, with a usable id",
    );
    for (const node of deals) {
      assertCleanLine(labelOf(node), 120, String(node.id));
      assertCleanLine(String(node.description), 40, `${node.id} description`);
    }
  });
});
