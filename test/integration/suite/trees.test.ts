import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signInToStandIn, standIn } from './helpers';

const config = () => vscode.workspace.getConfiguration('helpdesk');
const labels = (nodes: vscode.TreeItem[]) => nodes.map((n) => String(typeof n.label === 'object' ? n.label?.label : n.label));

describe('trees', () => {
  before(async () => {
    await config().update('pageSize', 20, vscode.ConfigurationTarget.Global);
    await signInToStandIn();
  });

  after(async () => {
    await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await config().update('showClosedPosts', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('helpdesk.clearFilter');
  });

  it('the Helpdesk view shows the newest posts, open ones only, and "Load more…"', async () => {
    const api = await signInToStandIn();
    await standIn.clearRequests();
    await vscode.commands.executeCommand('helpdesk.refresh');
    const nodes = await api.posts.getChildren();
    const posts = nodes.filter((n) => n.contextValue === 'post' || n.contextValue === 'post.closed');
    assert.ok(posts.length > 0 && posts.length <= 20);
    assert.ok(posts.every((n) => n.contextValue === 'post'), 'closed posts are hidden by default');
    const ids = posts.map((n) => Number(String(n.description).match(/#(\d+)/)?.[1]));
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first');
    assert.equal(nodes.at(-1)?.contextValue, 'loadMore');
    const listCalls = (await standIn.requests()).filter((r) => r.path === '/app.json');
    assert.equal(listCalls.length, 1, 'one request per page');
    assert.equal(listCalls[0]!.query.per_page, '20');
  });

  it('each view\'s refresh button reloads that view only; "Refresh" reloads both', async () => {
    await signInToStandIn();
    const paths = async () => (await standIn.requests()).map((r) => r.path).sort();
    await standIn.clearRequests();
    await vscode.commands.executeCommand('helpdesk.refreshPosts');
    assert.deepEqual(await paths(), ['/app.json']);
    await standIn.clearRequests();
    await vscode.commands.executeCommand('helpdesk.refreshClients');
    assert.deepEqual(await paths(), ['/app/clients.json']);
    await standIn.clearRequests();
    await vscode.commands.executeCommand('helpdesk.refresh');
    assert.deepEqual(await paths(), ['/app.json', '/app/clients.json']);
  });

  it('"Load more…" appends the next page', async () => {
    const api = await signInToStandIn();
    const before = (await api.posts.getChildren()).length;
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
    const after = await api.posts.getChildren();
    assert.ok(after.length > before, `${after.length} > ${before}`);
    assert.equal(new Set(after.map((n) => n.id)).size, after.length, 'no duplicates');
  });

  it('shows closed posts when asked, and a filter narrows the list', async () => {
    const api = await signInToStandIn();
    await vscode.commands.executeCommand('helpdesk.showClosedPosts');
    const all = await api.posts.getChildren();
    assert.ok(all.some((n) => n.contextValue === 'post.closed'), 'closed posts appear');
    api.actions.filterPosts({ kind: 'error' });
    const bugs = await api.posts.getChildren();
    const posts = bugs.filter((n) => n.contextValue?.startsWith('post'));
    assert.ok(posts.length > 0 && posts.length < all.length);
    assert.ok(posts.every((n) => (n.iconPath as vscode.ThemeIcon).id === 'bug'));
    await vscode.commands.executeCommand('helpdesk.clearFilter');
    await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
  });

  it('a post\'s tooltip is untrusted Markdown with its text escaped', async () => {
    const api = await signInToStandIn();
    const node = (await api.posts.getChildren()).find((n) => n.contextValue === 'post')!;
    const item = api.posts.resolveTreeItem(new vscode.TreeItem('x'), node);
    const tooltip = item.tooltip as vscode.MarkdownString;
    assert.equal(tooltip.isTrusted, false);
    assert.equal(tooltip.supportHtml, false);
    assert.ok(tooltip.value.length > 0);
  });

  it('the Clients view pages clients, and a client expands to its deals', async () => {
    const api = await signInToStandIn();
    const first = await api.clients.getChildren();
    assert.equal(first.filter((n) => n.contextValue === 'client').length, 20);
    assert.equal(first.at(-1)?.contextValue, 'loadMore');
    await vscode.commands.executeCommand('helpdesk.loadMore', 'clients');
    const all = await api.clients.getChildren();
    assert.ok(all.every((n) => n.contextValue === 'client'), 'the demo has exactly 20 clients: no more "Load more…"');
    const names = labels(all);
    assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })), 'sorted by name');

    let withDeals: vscode.TreeItem[] = [];
    for (const client of all) {
      withDeals = await api.clients.getChildren(client);
      if (withDeals.some((n) => n.contextValue === 'deal')) break;
    }
    assert.ok(withDeals.some((n) => n.contextValue === 'deal'), 'some demo client has deals');
  });

  it('a text filter narrows by title or content and shows itself in the view\'s description', async () => {
    const api = await signInToStandIn();
    const all = (await api.posts.getChildren()).filter((n) => n.contextValue === 'post');
    const word = String(all[0]!.label).split(' ')[0]!;
    api.actions.filterPosts({ text: word });
    const narrowed = (await api.posts.getChildren()).filter((n) => n.contextValue === 'post');
    assert.ok(narrowed.length >= 1 && narrowed.length <= all.length);
    assert.equal(api.posts.view?.description, `“${word}”`);
    await vscode.commands.executeCommand('helpdesk.clearFilter');
    assert.equal(api.posts.view?.description, undefined);
  });

  it('Copy Link puts the post\'s web page on the clipboard, and Open in Browser opens it', async () => {
    const api = await signInToStandIn();
    const node = (await api.posts.getChildren()).find((n) => n.contextValue === 'post')!;
    const id = Number(String(node.description).match(/#(\d+)/)?.[1]);
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('helpdesk.copyLink', node);
    assert.equal(await vscode.env.clipboard.readText(), `${standIn.url}/app/posts/${id}`);
    // A loopback URL opens without a confirmation dialog; the command resolves once it is handed over.
    await vscode.commands.executeCommand('helpdesk.openInBrowser', node);
  });
});

