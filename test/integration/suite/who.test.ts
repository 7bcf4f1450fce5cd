import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HelpdeskNode } from '../../../src/views/nodes';
import { forEachProfile, signInToStandIn, standIn, useCleanSlate, viewFilters, serverPosts as readServerPosts } from './helpers';

const config = () => vscode.workspace.getConfiguration('helpdesk');
type Api = Awaited<ReturnType<typeof signInToStandIn>>;

/** The posts `/app.json` lists (every page), as the stand-in answers them. */
type ServerPost = { id: number; post_id: number | null; user_id: number | null; responsible_id: number | null; closed: boolean };
const serverPosts = () => readServerPosts<ServerPost>();

/** The open posts (not comments) that `keep` picks, as the view's rows name them, newest first. */
async function expectedRows(keep: (post: ServerPost) => boolean): Promise<string[]> {
  return (await serverPosts())
    .filter((p) => p.post_id === null && p.closed !== true && keep(p))
    .sort((a, b) => b.id - a.id)
    .map((p) => `post:${p.id}`);
}

const postRows = (nodes: HelpdeskNode[]) => nodes.filter((n) => n.contextValue?.startsWith('post')).map((n) => String(n.id));
const listCalls = async () => (await standIn.requests()).filter((r) => r.path === '/app.json').length;

/** Forgets who the person is and what was filed from here, in the signed-in account. */
async function forgetIdentity(api: Api): Promise<void> {
  await api.context.globalState.update(`helpdesk.identity:${api.session.accountUrl}`, undefined);
  await vscode.commands.executeCommand('helpdesk.showEverything');
}

/** Every post row, loading until no "Load more…" is left (the view in Everything). */
async function loadAll(api: Api): Promise<void> {
  for (let click = 0; click < 100; click++) {
    if ((await api.posts.getChildren()).at(-1)?.contextValue !== 'loadMore') return;
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
  }
  assert.fail('still "Load more…" after 100 pages');
}

forEachProfile(() =>
  describe('who I am and my work', () => {
    useCleanSlate();

    afterEach(async () => {
      await forgetIdentity(await signInToStandIn());
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    });

    it('learns who I am from the answer to a post it filed; Set Who I Am… overrides it, and a later post does not', async () => {
      const api = await signInToStandIn();
      await forgetIdentity(api);
      const url = api.session.accountUrl!;
      assert.equal(api.identity.me(url), undefined);

      await vscode.commands.executeCommand('helpdesk.showAssignedToMe');
      const unknown = await api.posts.getChildren();
      assert.deepEqual(
        unknown.map((n) => [n.id, n.command?.command]),
        [['posts:who-am-i', 'helpdesk.setWhoIAm']],
        'not an empty list: a row that says how to set it',
      );
      assert.equal(viewFilters(api), 'Assigned to Me');

      const task = await api.actions.createTask({ title: `Mine ${Date.now()}`, content: 'Filed from VS Code' });
      assert.ok(task);
      const owner = { id: 1, nick: 'owner' };
      if (standIn.profile === 'sparse') {
        // This service names no author of a post created through the API: nothing is guessed.
        assert.equal(api.identity.me(url), undefined);
        assert.deepEqual(
          (await api.posts.getChildren()).map((n) => n.id),
          ['posts:who-am-i'],
        );
      } else {
        assert.deepEqual(api.identity.me(url), { ...owner, source: 'learned' });
        await api.posts.whenFilled();
        assert.equal(viewFilters(api), 'Assigned to Me (user 1 · owner)');
        assert.ok(!(await api.posts.getChildren()).some((n) => n.id === 'posts:who-am-i'));
      }

      // Filed by Me shows the post filed from here, known or not who I am.
      await vscode.commands.executeCommand('helpdesk.showFiledByMe');
      const filed = await api.posts.getChildren();
      assert.ok(postRows(filed).includes(`post:${task.id}`), 'the task filed from here');
      assert.equal(
        filed[0]?.id === 'posts:who-am-i',
        standIn.profile === 'sparse',
        'the row that says how to set who I am, only while not known',
      );

      // The users seen in the loaded posts name user 2 as anna.
      await vscode.commands.executeCommand('helpdesk.showEverything');
      await loadAll(api);
      await vscode.commands.executeCommand('helpdesk.setWhoIAm', 2);
      assert.deepEqual(api.identity.me(url), { id: 2, nick: 'anna', source: 'set' });
      assert.ok(await api.actions.createTask({ title: `Mine too ${Date.now()}`, content: 'Filed from VS Code' }));
      assert.deepEqual(api.identity.me(url), { id: 2, nick: 'anna', source: 'set' }, 'a learned id never overrides one set by the person');

      await vscode.commands.executeCommand('helpdesk.showAssignedToMe');
      assert.equal(viewFilters(api), 'Assigned to Me (user 2 · anna)');
      assert.deepEqual(postRows(await api.posts.getChildren()), await expectedRows((p) => p.responsible_id === 2));
    });

    it('Assigned to Me loads page after page by itself until the list ends (fewer than a screenful are mine), then Filed by Me and Everything', async () => {
      const api = await signInToStandIn();
      await forgetIdentity(api);
      // About a dozen pages, whatever the suite filed before: fewer than the 20 one choice loads.
      const pageSize = Math.max(2, Math.ceil((await serverPosts()).length / 12));
      await config().update('pageSize', pageSize, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.posts.getChildren();
      // With the nick: set by number, it would come from whichever posts earlier tests loaded.
      await api.identity.set(api.session.accountUrl!, 1, 'owner');
      await standIn.clearRequests();

      await vscode.commands.executeCommand('helpdesk.showAssignedToMe');
      const assigned = await api.posts.getChildren();
      const mine = await expectedRows((p) => p.responsible_id === 1);
      assert.ok(mine.length > 5 && mine.length < 20, `the demo assigns ${mine.length} open posts to user 1`);
      assert.deepEqual(postRows(assigned), mine, 'every open post assigned to me, newest first');
      assert.notEqual(assigned.at(-1)?.contextValue, 'loadMore', 'the list was read to its end');
      assert.ok((await listCalls()) >= 6, `several pages were loaded by themselves: ${await listCalls()}`);
      assert.equal(viewFilters(api), 'Assigned to Me (user 1 · owner)');

      await vscode.commands.executeCommand('helpdesk.showFiledByMe');
      const filed = api.identity.whoIAm(api.session.accountUrl!).filed;
      const filedRows = postRows(await api.posts.getChildren());
      const filedExpected = await expectedRows((p) => p.user_id === 1 || filed.has(p.id));
      assert.deepEqual(filedRows, filedExpected.slice(0, filedRows.length), 'the posts user 1 wrote, newest first');
      assert.ok(
        filedRows.length >= Math.min(20, filedExpected.length),
        `a screenful, or all: ${filedRows.length} of ${filedExpected.length}`,
      );
      assert.equal(viewFilters(api), 'Filed by Me (user 1 · owner)');

      await vscode.commands.executeCommand('helpdesk.showEverything');
      assert.equal(viewFilters(api), undefined);
      const everything = postRows(await api.posts.getChildren());
      assert.deepEqual(everything, (await expectedRows(() => true)).slice(0, everything.length), 'every open post, newest first');
    });

    it('stops after 20 pages with "Load more…", which loads up to 20 more the same way', async () => {
      const api = await signInToStandIn();
      await forgetIdentity(api);
      await vscode.commands.executeCommand('helpdesk.setWhoIAm', 3);
      await config().update('pageSize', 1, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.posts.getChildren();

      await standIn.clearRequests();
      await vscode.commands.executeCommand('helpdesk.showAssignedToMe');
      assert.equal(await listCalls(), 20, 'twenty pages after the one loaded');
      const first = await api.posts.getChildren();
      assert.equal(first.at(-1)?.contextValue, 'loadMore', 'a screenful not reached: Load more… goes on');
      const rows = postRows(first);
      assert.ok(rows.length < 20);
      const mine = new Set(await expectedRows((p) => p.responsible_id === 3));
      assert.ok(
        rows.every((id) => mine.has(id)),
        'only posts assigned to user 3',
      );

      await standIn.clearRequests();
      await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
      assert.equal(await listCalls(), 20, 'one click: 20 pages more');
      const more = postRows(await api.posts.getChildren());
      assert.ok(rows.every((id) => more.includes(id)) && more.every((id) => mine.has(id)), 'more of mine, and nothing else');
      const ids = more.map((id) => Number(id.split(':')[1]));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'newest first',
      );
    });
  }),
);
