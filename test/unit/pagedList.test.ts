import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from '../../src/api';
import { asPage } from '../../src/api/parse';
import { PagedList } from '../../src/store/pagedList';

type Item = { id: number; name?: string };
const range = (from: number, to: number): Item[] => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));
/** A page of exactly these items, as the service sent them. */
const pageOf = (items: Item[]): Page<Item> => ({ items, received: items.length });

/** A fetcher whose answers the test releases by hand, recording what was asked. */
function manualFetcher() {
  const calls: { page: number; perPage: number; signal: AbortSignal; resolve: (items: Item[]) => void; reject: (e: unknown) => void }[] = [];
  const fetch = (page: number, perPage: number, signal: AbortSignal) =>
    new Promise<Page<Item>>((resolve, reject) => calls.push({ page, perPage, signal, resolve: (items) => resolve(pageOf(items)), reject }));
  return { calls, fetch };
}

describe('PagedList', () => {
  it('a full page with a skipped broken record still offers "Load more…"', async () => {
    const list = new PagedList<Item>(async () => asPage<Item>([{ id: 1 }, null, { id: 3 }]), () => 3);
    await list.ensureStarted();
    assert.deepEqual(list.state.items, [{ id: 1 }, { id: 3 }]);
    assert.equal(list.state.hasMore, true);
  });

  it('loads page after page and stops after a short page', async () => {
    const data = range(1, 25);
    const list = new PagedList<Item>(async (page, perPage) => pageOf(data.slice((page - 1) * perPage, page * perPage)), () => 10);
    await list.ensureStarted();
    assert.equal(list.state.items.length, 10);
    assert.equal(list.state.hasMore, true);
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.state.items.length, 25);
    assert.equal(list.state.hasMore, false);
    await list.loadMore();
    assert.equal(list.state.items.length, 25);
  });

  it('joins a load in flight instead of starting another', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2);
    const a = list.loadMore();
    const b = list.loadMore();
    const c = list.ensureStarted();
    assert.equal(calls.length, 1);
    assert.equal(list.state.loading, true);
    calls[0]!.resolve(range(1, 2));
    await Promise.all([a, b, c]);
    assert.deepEqual(list.state.items.map((i) => i.id), [1, 2]);
    assert.equal(list.state.loading, false);
  });

  it('a refresh aborts the load in flight, and its late answer is dropped', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2);
    void list.loadMore();
    const refreshed = list.refresh();
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.signal.aborted, true);
    calls[1]!.resolve([{ id: 9 }, { id: 8 }]);
    await refreshed;
    calls[0]!.resolve([{ id: 1 }, { id: 2 }]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(list.state.items.map((i) => i.id), [9, 8]);
  });

  it('keeps what was shown during a refresh and replaces it with the first page', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2);
    void list.loadMore();
    calls[0]!.resolve(range(1, 2));
    await new Promise((r) => setImmediate(r));
    void list.loadMore();
    calls[1]!.resolve(range(3, 4));
    await new Promise((r) => setImmediate(r));
    const refreshed = list.refresh();
    assert.deepEqual(list.state.items.map((i) => i.id), [1, 2, 3, 4], 'still shown while loading');
    calls[2]!.resolve([{ id: 5 }, { id: 1 }]);
    await refreshed;
    assert.deepEqual(list.state.items.map((i) => i.id), [5, 1]);
    assert.equal(calls[2]!.page, 1);
  });

  it('keeps items and reports the error when a page fails, and can try again', async () => {
    let fail = false;
    const list = new PagedList<Item>(async (page) => {
      if (fail) throw new Error('down');
      return pageOf(range(page * 2 - 1, page * 2));
    }, () => 2);
    await list.loadMore();
    fail = true;
    await list.loadMore();
    assert.equal(list.state.items.length, 2);
    assert.match(String(list.state.error), /down/);
    fail = false;
    await list.loadMore();
    assert.deepEqual(list.state.items.map((i) => i.id), [1, 2, 3, 4]);
    assert.equal(list.state.error, undefined);
  });

  it('skips records repeated by a shifted page, upserts and removes', async () => {
    const pages = [[{ id: 5 }, { id: 4 }], [{ id: 4 }, { id: 3 }]];
    const list = new PagedList<Item>(async (page) => pageOf(pages[page - 1] ?? []), () => 2);
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(list.state.items.map((i) => i.id), [5, 4, 3]);
    list.upsert({ id: 6 });
    list.remove(4);
    assert.deepEqual(list.state.items.map((i) => i.id), [6, 5, 3]);
  });

  it('replaces a loaded record in place, and leaves the list alone when it is not loaded', async () => {
    const list = new PagedList<Item>(async () => pageOf(range(1, 3)), () => 3);
    await list.loadMore();
    let changes = 0;
    list.onDidChange(() => changes++);
    assert.equal(list.replace({ id: 2, name: 'fresh' }), true);
    assert.deepEqual(list.state.items, [{ id: 1 }, { id: 2, name: 'fresh' }, { id: 3 }]);
    assert.deepEqual(list.find(2), { id: 2, name: 'fresh' });
    assert.equal(changes, 1);
    assert.equal(list.replace({ id: 9, name: 'absent' }), false);
    assert.deepEqual(list.state.items, [{ id: 1 }, { id: 2, name: 'fresh' }, { id: 3 }]);
    assert.equal(list.find(9), undefined);
    assert.equal(changes, 1, 'nothing changed, so no change is announced');
  });

  it('tells listeners about changes and forgets everything on reset', async () => {
    const list = new PagedList<Item>(async () => pageOf(range(1, 2)), () => 2);
    let changes = 0;
    list.onDidChange(() => changes++);
    await list.loadMore();
    assert.ok(changes >= 2, 'loading started and ended');
    list.reset();
    assert.equal(list.state.items.length, 0);
    assert.equal(list.state.started, false);
  });
});
