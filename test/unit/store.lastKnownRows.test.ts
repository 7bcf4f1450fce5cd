import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Account } from '../../src/api/account';
import type { Post } from '../../src/api';
import { NOBODY, type Identity } from '../../src/accounts/identity';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { forgetRows, parseSnapshot, SNAPSHOT_ROWS, snapshotName, snapshotText } from '../../src/store/rowSnapshots';
import { PostNode, type HelpdeskNode } from '../../src/views/nodes';
import { PostsTreeProvider } from '../../src/views/postsTree';
import { fake } from './fakeVscode';
import { MemoryFolder } from './memoryState';
import { noNews, windowOn } from './fakeWindow';

/* The Helpdesk view paints the rows it showed last at once, from the account's snapshot, and the service's answer replaces them. */

const A = 'https://a.example';
const B = 'https://b.example';

/** A service that answers page 1 only when told to (`answer`), so that what shows before its answer can be seen. */
function serviceOf(url: string, posts: Post[]) {
  const asked: number[] = [];
  let release: () => void = () => undefined;
  let answered = new Promise<void>((resolve) => (release = resolve));
  const account = {
    url,
    postsPage: async (page: number, perPage: number) => {
      asked.push(page);
      await answered;
      const items = posts.slice((page - 1) * perPage, page * perPage);
      return { items, received: items.length };
    },
    clientsPage: async () => ({ items: [], received: 0 }),
    dealsOf: async () => ({ items: [] }),
    statuses: async () => new Map([[1, 'In progress']]),
    noteStop: () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as Account;
  return {
    account,
    asked,
    answer: () => release(),
    hold: () => (answered = new Promise<void>((resolve) => (release = resolve))),
  };
}

/** The view on a store bound to `account`, its rows kept in `folder`. */
function viewOf(store: HelpdeskStore, account: Account | undefined) {
  const { window: windowAccount } = windowOn(account, store);
  const identity = { me: () => undefined, whoIAm: () => NOBODY, onDidChange: () => ({ dispose: () => undefined }) } as unknown as Identity;
  const provider = new PostsTreeProvider(store, windowAccount, identity, noNews());
  const repaints: unknown[] = [];
  provider.onDidChangeTreeData((e) => repaints.push(e));
  return { provider, repaints };
}

const rowsOf = (nodes: HelpdeskNode[]) =>
  nodes.filter((n): n is PostNode => n instanceof PostNode).map((n) => `#${n.post.id} ${n.post.closed ? 'closed' : 'open'}`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const posts = (ids: number[], closed: number[] = []): Post[] =>
  ids.map((id) => ({ id, title: `Post ${id}`, kind: 'error', closed: closed.includes(id), content: 'x'.repeat(5000) }));

/** A folder holding the rows a window on `url` kept after its service answered with `shown`. */
async function keptBy(url: string, shown: Post[]): Promise<MemoryFolder> {
  const folder = new MemoryFolder();
  const service = serviceOf(url, shown);
  service.answer();
  const store = new HelpdeskStore({ error: () => undefined }, folder);
  store.bind(service.account);
  await store.posts.ensureStarted();
  await new Promise((resolve) => setTimeout(resolve, 600));
  store.dispose();
  return folder;
}

describe('the rows shown last, painted at once', () => {
  beforeEach(() => fake.reset());

  it('a window that showed rows keeps the first page of them (row fields only, texts cut), and paints them next time before the service answers, then the answer', async () => {
    const folder = await keptBy(A, posts([30, 29, 28]));
    const text = folder.files.get(snapshotName(A, 'posts'))?.text;
    assert.ok(text, 'the rows were kept');
    assert.ok(text.length < 2000 && !text.includes('x'.repeat(301)), "a post's content is cut to its first line's worth");

    const service = serviceOf(A, posts([31, 30, 29, 28], [30]));
    const store = new HelpdeskStore({ error: () => undefined }, folder);
    store.bind(service.account);
    const { provider } = viewOf(store, service.account);
    const first = await provider.getChildren();
    assert.deepEqual(rowsOf(first), ['#30 open', '#29 open', '#28 open'], 'painted at once from what is known');
    assert.equal(store.posts.state.lastKnown, true);
    await settle();
    assert.deepEqual(service.asked, [1], 'the service is asked, behind');

    service.answer();
    await store.posts.ensureStarted();
    assert.equal(store.posts.state.lastKnown, false);
    assert.deepEqual(
      rowsOf(await provider.getChildren()),
      ['#31 open', '#29 open', '#28 open'],
      'the answer replaces them: #30, closed since, is not shown as current',
    );
  });

  it('the rows are read when the account is bound, before the view opens: it paints them with no read and no request of its own', async () => {
    const folder = await keptBy(A, posts([30, 29]));
    const service = serviceOf(A, posts([31, 30, 29]));
    const store = new HelpdeskStore({ error: () => undefined }, folder);
    store.bind(service.account);
    await settle();
    assert.deepEqual(
      store.posts.state.items.map((p) => p.id),
      [30, 29],
      'read at the bind',
    );
    assert.equal(store.posts.state.lastKnown, true);
    assert.deepEqual(service.asked, [], 'nothing asked of the service until a view or a command does');
    folder.files.clear();
    const { provider } = viewOf(store, service.account);
    assert.deepEqual(rowsOf(await provider.getChildren()), ['#30 open', '#29 open']);
  });

  it('without a snapshot the view waits for the service, as before', async () => {
    const service = serviceOf(A, posts([5, 4]));
    const store = new HelpdeskStore({ error: () => undefined }, new MemoryFolder());
    store.bind(service.account);
    const { provider } = viewOf(store, service.account);
    const painting = provider.getChildren();
    await settle();
    service.answer();
    assert.deepEqual(rowsOf(await painting), ['#5 open', '#4 open']);
  });

  it("never another account's rows: B's window paints nothing of A's snapshot, even one copied under B's name", async () => {
    const folder = await keptBy(A, posts([30, 29]));
    folder.files.set(snapshotName(B, 'posts'), folder.files.get(snapshotName(A, 'posts'))!);
    const service = serviceOf(B, posts([7]));
    const store = new HelpdeskStore({ error: () => undefined }, folder);
    store.bind(service.account);
    await store.whenKnown('posts');
    assert.deepEqual(store.posts.state.items, [], 'a snapshot that names another account is ignored');
    assert.equal(store.posts.state.lastKnown, false);
  });

  it('a torn or foreign snapshot is ignored: the view waits for the service', async () => {
    const folder = await keptBy(A, posts([30, 29]));
    const whole = folder.files.get(snapshotName(A, 'posts'))!.text;
    const cases = [
      whole.slice(0, whole.length / 2),
      '{"v":1}',
      'null',
      whole.replace('"id":30', '"id":"30"'),
      whole.replace('"id":29', '"id":30'),
      whole.replace('"v":1', '"v":2'),
    ];
    for (const text of cases) {
      folder.files.set(snapshotName(A, 'posts'), { text, mtime: Date.now() });
      const store = new HelpdeskStore({ error: () => undefined }, folder);
      store.bind(serviceOf(A, []).account);
      await store.whenKnown('posts');
      assert.deepEqual(store.posts.state.items, [], text.slice(0, 60));
    }
  });

  it("signed out: nothing painted; a sign-out forgets the account's rows", async () => {
    const folder = await keptBy(A, posts([30]));
    const store = new HelpdeskStore({ error: () => undefined }, folder);
    store.bind(undefined);
    const { provider } = viewOf(store, undefined);
    assert.deepEqual(await provider.getChildren(), []);
    await forgetRows(folder, A);
    assert.equal(folder.files.size, 0);
  });

  it("rows are kept only once they are the service's: not while the last known ones show, nor after a failed answer", async () => {
    const folder = await keptBy(A, posts([30, 29]));
    const before = folder.files.get(snapshotName(A, 'posts'))!.text;
    const service = serviceOf(A, posts([31]));
    const store = new HelpdeskStore({ error: () => undefined }, folder);
    store.bind(service.account);
    await store.whenKnown('posts');
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(folder.files.get(snapshotName(A, 'posts'))!.text, before, 'the last known rows are not written back as new');
    service.answer();
    await store.posts.ensureStarted();
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepEqual(
      parseSnapshot<Post>(folder.files.get(snapshotName(A, 'posts'))!.text, A, 'posts')?.items.map((p) => p.id),
      [31],
    );
    assert.deepEqual(
      [...(parseSnapshot<Post>(folder.files.get(snapshotName(A, 'posts'))!.text, A, 'posts')?.statuses ?? [])],
      [[1, 'In progress']],
      'with the status names',
    );
    store.dispose();
  });

  it("a snapshot is bounded: one page of rows at most, and nothing but the rows' fields", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, title: 't', password: 'secret', nested: { a: 1 } }));
    const text = snapshotText(A, 'posts', many);
    const parsed = parseSnapshot<Post>(text, A, 'posts');
    assert.equal(parsed?.items.length, SNAPSHOT_ROWS);
    assert.ok(!text.includes('secret') && !text.includes('nested'));
    assert.equal(
      parseSnapshot(JSON.stringify({ v: 1, account: A, list: 'posts', items: many }), A, 'posts'),
      undefined,
      'more rows than a page: not read',
    );
  });
});
