import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isComment } from '../../../src/api';
import type { TestApi } from '../../../src/extension';
import type { HelpdeskNode } from '../../../src/views/nodes';
import { GROUP_ROWS, TOP_ROWS } from '../../../src/views/shownPosts';
import { PROFILES, startStandIn, type ProfileName, type StandIn } from '../../server';
import { extensionApi, labelOf, signInToStandIn } from './helpers';

const POSTS = 1_800;
const config = () => vscode.workspace.getConfiguration('helpdesk');
const isPost = (node: HelpdeskNode) => node.contextValue?.startsWith('post.') === true || node.contextValue === 'post';
const isGroup = (node: HelpdeskNode) => node.contextValue === 'postGroup';
const idOf = (node: HelpdeskNode) => Number(String(node.id).split(':')[1]);

/** What the view shows, as VS Code asks for it: the top rows, the groups, and the rows of each open group. */
async function shown(api: TestApi) {
  const root = await api.posts.getChildren();
  const groups = root.filter(isGroup);
  const rowsOf = new Map<string, HelpdeskNode[]>();
  for (const group of groups) rowsOf.set(String(group.id), await api.posts.getChildren(group));
  const open = groups.filter((g) => g.collapsibleState === vscode.TreeItemCollapsibleState.Expanded);
  const tail = [root, ...open.map((g) => rowsOf.get(String(g.id))!)].flatMap((rows) => rows.filter((n) => n.contextValue === 'loadMore'));
  const all = [...root.filter(isPost), ...groups.flatMap((g) => rowsOf.get(String(g.id))!.filter(isPost))];
  return { root, groups, rowsOf, open, tail, all };
}

/** Clicks "Load more…" and says which nodes the view was told to draw again (undefined: all of it). */
async function loadMoreFired(api: TestApi): Promise<(HelpdeskNode | undefined)[]> {
  const fired: (HelpdeskNode | undefined)[] = [];
  const listening = api.posts.onDidChangeTreeData((e) => fired.push(...(Array.isArray(e) ? e : [e])));
  try {
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
  } finally {
    listening.dispose();
  }
  return fired;
}

async function loadUntil(
  api: TestApi,
  done: (view: Awaited<ReturnType<typeof shown>>) => boolean,
): Promise<Awaited<ReturnType<typeof shown>>> {
  for (let click = 0; click < 100; click++) {
    const view = await shown(api);
    if (done(view)) return view;
    assert.ok(view.tail.length > 0, 'a "Load more…" row to click');
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
  }
  assert.fail('not reached after 100 clicks');
}

for (const profile of ['likely', 'contrary', 'sparse'] as ProfileName[]) {
  describe(`[${profile} service] the Helpdesk view folds older posts into groups`, function () {
    let large: StandIn;
    let api: TestApi;

    before(async () => {
      large = await startStandIn({ seed: { posts: POSTS }, profile: PROFILES[profile] });
      await config().update('pageSize', 100, vscode.ConfigurationTarget.Global);
      api = await extensionApi();
      assert.equal(await api.actions.signIn({ accountUrl: large.url, token: large.token }), true);
      await vscode.commands.executeCommand('helpdesk.showClosedPosts');
    });

    after(async () => {
      await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
      await vscode.commands.executeCommand('helpdesk.clearFilter');
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      await large.close();
      await signInToStandIn();
    });

    beforeEach(async () => {
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.posts.getChildren();
      await api.posts.whenFilled();
    });

    it(`shows ${TOP_ROWS} rows, then groups: "Load more…" inside the open group redraws that group alone, and a full group folds`, async () => {
      const first = await loadUntil(api, (view) => view.groups.length > 0);
      assert.equal(first.root.filter(isPost).length, TOP_ROWS);
      assert.ok(!first.root.some((n) => n.contextValue === 'loadMore'), '"Load more…" went into the open group');
      const [group] = first.groups;
      assert.equal(group!.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the group filling is open');
      assert.match(labelOf(group!), new RegExp(`^Posts ${(TOP_ROWS + 1).toLocaleString()}–`));
      assert.equal(first.rowsOf.get(String(group!.id))!.at(-1)?.contextValue, 'loadMore');

      const before = first.all.length;
      const fired = await loadMoreFired(api);
      assert.ok(
        fired.length > 0 && fired.every((node) => node === group),
        `only the open group is drawn again (${fired.map((n) => n?.id ?? 'the whole view').join(', ')})`,
      );
      const after = await shown(api);
      assert.equal(after.groups[0], group, 'the same group node');
      assert.ok(after.all.length > before, 'more rows, in the group');
      assert.equal(after.root.filter(isPost).length, TOP_ROWS, 'the top rows did not change');

      const full = await loadUntil(api, (view) => view.groups.length > 1 || view.tail.length === 0);
      const folded = full.groups[0]!;
      assert.equal(folded.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'a full group folds');
      assert.equal(full.rowsOf.get(String(folded.id))!.filter(isPost).length, GROUP_ROWS);
      const ids = full.all.map(idOf);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'newest first, across the groups',
      );
      assert.equal(new Set(ids).size, ids.length, 'no row twice');
    });

    it('a filter and the closed posts lay the groups out again from the rows they show', async () => {
      const all = await loadUntil(api, (view) => view.tail.length === 0);
      const rows = () => api.store.posts.state.items.filter((post) => !isComment(post)).length;
      assert.equal(all.all.length, rows(), 'every post loaded, in the top rows and the groups');
      assert.ok(all.groups.length >= 2);
      await vscode.commands.executeCommand('helpdesk.hideClosedPosts');
      const open = await shown(api);
      assert.ok(open.all.length > 0 && open.all.length < all.all.length);
      assert.ok(
        open.all.every((n) => /^post(\.client)?$/.test(n.contextValue ?? '')),
        'no closed post',
      );
      assert.equal(open.groups.length, Math.ceil((open.all.length - TOP_ROWS) / GROUP_ROWS));
      api.posts.setFilter({ kind: 'error' });
      const bugs = await shown(api);
      assert.ok(bugs.all.length > 0 && bugs.all.length < TOP_ROWS, `${bugs.all.length} open bugs`);
      assert.equal(bugs.groups.length, 0, 'few enough rows for the top: no group');
      assert.ok(bugs.all.every((n) => (n.iconPath as vscode.ThemeIcon).id === 'bug'));
      await vscode.commands.executeCommand('helpdesk.clearFilter');
      await vscode.commands.executeCommand('helpdesk.showClosedPosts');
      assert.equal((await shown(api)).all.length, all.all.length);
    });

    it('a post filed while groups are open lands at the top, and the groups stay', async () => {
      const before = await loadUntil(api, (view) => view.groups.length > 0);
      const filed = await api.actions.createTask({ title: 'Filed while groups are open', content: 'From the groups test.' });
      assert.ok(filed);
      const after = await shown(api);
      assert.equal(idOf(after.root.find(isPost)!), filed.id, 'the new post is the first row');
      assert.deepEqual(
        after.groups.map((g) => g.id),
        before.groups.map((g) => g.id),
        'the same groups',
      );
      assert.equal(after.all.length, before.all.length + 1);
    });

    it('a refresh loads again the rows of the groups that were open, and keeps them open', async () => {
      const before = await loadUntil(api, (view) => view.groups.length > 1);
      const open = before.open.map((g) => g.id);
      assert.ok(open.length > 0);
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.posts.getChildren();
      await api.posts.whenFilled();
      const after = await shown(api);
      assert.ok(after.all.length >= before.all.length, `${after.all.length} rows again, ${before.all.length} before`);
      for (const id of open)
        assert.ok(
          after.open.some((g) => g.id === id || g.id === `${id}`.replace(/:open$/, '')),
          `${id} is open again`,
        );
    });
  });
}
