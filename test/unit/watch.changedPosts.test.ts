import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page, Post } from '../../src/api';
import { MAX_CHANGED_PAGES, readChanges, type ChangesSource, type ReadState } from '../../src/watch/changedPosts';
import { compare, type NewsItem, type Snapshot } from '../../src/watch/news';
import { whoIs } from './whoIs';

const ME = 7;
const me = whoIs(ME);
const T0 = Date.UTC(2025, 4, 19, 8);

/**
 * What the service does with `order`: sorts by what it is asked, ignores it (listing oldest
 * first, or newest first by id), or refuses it (422: then answered in its own order, oldest first).
 */
type Behaviour = 'sorts' | 'oldestFirst' | 'newestFirst' | 'refuses';

/** A service holding posts 1…count, each updated a minute after the one before, `perPage` a page. */
function service(count: number, behaviour: Behaviour, perPage = 100) {
  const posts = new Map<number, Post>();
  let clock = T0;
  let nextId = 1;
  let refused = false;
  const reads: string[] = [];
  const add = (n: number): Post[] =>
    Array.from({ length: n }, () => {
      const id = nextId++;
      const post: Post = {
        id,
        title: `Post ${id}`,
        user_id: 2,
        responsible_id: null,
        comments_cache: 0,
        closed: false,
        updated_at: new Date((clock += 60_000)).toISOString(),
      };
      posts.set(id, post);
      return post;
    });
  add(count);
  /** Changed in the web app: its `updated_at` moves. */
  const change = (id: number, fields: Partial<Post>) =>
    posts.set(id, { ...posts.get(id)!, ...fields, updated_at: new Date((clock += 60_000)).toISOString() });
  const byId = (desc: boolean) => [...posts.values()].sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
  const byUpdated = () => [...posts.values()].sort((a, b) => Date.parse(b.updated_at!) - Date.parse(a.updated_at!) || b.id - a.id);
  const pageOf = (list: Post[], page: number): Page<Post> => {
    const items = list.slice((page - 1) * perPage, page * perPage);
    return { items, received: items.length };
  };
  const ignored = () => byId(behaviour === 'newestFirst');
  const source: ChangesSource = {
    byUpdated: async (page) => {
      reads.push(`updated:${page}`);
      if (behaviour === 'refuses') refused = true;
      return pageOf(behaviour === 'sorts' ? byUpdated() : ignored(), page);
    },
    byId: async (page) => {
      reads.push(`id:${page}`);
      return pageOf(behaviour === 'sorts' ? byId(true) : ignored(), page);
    },
    orderRefused: () => refused,
  };
  return { source, reads, add, change };
}

/** A watcher's polls against a service: what it keeps between them (the news file's read state and snapshot), and whether it checked the order since it started. */
function watcher(svc: ReturnType<typeof service>) {
  let state: ReadState = {};
  let snapshot: Snapshot | undefined;
  let checked = false;
  return {
    async poll(): Promise<{ news: NewsItem[]; reads: string[]; beyondBound: boolean; state: ReadState }> {
      svc.reads.length = 0;
      const read = await readChanges(svc.source, state, snapshot, !checked);
      checked = true;
      const compared = compare(snapshot, read.posts, me, 0);
      snapshot = compared.snapshot;
      state = { order: read.order, newestPage: read.newestPage };
      return { news: compared.news, reads: [...svc.reads], beyondBound: read.beyondBound, state };
    },
    /** A new window, or signed in again: the order is checked again; the files stay. */
    restart() {
      checked = false;
    },
  };
}

const changesOf = (news: NewsItem[]) => news.map(({ id, changes }) => ({ id, changes }));

describe('watch: reading what changed since the last poll', () => {
  it('a service that sorts by updated_at: one request when idle; a change on an old post beyond the newest page by id is read, and new posts', async () => {
    const svc = service(300, 'sorts');
    const w = watcher(svc);
    const baseline = await w.poll();
    assert.deepEqual([baseline.news, baseline.reads, baseline.state.order], [[], ['updated:1'], 'updated'], 'a silent baseline, one page');
    svc.change(5, { responsible_id: ME });
    assert.deepEqual(changesOf((await w.poll()).news), [{ id: 5, changes: ['assigned'] }], 'post 5, 295 posts below the newest by id');
    const idle = await w.poll();
    assert.deepEqual([idle.news, idle.reads], [[], ['updated:1']], 'idle: one request');
    svc.change(5, { comments_cache: 2 });
    const commented = await w.poll();
    assert.deepEqual([changesOf(commented.news), commented.reads], [[{ id: 5, changes: ['commented'] }], ['updated:1']]);
    svc.change(5, { closed: true });
    assert.deepEqual(changesOf((await w.poll()).news), [{ id: 5, changes: ['closed'] }]);
    svc.change(5, { closed: false });
    assert.deepEqual(changesOf((await w.poll()).news), [{ id: 5, changes: ['reopened'] }]);
    svc.add(1);
    svc.change(6, { responsible_id: 3 });
    const more = await w.poll();
    assert.deepEqual(
      [changesOf(more.news), more.reads],
      [[{ id: 301, changes: ['new'] }], ['updated:1']],
      "a new post is news; another person's old post changed is not",
    );
  });

  it('order ignored, oldest first: read by id as before (its last page), and that choice is kept: one request when idle, until the watcher restarts', async () => {
    const svc = service(250, 'oldestFirst');
    const w = watcher(svc);
    const baseline = await w.poll();
    assert.equal(baseline.reads[0], 'updated:1');
    assert.deepEqual([baseline.state.order, baseline.state.newestPage], ['id', { page: 3, full: 100 }]);
    const idle = await w.poll();
    assert.deepEqual([idle.news, idle.reads], [[], ['id:3']], 'not asked by updated_at again: one request');
    svc.add(1);
    const one = await w.poll();
    assert.deepEqual([changesOf(one.news), one.reads], [[{ id: 251, changes: ['new'] }], ['id:3']]);
    w.restart();
    const restarted = await w.poll();
    assert.deepEqual([restarted.reads, restarted.state.order], [['updated:1', 'id:3'], 'id'], 'checked again once, after a restart');
    assert.deepEqual((await w.poll()).reads, ['id:3']);
  });

  it('order ignored, newest first by id: taken for sorted while the times follow the ids; the first answer out of order falls back to the id read, and stays there', async () => {
    const svc = service(300, 'newestFirst');
    const w = watcher(svc);
    assert.deepEqual((await w.poll()).state.order, 'updated', 'times that follow ids look sorted, and are: nothing older changed');
    svc.add(1);
    const fresh = await w.poll();
    assert.deepEqual([changesOf(fresh.news), fresh.reads], [[{ id: 301, changes: ['new'] }], ['updated:1']]);
    svc.change(250, { responsible_id: ME });
    const contradicted = await w.poll();
    assert.deepEqual(
      [contradicted.reads, contradicted.state.order],
      [['updated:1', 'id:1'], 'id'],
      'post 250 updated last, listed below newer ids: not sorted',
    );
    assert.deepEqual(changesOf(contradicted.news), [{ id: 250, changes: ['assigned'] }], 'read by id, as before');
    assert.deepEqual((await w.poll()).reads, ['id:1'], 'remembered: one request');
  });

  it('order ignored, newest first by id, with an old post changed: read by id from the first poll', async () => {
    const svc = service(300, 'newestFirst');
    svc.change(280, { title: 'Edited' });
    const w = watcher(svc);
    const baseline = await w.poll();
    assert.deepEqual([baseline.reads, baseline.state.order, baseline.state.newestPage], [['updated:1', 'id:1'], 'id', undefined]);
    assert.deepEqual((await w.poll()).reads, ['id:1']);
  });

  it('order refused: found out on the first ask and read by id; once known, never asked by updated_at again, even after a restart', async () => {
    const svc = service(250, 'refuses');
    const w = watcher(svc);
    const baseline = await w.poll();
    assert.deepEqual([baseline.reads[0], baseline.reads[1], baseline.state.order], ['updated:1', 'id:1', 'id']);
    w.restart();
    const restarted = await w.poll();
    assert.ok(!restarted.reads.some((r) => r.startsWith('updated')), restarted.reads.join(', '));
    assert.deepEqual(restarted.reads, ['id:3']);
  });

  it('a page that proves no order (one post, or all of one time) is read by id at a check; a kept choice of updated_at stands on it', async () => {
    const one = service(300, 'sorts', 1);
    assert.equal((await readChanges(one.source, {}, undefined, true)).order, 'id');
    assert.equal((await readChanges(one.source, { order: 'updated' }, undefined, false)).order, 'updated');
    const at = new Date(T0).toISOString();
    const sameTime: ChangesSource = {
      byUpdated: async () => ({ items: [1, 2, 3].map((id) => ({ id, updated_at: at })), received: 3 }),
      byId: async () => ({ items: [], received: 0 }),
      orderRefused: () => false,
    };
    assert.equal((await readChanges(sameTime, {}, undefined, true)).order, 'id');
  });

  it('more than a page of changes since the last read: the next pages too, while every post of the one read changed; by updated_at and by id alike', async () => {
    const sorted = service(300, 'sorts');
    const w = watcher(sorted);
    await w.poll();
    const made = sorted.add(150);
    const many = await w.poll();
    assert.deepEqual(many.reads, ['updated:1', 'updated:2']);
    assert.deepEqual(
      many.news.map((n) => n.id).sort((a, b) => a - b),
      made.map((p) => p.id),
      'all 150 are news',
    );
    assert.deepEqual((await w.poll()).reads, ['updated:1'], 'then idle: one request');

    const byId = service(300, 'newestFirst');
    byId.change(290, { title: 'Edited' });
    const v = watcher(byId);
    await v.poll();
    const madeById = byId.add(150);
    const manyById = await v.poll();
    assert.deepEqual(manyById.reads, ['id:1', 'id:2']);
    assert.deepEqual(
      manyById.news.map((n) => n.id).sort((a, b) => a - b),
      madeById.map((p) => p.id),
    );
    assert.deepEqual((await v.poll()).reads, ['id:1']);
  });

  it(`the bound: no more than ${MAX_CHANGED_PAGES} pages; the rest is not news, said once, and the baseline moves on`, async () => {
    const svc = service(30, 'sorts', 10);
    const w = watcher(svc);
    await w.poll();
    const made = svc.add(MAX_CHANGED_PAGES * 10 + 15);
    const flood = await w.poll();
    assert.deepEqual(
      flood.reads,
      Array.from({ length: MAX_CHANGED_PAGES }, (_, i) => `updated:${i + 1}`),
    );
    assert.equal(flood.beyondBound, true);
    assert.deepEqual(
      flood.news.map((n) => n.id).sort((a, b) => a - b),
      made.slice(-MAX_CHANGED_PAGES * 10).map((p) => p.id),
      'the latest changed',
    );
    const after = await w.poll();
    assert.deepEqual([after.news, after.reads, after.beyondBound], [[], ['updated:1'], false]);

    const exactly = service(30, 'sorts', 10);
    const x = watcher(exactly);
    await x.poll();
    exactly.add(MAX_CHANGED_PAGES * 10 - 1);
    assert.equal((await x.poll()).beyondBound, false, 'within the bound: the last page read holds a post not changed');
  });

  it('a service that sends the same page again (it ignores "page") is read once', async () => {
    let clock = T0;
    const reads: number[] = [];
    const page = (): Post[] => [1, 2, 3].map((id) => ({ id, title: '', updated_at: new Date(clock - id).toISOString() }));
    const source: ChangesSource = {
      byUpdated: async (n) => (reads.push(n), { items: page(), received: 3 }),
      byId: async () => assert.fail('not by id'),
      orderRefused: () => false,
    };
    const first = await readChanges(source, {}, undefined, true);
    const since = compare(undefined, first.posts, me, 0).snapshot;
    clock += 60_000;
    reads.length = 0;
    const again = await readChanges(source, { order: 'updated' }, since, false);
    assert.deepEqual([reads, again.beyondBound, again.posts.length], [[1, 2], false, 3]);
  });
});
