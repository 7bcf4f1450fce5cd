import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Account } from '../../src/api/account';
import type { Post } from '../../src/api';
import { NOBODY, type Identity } from '../../src/accounts/identity';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import type { HelpdeskNode } from '../../src/views/nodes';
import { PostGroupNode } from '../../src/views/nodes';
import { PostsTreeProvider, type PostsNews } from '../../src/views/postsTree';
import { EventEmitter, fake, TreeItemCollapsibleState } from './fakeVscode';
import { windowOn } from './fakeWindow';

// The Helpdesk posts view against a store whose service lists `total` posts newest first.
function rig(total: number) {
  let data: Post[] = Array.from({ length: total }, (_, i) => ({ id: total - i, title: `P${total - i}` }));
  const asked: number[] = [];
  const account = {
    url: 'https://a.example',
    postsPage: async (page: number, perPage: number) => {
      asked.push(page);
      const items = data.slice((page - 1) * perPage, page * perPage);
      return { items, received: items.length };
    },
    clientsPage: async () => ({ items: [], received: 0 }),
    dealsOf: async () => ({ items: [] }),
    statuses: async () => new Map<number, string>(),
    noteStop: () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as Account;
  const store = new HelpdeskStore({ error: () => undefined });
  store.bind(account);
  const { window: accountNow } = windowOn(account, store);
  const expand = new EventEmitter<{ element: HelpdeskNode }>();
  const collapse = new EventEmitter<{ element: HelpdeskNode }>();
  const view = { onDidExpandElement: expand.event, onDidCollapseElement: collapse.event, description: undefined } as never;
  const identity = { me: () => undefined, whoIAm: () => NOBODY, onDidChange: () => ({ dispose: () => undefined }) } as unknown as Identity;
  const newsChanged = new EventEmitter<void>();
  const news: PostsNews = {
    onDidChange: newsChanged.event,
    itemOf: () => undefined,
    isSeen: () => undefined,
    posts: (loaded) => [...loaded.values()].slice(0, 3),
    status: { off: false },
  };
  const provider = new PostsTreeProvider(store, accountNow, identity, news);
  provider.showIn(view);
  const fired: (HelpdeskNode | undefined)[] = [];
  provider.onDidChangeTreeData((e) => fired.push(...(Array.isArray(e) ? e : [e])));
  return { store, account, provider, expand, collapse, fired, asked, setData: (d: Post[]) => (data = d) };
}

const labelText = (n: HelpdeskNode) => (typeof n.label === 'string' ? n.label : (n.label?.label ?? ''));
const isGroup = (n: HelpdeskNode): n is PostGroupNode => n instanceof PostGroupNode;
const postIds = (nodes: HelpdeskNode[]) => nodes.filter((n) => n.contextValue?.startsWith('post')).map((n) => String(n.id));

async function loadTo(r: ReturnType<typeof rig>, items: number) {
  await r.provider.getChildren();
  while (r.store.posts.state.items.length < items && r.store.posts.state.hasMore) await r.provider.loadMore();
}

describe('PostsTreeProvider: groups, Changed Only and refills', () => {
  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.pageSize', 100);
    fake.config.set('helpdesk.showClosedPosts', true);
  });

  it('a post filed while Changed Only is on shows once when it is off (no duplicate row ids)', async () => {
    const r = rig(30);
    await r.provider.getChildren();
    r.provider.setChangedOnly(true);
    await r.provider.getChildren();
    r.store.posts.upsert({ id: 31, title: 'filed' });
    r.provider.setChangedOnly(false);
    const ids = postIds(await r.provider.getChildren());
    assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.slice(0, 3).join()}…${ids.slice(-3).join()}`);
    assert.equal(ids[0], 'posts:31'.replace('posts:', ids[0]!.split(':')[0] + ':'), `first row is the filed post (${ids[0]})`);
  });

  it('a post replaced (closed) while Changed Only is on is hidden when it is off', async () => {
    fake.config.set('helpdesk.showClosedPosts', false);
    const r = rig(30);
    await r.provider.getChildren();
    r.provider.setChangedOnly(true);
    r.store.posts.replace({ id: 29, title: 'P29', closed: true });
    r.provider.setChangedOnly(false);
    const ids = postIds(await r.provider.getChildren());
    assert.ok(!ids.some((id) => id.endsWith(':29')), 'closed #29 still shown');
  });

  it('with groups laid out, a change while Changed Only is on redraws the view (not an unseen group)', async () => {
    const r = rig(1200);
    await loadTo(r, 700);
    const root = await r.provider.getChildren();
    assert.ok(root.some(isGroup));
    r.provider.setChangedOnly(true);
    const changedRoot = await r.provider.getChildren();
    r.fired.length = 0;
    r.store.posts.replace({ id: 1200, title: 'renamed' });
    const known = new Set(changedRoot);
    assert.ok(
      r.fired.some((n) => n === undefined || known.has(n)),
      `fired only nodes not shown: ${r.fired.map((n) => n?.id).join()}`,
    );
  });

  it('folding the group still filling does not hide "Load more…": it moves to the end of the view, and back when opened', async () => {
    const r = rig(2000);
    await loadTo(r, 700);
    let root = await r.provider.getChildren();
    const filling = root.filter(isGroup).at(-1)!;
    assert.equal(filling.id, 'posts:group:0:open');
    assert.notEqual(root.at(-1)?.contextValue, 'loadMore', 'inside the group while it is open');
    r.fired.length = 0;
    r.collapse.fire({ element: filling });
    assert.ok(r.fired.includes(undefined), 'the view is drawn again');
    root = await r.provider.getChildren();
    assert.equal(root.at(-1)?.contextValue, 'loadMore', 'at the end of the view once the group is folded');
    assert.ok(!(await r.provider.getChildren(filling)).some((n) => n.contextValue === 'loadMore'), 'not twice');
    r.expand.fire({ element: filling });
    root = await r.provider.getChildren();
    assert.notEqual(root.at(-1)?.contextValue, 'loadMore');
    assert.equal((await r.provider.getChildren(filling)).at(-1)?.contextValue, 'loadMore');
  });

  it('a full group the person opened is open again after a refresh', async () => {
    const r = rig(2000);
    await loadTo(r, 1500);
    let root = await r.provider.getChildren();
    const g0 = root.filter(isGroup)[0]!;
    assert.equal(g0.id, 'posts:group:0');
    r.expand.fire({ element: g0 });
    await r.store.posts.refresh();
    await r.provider.getChildren();
    await r.provider.whenFilled();
    root = await r.provider.getChildren();
    const again = root.filter(isGroup).find((g) => g.group.index === 0)!;
    assert.ok(r.store.posts.state.items.length >= 1000, `${r.store.posts.state.items.length} loaded again`);
    assert.equal(again.id, 'posts:group:0');
    assert.equal(again.collapsibleState, TreeItemCollapsibleState.Expanded, 'the group the person opened comes back folded');
  });

  it('a refill shows its own bound in the progress row', async () => {
    const r = rig(3000);
    await loadTo(r, 2600);
    await r.provider.getChildren();
    await r.store.posts.refresh();
    await r.provider.getChildren();
    let text = '';
    // the fill is under way now: read its tail
    const root = await r.provider.getChildren();
    const groups = root.filter(isGroup);
    for (const g of groups) for (const n of await r.provider.getChildren(g)) if (n.contextValue === 'loadMore') text = labelText(n);
    for (const n of root) if (n.contextValue === 'loadMore') text ||= labelText(n);
    await r.provider.whenFilled();
    assert.ok(!/of up to 20 pages/.test(text), `refill (up to 50 pages) says: ${text}`);
  });
});

describe('PostsTreeProvider: refill edge cases', () => {
  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.pageSize', 100);
    fake.config.set('helpdesk.showClosedPosts', true);
  });

  it('another account (reset) does not refill the groups of the one before', async () => {
    const r = rig(1500);
    await loadTo(r, 1200);
    await r.provider.getChildren();
    r.store.bind(undefined);
    r.store.bind(r.account);
    r.asked.length = 0;
    await r.provider.getChildren();
    await r.provider.whenFilled();
    await r.provider.getChildren();
    assert.deepEqual(r.asked, [1]);
  });

  it('two refreshes in a row: the refill ends, and reads at most REFILL_PAGES', async () => {
    const r = rig(3000);
    await loadTo(r, 1200);
    await r.provider.getChildren();
    void r.store.posts.refresh();
    const second = r.store.posts.refresh();
    await second;
    await r.provider.getChildren();
    await r.provider.whenFilled();
    await r.provider.getChildren();
    await r.provider.whenFilled();
    assert.ok(r.store.posts.state.items.length >= 1200, `${r.store.posts.state.items.length}`);
    const ids = postIds([
      ...(await r.provider.getChildren()),
      ...(await Promise.all((await r.provider.getChildren()).filter(isGroup).map((g) => r.provider.getChildren(g)))).flat(),
    ]);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('PostsTreeProvider: group labels', () => {
  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.pageSize', 100);
    fake.config.set('helpdesk.showClosedPosts', true);
  });

  it('"Load more…" inside the open group: the group fired says the rows it holds now', async () => {
    const r = rig(1500);
    await loadTo(r, 700);
    const group = (await r.provider.getChildren()).find(isGroup)!;
    assert.equal(group.label, 'Posts 501–700');
    r.fired.length = 0;
    await r.provider.loadMore();
    assert.ok(r.fired.length > 0 && r.fired.every((n) => n === group), `fired ${r.fired.map((n) => n?.id ?? 'all').join()}`);
    // VS Code asks getTreeItem(group) again for a node an event names, and its children:
    const rows = (await r.provider.getChildren(group)).filter((n) => n.contextValue?.startsWith('post'));
    assert.equal(rows.length, 300);
    assert.equal(r.provider.getTreeItem(group).label, 'Posts 501–800', 'label');
    assert.equal(r.provider.getTreeItem(group).description, '#1000 – #701', 'description');
  });
});
