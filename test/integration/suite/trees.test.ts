import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HelpdeskNode } from '../../../src/views/nodes';
import { PROFILES } from '../../server';
import { forEachProfile, labelOf, signInToStandIn, standIn, waitFor, viewFilters, serverPosts as readServerPosts } from './helpers';

const config = () => vscode.workspace.getConfiguration('helpdesk');
const labels = (nodes: vscode.TreeItem[]) => nodes.map(labelOf);

type Api = Awaited<ReturnType<typeof signInToStandIn>>;

/** Every row of the Helpdesk view after loading page by page until no "Load more…" is left (at most 20 pages). */
async function loadAll(api: Api): Promise<HelpdeskNode[]> {
  for (let page = 0; page < 20; page++) {
    const rows = await api.posts.getChildren();
    if (rows.at(-1)?.contextValue !== 'loadMore') return rows;
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
  }
  assert.fail('still "Load more…" after 20 pages');
}

const postId = (nodeId: string) => Number(nodeId.split(':')[1]);

/** The account's posts, straight from the stand-in (every page). */
type ServerPost = { id: number; post_id: number | null; client_id: number | null };
const serverPosts = () => readServerPosts<ServerPost>();

forEachProfile((profile) =>
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
      const posts = nodes.filter((n) => /^post(\.closed)?(\.client)?$/.test(n.contextValue ?? ''));
      // A page; where the service lists oldest first, its last page and, when short, the one before.
      assert.ok(posts.length > 0 && posts.length <= 40);
      assert.ok(
        posts.every((n) => !n.contextValue?.startsWith('post.closed')),
        'closed posts are hidden by default',
      );
      const ids = posts.map((n) => Number(String(n.description).match(/#(\d+)/)?.[1]));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'newest first',
      );
      assert.equal(nodes.at(-1)?.contextValue, 'loadMore');
      const listCalls = (await standIn.requests()).filter((r) => r.path === '/app.json');
      // Where the service lists oldest first, the search for its last page (see the next test).
      if (profile !== 'contrary') assert.equal(listCalls.length, 1, 'one request per page');
      assert.ok(listCalls.every((call) => call.query.per_page === '20'));
    });

    it('the first rows are the newest posts, whatever order the service lists them in; Load more goes to older ones', async () => {
      const api = await signInToStandIn();
      await vscode.commands.executeCommand('helpdesk.showClosedPosts');
      try {
        // Read before the requests are cleared: they count the extension's, not this test's own.
        const listed = await serverPosts();
        await standIn.clearRequests();
        await vscode.commands.executeCommand('helpdesk.refreshPosts');
        const first = (await api.posts.getChildren()).filter((n) => n.contextValue?.startsWith('post'));
        const newest = listed
          .filter((p) => p.post_id === null)
          .map((p) => `post:${p.id}`)
          .sort((a, b) => postId(b) - postId(a));
        assert.ok(first.length >= 10, `a page's worth: ${first.length}`);
        assert.deepEqual(
          first.map((n) => n.id),
          newest.slice(0, first.length),
          'the newest posts, newest first',
        );
        const listCalls = (await standIn.requests()).filter((r) => r.path === '/app.json');
        const lastPage = Math.ceil(listed.length / 20);
        assert.ok(
          listCalls.length <= 2 * Math.floor(Math.log2(lastPage)) + 3,
          `${listCalls.length} requests to find them among ${lastPage} pages: ${listCalls.map((call) => `${call.query.page ?? 1}/${call.query.per_page}`).join(' ')}`,
        );
        await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
        const more = (await api.posts.getChildren()).filter((n) => n.contextValue?.startsWith('post'));
        assert.ok(more.length > first.length, 'Load more brought more');
        assert.deepEqual(
          more.map((n) => n.id),
          newest.slice(0, more.length),
          'older ones, below',
        );
        await standIn.clearRequests();
        await vscode.commands.executeCommand('helpdesk.refreshPosts');
        const again = (await api.posts.getChildren()).filter((n) => n.contextValue?.startsWith('post'));
        assert.deepEqual(
          again.map((n) => n.id),
          first.map((n) => n.id),
          'a refresh shows the newest again',
        );
        assert.ok(
          (await standIn.requests()).filter((r) => r.path === '/app.json').length <= 3,
          'a refresh probes from the last page found',
        );
      } finally {
        await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
      }
    });

    it('each view\'s refresh button reloads that view only; "Refresh" reloads both', async () => {
      await signInToStandIn();
      // Which lists were read (where the service lists oldest first, a refresh reads a few pages).
      const paths = async () => [...new Set((await standIn.requests()).map((r) => r.path))].sort();
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
      assert.ok(
        all.some((n) => /^post\.closed(\.client)?$/.test(n.contextValue ?? '')),
        'closed posts appear',
      );
      api.posts.setFilter({ kind: 'error' });
      const bugs = await api.posts.getChildren();
      const posts = bugs.filter((n) => n.contextValue?.startsWith('post'));
      assert.ok(posts.length > 0 && posts.length < all.length);
      assert.ok(posts.every((n) => (n.iconPath as vscode.ThemeIcon).id === 'bug'));
      await vscode.commands.executeCommand('helpdesk.clearFilter');
      await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
    });

    it("a post's tooltip is untrusted Markdown with its text escaped", async () => {
      const api = await signInToStandIn();
      const node = (await api.posts.getChildren()).find((n) => /^post(\.client)?$/.test(n.contextValue ?? ''))!;
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
      assert.ok(
        all.every((n) => n.contextValue === 'client'),
        'the demo has exactly 20 clients: no more "Load more…"',
      );
      const names = labels(all);
      const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
      assert.deepEqual(
        names,
        [...names].sort((a, b) => collator.compare(a, b)),
        'sorted by name',
      );

      let withDeals: vscode.TreeItem[] = [];
      for (const client of all) {
        withDeals = await api.clients.getChildren(client);
        if (withDeals.some((n) => n.contextValue === 'deal')) break;
      }
      assert.ok(
        withDeals.some((n) => n.contextValue === 'deal'),
        'some demo client has deals',
      );
      // Only the client's own deals, whether or not the service filters by client_id.
      const deals = (await (
        await fetch(`${standIn.url}/app/deals.json?api_token=${encodeURIComponent(standIn.token)}&per_page=100`)
      ).json()) as { id: number; client_id: number | null }[];
      for (const client of all) {
        const clientId = Number(String(client.id).split(':')[1]);
        const shown = (await api.clients.getChildren(client))
          .filter((n) => n.contextValue === 'deal')
          .map((n) => n.id)
          .sort();
        assert.deepEqual(
          shown,
          deals
            .filter((d) => d.client_id === clientId)
            .map((d) => `deal:${d.id}`)
            .sort(),
          `the deals of client ${clientId}`,
        );
      }
    });

    it("a text filter narrows by title or content and shows itself in the view's description", async () => {
      const api = await signInToStandIn();
      const all = (await api.posts.getChildren()).filter((n) => /^post(\.client)?$/.test(n.contextValue ?? ''));
      const word = labelOf(all[0]!).split(' ')[0]!;
      api.posts.setFilter({ text: word });
      const narrowed = (await api.posts.getChildren()).filter((n) => /^post(\.client)?$/.test(n.contextValue ?? ''));
      assert.ok(narrowed.length >= 1 && narrowed.length <= all.length);
      assert.equal(viewFilters(api), `“${word}”`);
      await vscode.commands.executeCommand('helpdesk.clearFilter');
      assert.equal(viewFilters(api), undefined);
    });

    it('a service that sends fewer posts than asked still offers "Load more…", and loading reaches every post', async () => {
      const api = await signInToStandIn();
      await config().update('pageSize', 50, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('helpdesk.showClosedPosts');
      try {
        await vscode.commands.executeCommand('helpdesk.refreshPosts');
        const first = await api.posts.getChildren();
        assert.equal(first.at(-1)?.contextValue, 'loadMore', 'more after the first page, however short');
        const all = await loadAll(api);
        assert.equal(
          all.find((n) => n.id === 'posts:error'),
          undefined,
          `the end of the list is no error: ${labels(all.slice(-1)).join(',')}`,
        );
        const rows = all.filter((n) => n.contextValue?.startsWith('post'));
        const expected = (await serverPosts()).filter((p) => p.post_id === null);
        assert.deepEqual(rows.map((n) => n.id).sort(), expected.map((p) => `post:${p.id}`).sort(), 'every post, each once');
      } finally {
        await config().update('pageSize', 20, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
      }
    });

    it('comments never stand as rows of their own; where the service lists them, they show below their post', async () => {
      const api = await signInToStandIn();
      await vscode.commands.executeCommand('helpdesk.showClosedPosts');
      try {
        await vscode.commands.executeCommand('helpdesk.refreshPosts');
        const rows = await loadAll(api);
        assert.ok(!rows.some((n) => n.contextValue === 'comment'), 'no comment at the top level');
        const threads = rows.filter((n) => n.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed);
        if (!PROFILES[profile].listsComments) {
          assert.equal(threads.length, 0, 'this service lists no comments in /app.json');
          return;
        }
        assert.ok(threads.length > 0, 'posts with comments expand');
        const comments = await api.posts.getChildren(threads[0]);
        assert.ok(comments.length > 0 && comments.every((n) => n.contextValue === 'comment'));
        const parentId = Number(String(threads[0]!.id).split(':')[1]);
        const expected = (await serverPosts()).filter((p) => p.post_id === parentId).map((p) => `post:${p.id}`);
        assert.deepEqual(
          comments.map((n) => n.id),
          expected,
          'its comments, oldest first',
        );
      } finally {
        await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
      }
    });

    it("shows a post's status by the name the service gives it", async () => {
      const api = await signInToStandIn();
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await waitFor('status names in the rows', async () =>
        (await api.posts.getChildren()).some((n) => /· (New|In progress|Waiting for reply)\b/.test(String(n.description))),
      );
    });

    it("Copy Link puts the post's web page on the clipboard, and Open in Browser opens it", async () => {
      const api = await signInToStandIn();
      const node = (await api.posts.getChildren()).find((n) => /^post(\.client)?$/.test(n.contextValue ?? ''))!;
      const id = Number(String(node.description).match(/#(\d+)/)?.[1]);
      await vscode.env.clipboard.writeText('');
      await vscode.commands.executeCommand('helpdesk.copyLink', node);
      assert.equal(await vscode.env.clipboard.readText(), `${standIn.url}/app/posts/${id}`);
      // A loopback URL opens without a confirmation dialog; the command resolves once it is handed over.
      await vscode.commands.executeCommand('helpdesk.openInBrowser', node);
    });
  }),
);
