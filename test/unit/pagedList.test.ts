import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, isApiError, MAX_PAGES, SHAPES, type Page, type PagingStop } from '../../src/api';
import { asPage } from '../../src/api/parse';
import { PagedList } from '../../src/store/pagedList';

type Item = { id: number; name?: string };
const ascending = (a: Item, b: Item) => a.id - b.id;
/** Newest first, as the posts view sorts. */
const descending = (a: Item, b: Item) => b.id - a.id;
const range = (from: number, to: number): Item[] => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));
/** A page of exactly these items, as the service sent them. */
const pageOf = (items: Item[]): Page<Item> => ({ items, received: items.length });
/** A list of two items a page (1, 2 on the first, 3, 4 on the second, …) whose reads fail while `failing()` says so. */
const flakyList = (failing: () => boolean) =>
  new PagedList<Item>(
    async (page) => {
      if (failing()) throw new Error('down');
      return pageOf(range(page * 2 - 1, page * 2));
    },
    () => 2,
    ascending,
  );

/** A fetcher whose answers the test releases by hand, recording what was asked. */
function manualFetcher() {
  const calls: { page: number; perPage: number; signal: AbortSignal; resolve: (items: Item[]) => void; reject: (e: unknown) => void }[] =
    [];
  const fetch = (page: number, perPage: number, signal: AbortSignal) =>
    new Promise<Page<Item>>((resolve, reject) => calls.push({ page, perPage, signal, resolve: (items) => resolve(pageOf(items)), reject }));
  return { calls, fetch };
}

describe('PagedList', () => {
  it('a full page with a skipped broken record still offers "Load more…"', async () => {
    const list = new PagedList<Item>(
      async () => asPage<Item>(SHAPES.post)([{ id: 1 }, null, { id: 3 }]),
      () => 3,
      ascending,
    );
    await list.ensureStarted();
    assert.deepEqual(list.state.items, [{ id: 1 }, { id: 3 }]);
    assert.equal(list.state.hasMore, true);
  });

  it('loads page after page; a short page still offers more, the empty page after it ends the list', async () => {
    const data = range(1, 25);
    const asked: number[] = [];
    const list = new PagedList<Item>(
      async (page, perPage) => (asked.push(page), pageOf(data.slice((page - 1) * perPage, page * perPage))),
      () => 10,
      ascending,
    );
    await list.ensureStarted();
    assert.equal(list.state.items.length, 10);
    assert.equal(list.state.hasMore, true);
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.state.items.length, 25);
    assert.equal(list.state.hasMore, true, 'a short page is not the end: a service may page smaller than asked');
    await list.loadMore();
    assert.equal(list.state.items.length, 25);
    assert.equal(list.state.hasMore, false);
    await list.loadMore();
    assert.deepEqual(asked, [1, 2, 3, 4], 'nothing asked for after the end');
  });

  it('joins a load in flight instead of starting another', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2, ascending);
    const a = list.loadMore();
    const b = list.loadMore();
    const c = list.ensureStarted();
    assert.equal(calls.length, 1);
    assert.equal(list.state.loading, true);
    calls[0]!.resolve(range(1, 2));
    await Promise.all([a, b, c]);
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [1, 2],
    );
    assert.equal(list.state.loading, false);
  });

  it('a refresh aborts the load in flight, and its late answer is dropped', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2, descending);
    void list.loadMore();
    const refreshed = list.refresh();
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.signal.aborted, true);
    calls[1]!.resolve([{ id: 9 }, { id: 8 }]);
    await refreshed;
    calls[0]!.resolve([{ id: 1 }, { id: 2 }]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [9, 8],
    );
  });

  it('keeps what was shown during a refresh and replaces it with the first page', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2, descending);
    void list.loadMore();
    calls[0]!.resolve([{ id: 2 }, { id: 1 }]);
    await new Promise((r) => setImmediate(r));
    void list.loadMore();
    calls[1]!.resolve([{ id: 4 }, { id: 3 }]);
    await new Promise((r) => setImmediate(r));
    const refreshed = list.refresh();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [4, 3, 2, 1],
      'still shown while loading',
    );
    calls[2]!.resolve([{ id: 5 }, { id: 1 }]);
    await refreshed;
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [5, 1],
    );
    assert.equal(calls[2]!.page, 1);
  });

  it('keeps items and reports the error when a page fails, and can try again', async () => {
    let fail = false;
    const list = flakyList(() => fail);
    await list.loadMore();
    fail = true;
    await list.loadMore();
    assert.equal(list.state.items.length, 2);
    assert.match(String(list.state.error), /down/);
    fail = false;
    await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [1, 2, 3, 4],
    );
    assert.equal(list.state.error, undefined);
  });

  it('says whether the error is of a page after the first (the rows shown stay, only more failed) or of the first', async () => {
    let fail = true;
    const list = flakyList(() => fail);
    await list.loadMore();
    assert.equal(list.state.errorLoadingMore, false, 'the first page failed');
    fail = false;
    await list.loadMore();
    assert.equal(list.state.errorLoadingMore, false, 'no error');
    fail = true;
    await list.loadMore();
    assert.ok(list.state.error);
    assert.equal(list.state.errorLoadingMore, true, 'page 2 failed');
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [1, 2],
    );
    await list.refresh();
    assert.equal(list.state.errorLoadingMore, false, 'a refresh failed: the first page again');
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [1, 2],
      'what was shown stays',
    );
  });

  for (const byId of [false, true]) {
    it(`skips records repeated by a shifted page, upserts and removes${byId ? ' (found by bisection)' : ''}`, async () => {
      const pages = [
        [{ id: 5 }, { id: 4 }],
        [{ id: 4 }, { id: 3 }],
      ];
      const list = new PagedList<Item>(
        async (page) => pageOf(pages[page - 1] ?? []),
        () => 2,
        descending,
        undefined,
        { byId },
      );
      await list.loadMore();
      await list.loadMore();
      assert.deepEqual(
        list.state.items.map((i) => i.id),
        [5, 4, 3],
      );
      list.upsert({ id: 6 });
      list.remove(4);
      assert.deepEqual(
        list.state.items.map((i) => i.id),
        [6, 5, 3],
      );
    });
  }

  it('replaces a loaded record in place, and leaves the list alone when it is not loaded', async () => {
    const list = new PagedList<Item>(
      async () => pageOf(range(1, 3)),
      () => 3,
      ascending,
    );
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

  it('a copy the same as the loaded record (a post read again, unchanged) announces no change: no view is drawn again', async () => {
    type Post = Item & { content?: string; tags?: string[]; client?: { id: number } | null; closed?: boolean };
    const first: Post[] = [{ id: 1 }, { id: 2, name: 'same', content: 'x'.repeat(10_000), tags: ['a'], client: { id: 7 } }, { id: 3 }];
    const list = new PagedList<Post>(
      async () => ({ items: first, received: first.length }),
      () => 3,
      ascending,
    );
    await list.loadMore();
    let changes = 0;
    list.onDidChange(() => changes++);
    const loaded = list.find(2)!;
    // Read again: another object, with the same fields and values, in another order.
    const again = { client: { id: 7 }, tags: ['a'], content: 'x'.repeat(10_000), name: 'same', id: 2 };
    assert.equal(list.replace(again), true, 'it is loaded');
    assert.equal(changes, 0, 'nothing changed, so no change is announced');
    assert.equal(list.find(2), loaded);
    const changedCopies: Post[] = [
      { ...again, content: 'y' },
      { ...again, tags: ['b'] },
      { ...again, client: null },
      { ...again, closed: true },
      { id: 2, name: 'same', content: again.content, tags: ['a'] },
    ];
    for (const changed of changedCopies) {
      const before: number = changes;
      assert.equal(list.replace(changed), true);
      assert.equal(changes, before + 1, `announced: ${JSON.stringify(changed).slice(0, 60)}`);
      assert.equal(list.find(2), changed);
    }
  });

  it('tells listeners about changes and forgets everything on reset', async () => {
    const list = new PagedList<Item>(
      async () => pageOf(range(1, 2)),
      () => 2,
      ascending,
    );
    let changes = 0;
    list.onDidChange(() => changes++);
    await list.loadMore();
    assert.ok(changes >= 2, 'loading started and ended');
    list.reset();
    assert.equal(list.state.items.length, 0);
    assert.equal(list.state.started, false);
  });

  it('keeps the order compare defines, whatever order the pages come in', async () => {
    const answers = [[{ id: 3 }, { id: 7 }, { id: 2 }], [{ id: 1 }, { id: 9 }], [{ id: 5 }], []];
    const list = new PagedList<Item>(
      async (page) => pageOf(answers[page - 1]!),
      () => 3,
      descending,
    );
    await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [7, 3, 2],
    );
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [9, 7, 5, 3, 2, 1],
    );
    list.upsert({ id: 4 });
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [9, 7, 5, 4, 3, 2, 1],
      'a new record goes to its place',
    );
  });

  it('a compare on another field than id: pages, upserts and replaced records all take their place', async () => {
    const byName = (a: Item, b: Item) => String(a.name).localeCompare(String(b.name)) || a.id - b.id;
    const answers = [
      [
        { id: 2, name: 'alpha' },
        { id: 1, name: 'delta' },
      ],
      [
        { id: 3, name: 'charlie' },
        { id: 4, name: 'echo' },
      ],
      [],
    ];
    const list = new PagedList<Item>(
      async (page) => pageOf(answers[page - 1]!),
      () => 2,
      byName,
    );
    await list.loadMore();
    await list.loadMore();
    const names = () => list.state.items.map((i) => i.name);
    assert.deepEqual(names(), ['alpha', 'charlie', 'delta', 'echo']);
    list.upsert({ id: 5, name: 'bravo' });
    assert.deepEqual(names(), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    assert.equal(list.replace({ id: 2, name: 'foxtrot' }), true);
    assert.deepEqual(names(), ['bravo', 'charlie', 'delta', 'echo', 'foxtrot']);
  });

  it('hasMore: true after a short page that brought records, false after an empty page', async () => {
    const answers = [range(1, 5), range(6, 7), []];
    const list = new PagedList<Item>(
      async (page) => pageOf(answers[page - 1]!),
      () => 5,
      ascending,
    );
    await list.loadMore();
    assert.equal(list.state.hasMore, true);
    await list.loadMore();
    assert.equal(list.state.items.length, 7);
    assert.equal(list.state.hasMore, true, 'short, but not empty');
    await list.loadMore();
    assert.equal(list.state.items.length, 7);
    assert.equal(list.state.hasMore, false);
  });

  it('an empty page is the normal end: onStop is not told', async () => {
    const stops: PagingStop[] = [];
    const answers = [range(1, 2), []];
    const list = new PagedList<Item>(
      async (page) => pageOf(answers[page - 1]!),
      () => 2,
      ascending,
      (why) => stops.push(why),
    );
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.state.hasMore, false);
    assert.deepEqual(stops, []);
  });

  for (const byId of [false, true]) {
    it(`a page that brings nothing new (a service that ignores page): hasMore false, onStop("repeated")${byId ? ' (found by bisection)' : ''}`, async () => {
      const stops: PagingStop[] = [];
      const asked: number[] = [];
      const list = new PagedList<Item>(
        async (page) => (asked.push(page), pageOf(range(1, 3))),
        () => 3,
        ascending,
        (why) => stops.push(why),
        { byId },
      );
      await list.loadMore();
      assert.equal(list.state.hasMore, true);
      assert.deepEqual(stops, []);
      await list.loadMore();
      assert.equal(list.state.hasMore, false);
      assert.deepEqual(
        list.state.items.map((i) => i.id),
        [1, 2, 3],
      );
      assert.deepEqual(stops, ['repeated']);
      await list.loadMore();
      assert.deepEqual(asked, [1, 2]);
    });
  }

  it('a refresh that brings the same first page again is not a repeated page', async () => {
    const stops: PagingStop[] = [];
    const list = new PagedList<Item>(
      async (page) => pageOf(page === 1 ? range(1, 3) : []),
      () => 3,
      ascending,
      (why) => stops.push(why),
    );
    await list.loadMore();
    await list.refresh();
    assert.equal(list.state.hasMore, true);
    assert.deepEqual(stops, []);
  });

  it('stops offering more after MAX_PAGES pages, with onStop("cap")', async () => {
    const stops: PagingStop[] = [];
    const list = new PagedList<Item>(
      async (page) => pageOf([{ id: page }]),
      () => 1,
      ascending,
      (why) => stops.push(why),
    );
    for (let i = 0; i < MAX_PAGES - 1; i++) await list.loadMore();
    assert.equal(list.state.hasMore, true);
    assert.deepEqual(stops, []);
    await list.loadMore();
    assert.equal(list.state.items.length, MAX_PAGES);
    assert.equal(list.state.hasMore, false);
    assert.deepEqual(stops, ['cap']);
  });
});

describe('PagedList: a page past the end answered 404', () => {
  const notFound = () => new ApiError({ kind: 'notFound', method: 'GET', path: '/app.json', host: 'acme.example.com', status: 404 });

  it('a 404 on a page after the first ends the list, with no error row and the records kept', async () => {
    const stops: PagingStop[] = [];
    const list = new PagedList<Item>(
      async (page) => {
        if (page > 2) throw notFound();
        return pageOf(range(page * 2 - 1, page * 2));
      },
      () => 2,
      ascending,
      (why) => stops.push(why),
    );
    await list.loadMore();
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [1, 2, 3, 4],
    );
    assert.equal(list.state.error, undefined);
    assert.equal(list.state.hasMore, false);
    assert.deepEqual(stops, []);
  });

  it('a 404 on the first page is an error', async () => {
    const list = new PagedList<Item>(
      async () => {
        throw notFound();
      },
      () => 2,
      ascending,
    );
    await list.loadMore();
    assert.ok(isApiError(list.state.error, 'notFound'));
    assert.equal(list.state.hasMore, true, 'a retry may ask again');
  });
});

describe("PagedList: records made here, and the service's order", () => {
  /** A service whose list is `data()` in id order (it ignores the order asked for), two a page. */
  const idOrder = (data: () => Item[]) => async (page: number) => pageOf(data().slice((page - 1) * 2, page * 2));

  it('a record made here stays through a first-page reload from a service that lists in no order', async () => {
    const data = [2, 5, 1, 4, 3].map((id) => ({ id }));
    const list = new PagedList<Item>(
      async (page) => pageOf(data.slice((page - 1) * 3, page * 3)),
      () => 3,
      descending,
    );
    await list.loadMore();
    assert.equal(list.state.sortedByService, false, 'neither the order the list keeps, nor its reverse');
    data.push({ id: 6 });
    list.upsert({ id: 6 });
    await list.refresh();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [6, 5, 2, 1],
      'kept, though page 1 does not hold it',
    );
  });

  it('a record made here is dropped once the whole list was read without it (deleted elsewhere)', async () => {
    const data = range(1, 3);
    const list = new PagedList<Item>(
      idOrder(() => data),
      () => 2,
      descending,
    );
    list.upsert({ id: 9 });
    while (list.state.hasMore || !list.state.started) await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [3, 2, 1],
    );
  });

  it('a record made after the first page was read stays when Load more reads on to the end (the service lists it on a page read before)', async () => {
    const data = range(1, 5).reverse();
    const list = new PagedList<Item>(
      async (page) => pageOf(data.slice((page - 1) * 2, page * 2)),
      () => 2,
      descending,
    );
    await list.loadMore();
    data.unshift({ id: 6 });
    list.upsert({ id: 6 });
    while (list.state.hasMore) await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [6, 5, 4, 3, 2, 1],
      'filed since page 1 was read: no later page can hold it',
    );
    await list.refresh();
    while (list.state.hasMore) await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [6, 5, 4, 3, 2, 1],
      'and the service sends it from then on',
    );
  });

  it('where the service sorts as we do, a made record that page 1 should hold but does not is gone', async () => {
    const data = range(1, 5).reverse();
    const list = new PagedList<Item>(
      async (page) => pageOf(data.slice((page - 1) * 2, page * 2)),
      () => 2,
      descending,
    );
    list.upsert({ id: 7 });
    await list.refresh();
    assert.equal(list.state.sortedByService, true);
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [5, 4],
      '7 would sort first: the service would have sent it',
    );
  });

  it("a one-record first page says nothing about the service's order", async () => {
    const list = new PagedList<Item>(
      async (page) => pageOf(page === 1 ? [{ id: 1 }] : []),
      () => 1,
      descending,
    );
    list.upsert({ id: 5 });
    await list.loadMore();
    assert.equal(list.state.sortedByService, false);
    assert.ok(
      list.state.items.some((i) => i.id === 5),
      'the made record is kept',
    );
  });
});

/**
 * A service that lists oldest first whatever `order` asks (ids 1…n ascending), at most
 * `maxPerPage` a page whatever `perPage` asks; a page past the end is `[]` or a 404.
 */
function oldestFirst(total: number, options: { maxPerPage?: number; pastEnd?: 'empty' | 'notFound' } = {}) {
  const data = range(1, total);
  const asked: { page: number; perPage: number }[] = [];
  const fetch = async (page: number, perPage: number): Promise<Page<Item>> => {
    asked.push({ page, perPage });
    const size = Math.min(perPage, options.maxPerPage ?? Infinity);
    const items = data.slice((page - 1) * size, page * size);
    if (items.length === 0 && page > 1 && options.pastEnd === 'notFound')
      throw new ApiError({ kind: 'notFound', method: 'GET', path: '/app.json', host: 'acme.example.com', status: 404 });
    return pageOf(items);
  };
  return { data, asked, fetch, pages: () => asked.map((a) => a.page) };
}

/** Loads until the list ends (at most `max` loads). */
async function loadToEnd(list: PagedList<Item>, max = 2000): Promise<void> {
  for (let i = 0; i < max && (list.state.hasMore || !list.state.started); i++) await list.loadMore();
  assert.equal(list.state.hasMore, false, 'the list ended');
}

const ids = (list: PagedList<Item>) => list.state.items.map((i) => i.id);
const newestFirst = (from: number, to: number) =>
  range(from, to)
    .map((i) => i.id)
    .reverse();

describe('PagedList: a service that lists oldest first, for a list that wants newest first', () => {
  for (const pastEnd of ['empty', 'notFound'] as const) {
    it(`the first rows are the newest, the last non-empty page found in O(log n) requests (a page past the end ${pastEnd === 'empty' ? 'is []' : 'is a 404'})`, async () => {
      for (const total of [3, 10, 11, 25, 99, 100, 101, 1000, 4321]) {
        const service = oldestFirst(total, { pastEnd });
        const list = new PagedList<Item>(service.fetch, () => 10, descending);
        await list.ensureStarted();
        const lastPage = Math.ceil(total / 10);
        assert.equal(ids(list)[0], total, `${total}: the newest first`);
        assert.deepEqual(ids(list), newestFirst(ids(list).at(-1)!, total), `${total}: the newest, in order, none left out`);
        assert.ok(
          list.state.items.length >= Math.min(10, total),
          `${total}: at least a page's worth (a short last page and the one before)`,
        );
        assert.ok(service.pages().includes(lastPage), `${total}: its last page was read`);
        assert.ok(
          service.asked.length <= 2 * Math.floor(Math.log2(lastPage)) + 3,
          `${total} records: ${service.asked.length} requests (${service.pages().join(' ')})`,
        );
        assert.equal(list.state.error, undefined);
        assert.equal(list.state.hasMore, list.state.items.length < total, `${total}: more while older records remain`);
      }
    });
  }

  it('Load more goes to older records, page by page down to page 1, and then ends', async () => {
    const service = oldestFirst(95);
    const list = new PagedList<Item>(service.fetch, () => 10, descending);
    await list.ensureStarted();
    assert.deepEqual(ids(list), newestFirst(81, 95), 'page 10 (5 records) and page 9');
    service.asked.length = 0;
    await list.loadMore();
    assert.deepEqual(ids(list), newestFirst(71, 95), 'page 8 comes below');
    await loadToEnd(list);
    assert.deepEqual(ids(list), newestFirst(1, 95), 'every record once, newest first');
    assert.deepEqual(service.pages(), [8, 7, 6, 5, 4, 3, 2, 1], 'down to page 1, nothing past it');
    assert.ok(service.asked.every((a) => a.perPage === 10));
    await list.loadMore();
    assert.equal(service.asked.length, 8, 'nothing asked after page 1');
  });

  it('a service that holds fewer a page than asked (25 for 50): page numbers stay those of one per_page', async () => {
    const service = oldestFirst(130, { maxPerPage: 25 });
    const list = new PagedList<Item>(service.fetch, () => 50, descending);
    await list.ensureStarted();
    assert.deepEqual(ids(list), newestFirst(101, 130), 'page 6 (5 records) and page 5');
    await loadToEnd(list);
    assert.deepEqual(ids(list), newestFirst(1, 130));
    assert.ok(
      service.asked.every((a) => a.perPage === 50),
      'one per_page throughout',
    );
  });

  it('the page size setting changed between loads: the walk keeps its per_page; a refresh searches again with the new one', async () => {
    const service = oldestFirst(100);
    let pageSize = 10;
    const list = new PagedList<Item>(service.fetch, () => pageSize, descending);
    await list.ensureStarted();
    pageSize = 20;
    await list.loadMore();
    assert.deepEqual(ids(list), newestFirst(81, 100));
    assert.equal(service.asked.at(-1)!.perPage, 10);
    service.asked.length = 0;
    await list.refresh();
    assert.ok(service.asked.every((a) => a.perPage === 20));
    assert.equal(service.pages()[0], 1, 'the last page known is of another per_page: searched from page 1');
    assert.deepEqual(ids(list), newestFirst(81, 100));
  });

  it('a refresh probes from the last page found (the list grew): the newest first again, in fewer requests, page 1 not read', async () => {
    const service = oldestFirst(1000);
    const list = new PagedList<Item>(service.fetch, () => 10, descending);
    await list.ensureStarted();
    const firstSearch = service.asked.length;
    await list.loadMore();
    service.data.push(...range(1001, 1035));
    service.asked.length = 0;
    await list.refresh();
    assert.deepEqual(ids(list), newestFirst(1021, 1035), 'page 104 (5 records) and page 103; the older pages shown before are replaced');
    assert.ok(!service.pages().includes(1), `not searched from scratch: ${service.pages().join(' ')}`);
    assert.ok(service.asked.length < firstSearch, `${service.asked.length} requests, ${firstSearch} the first time`);
    service.asked.length = 0;
    await list.refresh();
    assert.deepEqual(
      service.pages(),
      [104, 105, 103],
      'unchanged: the last page, the one after it (empty), the one before (the last is short)',
    );
  });

  it('a refresh after the list shrank finds the new last page', async () => {
    const service = oldestFirst(100);
    const list = new PagedList<Item>(service.fetch, () => 10, descending);
    await list.ensureStarted();
    service.data.splice(42);
    await list.refresh();
    assert.deepEqual(ids(list), newestFirst(31, 42));
    await loadToEnd(list);
    assert.deepEqual(ids(list), newestFirst(1, 42));
    service.data.splice(0);
    await list.refresh();
    assert.deepEqual(ids(list), [], 'every record gone');
    assert.equal(list.state.hasMore, false);
  });

  it('a reset forgets the last page found', async () => {
    const service = oldestFirst(100);
    const list = new PagedList<Item>(service.fetch, () => 10, descending);
    await list.ensureStarted();
    list.reset();
    service.asked.length = 0;
    await list.ensureStarted();
    assert.equal(service.pages()[0], 1);
  });

  it('records made here show at the top, through Load more down to page 1 and through a refresh', async () => {
    const service = oldestFirst(50);
    const list = new PagedList<Item>(service.fetch, () => 10, descending);
    await list.ensureStarted();
    service.data.push({ id: 51 });
    list.upsert({ id: 51 });
    assert.equal(ids(list)[0], 51);
    await loadToEnd(list);
    assert.deepEqual(ids(list), newestFirst(1, 51), 'still there at the end of the walk, though no page read held it');
    await list.refresh();
    assert.deepEqual(ids(list), newestFirst(41, 51), 'the service lists it on its last page');
    list.upsert({ id: 52 });
    await list.refresh();
    assert.equal(ids(list)[0], 51, "one the service's last page does not hold is gone (deleted elsewhere)");
  });

  it("an error while searching is the first page's error; a retry searches again", async () => {
    const service = oldestFirst(100);
    let fail = false;
    const list = new PagedList<Item>(
      async (page, perPage) => {
        if (fail && page > 1) throw new Error('down');
        return service.fetch(page, perPage);
      },
      () => 10,
      descending,
    );
    fail = true;
    await list.ensureStarted();
    assert.match(String(list.state.error), /down/);
    assert.equal(list.state.errorLoadingMore, false);
    assert.deepEqual(ids(list), []);
    fail = false;
    await list.loadMore();
    assert.equal(list.state.error, undefined);
    assert.equal(ids(list)[0], 100);
  });

  it('an error on Load more keeps the rows; a retry asks the same page again', async () => {
    const service = oldestFirst(100);
    let fail = false;
    const list = new PagedList<Item>(
      async (page, perPage) => {
        if (fail) throw new Error('down');
        return service.fetch(page, perPage);
      },
      () => 10,
      descending,
    );
    await list.ensureStarted();
    fail = true;
    await list.loadMore();
    assert.equal(list.state.errorLoadingMore, true);
    assert.deepEqual(ids(list), newestFirst(91, 100));
    fail = false;
    service.asked.length = 0;
    await list.loadMore();
    assert.deepEqual(service.pages(), [9]);
    assert.deepEqual(ids(list), newestFirst(81, 100));
  });

  it('a service that also ignores page (page 1 again and again): the search stops at once, told as "repeated"', async () => {
    const stops: PagingStop[] = [];
    const asked: number[] = [];
    const list = new PagedList<Item>(
      async (page) => (asked.push(page), pageOf(range(1, 10))),
      () => 10,
      descending,
      (why) => stops.push(why),
    );
    await list.ensureStarted();
    assert.deepEqual(ids(list), newestFirst(1, 10));
    assert.deepEqual(asked, [1, 2]);
    assert.equal(list.state.hasMore, false);
    assert.deepEqual(stops, ['repeated']);
  });

  it('a service that starts to ignore page after its last page was found: a refresh from that page stops at the repeat, not at the cap', async () => {
    // Oldest first and paged (its last page found and kept, page 3), then the same few records on every page.
    const paged = range(1, 25);
    let answer = (page: number, perPage: number) => paged.slice((page - 1) * perPage, page * perPage);
    const asked: number[] = [];
    const stops: PagingStop[] = [];
    const list = new PagedList<Item>(
      async (page, perPage) => (asked.push(page), pageOf(answer(page, perPage))),
      () => 10,
      descending,
      (why) => stops.push(why),
    );
    await list.ensureStarted();
    while (list.state.hasMore) await list.loadMore();
    assert.deepEqual(ids(list), newestFirst(1, 25));
    answer = () => range(101, 105);
    asked.length = 0;
    await list.refresh();
    while (list.state.hasMore) await list.loadMore();
    assert.deepEqual(ids(list), newestFirst(101, 105));
    assert.ok(asked.length <= 5, `${asked.length} pages asked for: ${asked.slice(0, 12).join(', ')}…`);
    assert.deepEqual(stops.slice(-1), ['repeated']);
  });

  it('a refresh aborts a search in flight: its pages are not asked for further, its answer is dropped', async () => {
    const { calls, fetch } = manualFetcher();
    const list = new PagedList<Item>(fetch, () => 2, descending);
    void list.loadMore();
    calls[0]!.resolve([{ id: 1 }, { id: 2 }]);
    await new Promise((r) => setImmediate(r));
    assert.equal(calls[1]!.page, 2, 'the search goes on');
    const refreshed = list.refresh();
    assert.equal(calls[1]!.signal.aborted, true);
    calls[1]!.resolve([{ id: 3 }, { id: 4 }]);
    calls[2]!.resolve([{ id: 8 }, { id: 7 }]);
    await refreshed;
    await new Promise((r) => setImmediate(r));
    assert.equal(calls.length, 3, 'nothing asked after the abort');
    assert.deepEqual(ids(list), [8, 7]);
  });
});

describe('PagedList: a first page in the reverse order by chance (a list sorted by name, a service by id)', () => {
  const byName = (a: Item, b: Item) => String(a.name).localeCompare(String(b.name)) || a.id - b.id;

  it('a record made here is not dropped when the last pages read are not in the reverse order', async () => {
    const data: Item[] = [
      { id: 1, name: 'delta' },
      { id: 2, name: 'alpha' },
      { id: 3, name: 'echo' },
      { id: 4, name: 'bravo' },
      { id: 5, name: 'foxtrot' },
    ];
    const list = new PagedList<Item>(
      async (page) => pageOf(data.slice((page - 1) * 2, page * 2)),
      () => 2,
      byName,
    );
    list.upsert({ id: 9, name: 'charlie' });
    await list.ensureStarted();
    assert.ok(
      list.state.items.some((i) => i.id === 9),
      "kept: nothing says the service's last pages hold the first names",
    );
    await loadToEnd(list);
    assert.deepEqual(
      list.state.items.map((i) => i.name),
      ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'],
    );
  });
});

describe('PagedList: a list of more than MAX_PAGES pages, oldest first', () => {
  it('shows page MAX_PAGES first and says the list was capped', async () => {
    const stops: PagingStop[] = [];
    const asked: number[] = [];
    const list = new PagedList<Item>(
      async (page) => (asked.push(page), pageOf([{ id: page * 2 - 1 }, { id: page * 2 }])),
      () => 2,
      descending,
      (why) => stops.push(why),
    );
    await list.ensureStarted();
    assert.deepEqual(ids(list), [MAX_PAGES * 2, MAX_PAGES * 2 - 1]);
    assert.ok(asked.every((page) => page <= MAX_PAGES));
    assert.deepEqual(stops, ['cap']);
  });
});

describe('PagedList changes say what they touched', () => {
  const collect = (list: PagedList<Item>) => {
    const changes: unknown[] = [];
    list.onDidChange((change) => changes.push(change));
    return changes;
  };

  it('a later page in order is added after the records loaded: those before it did not change', async () => {
    const data = range(1, 30).reverse();
    const list = new PagedList<Item>(
      async (page, perPage) => pageOf(data.slice((page - 1) * perPage, page * perPage)),
      () => 10,
      descending,
    );
    await list.loadMore();
    const firstTen = list.state.items;
    const changes = collect(list);
    await list.loadMore();
    assert.deepEqual(changes, [{}, { from: 10 }], 'loading (no record changed), then records from index 10 on');
    assert.deepEqual(list.state.items.slice(0, 10), firstTen, 'the same records, not copies');
    assert.equal(list.state.items[0], firstTen[0]);
  });

  it('a later page whose records sort among those loaded says where the first of them went', async () => {
    const answers = [[{ id: 9 }, { id: 5 }, { id: 1 }], [{ id: 7 }, { id: 3 }], []];
    const list = new PagedList<Item>(
      async (page) => pageOf(answers[page - 1]!),
      () => 3,
      descending,
    );
    await list.loadMore();
    const changes = collect(list);
    await list.loadMore();
    assert.deepEqual(
      list.state.items.map((i) => i.id),
      [9, 7, 5, 3, 1],
    );
    assert.deepEqual(changes.at(-1), { from: 1 });
  });

  it('a page of records all loaded already changes no record', async () => {
    const list = new PagedList<Item>(
      async () => pageOf([{ id: 2 }, { id: 1 }]),
      () => 2,
      descending,
    );
    await list.loadMore();
    const changes = collect(list);
    await list.loadMore();
    assert.deepEqual(changes, [{}, {}]);
  });

  it('a record replaced where it stood is a change of that index alone; one that moves changes from where it was', async () => {
    const list = new PagedList<Item>(
      async () => pageOf([{ id: 5 }, { id: 3 }, { id: 1 }]),
      () => 3,
      descending,
    );
    await list.loadMore();
    const changes = collect(list);
    list.replace({ id: 3, name: 'fresh' });
    assert.deepEqual(changes, [{ from: 1, to: 2 }]);
    list.upsert({ id: 9 });
    assert.deepEqual(changes.at(-1), { from: 0 }, 'a new record at the top moves every row');
    list.upsert({ id: 2 });
    assert.deepEqual(changes.at(-1), { from: 3 });
    list.remove(5);
    assert.deepEqual(changes.at(-1), { from: 1 });
    list.remove(42);
    assert.equal(changes.length, 4, 'removing a record that is not loaded changes nothing');
    list.reset();
    assert.deepEqual(changes.at(-1), { from: 0 });
  });

  it('a refresh that reads other records changes them from the first that differs', async () => {
    let answer = [{ id: 3 }, { id: 2 }];
    const list = new PagedList<Item>(
      async () => pageOf(answer),
      () => 2,
      descending,
    );
    await list.loadMore();
    answer = [{ id: 4 }, { id: 3 }];
    const changes = collect(list);
    await list.refresh();
    assert.deepEqual(changes.at(-1), { from: 0 });
  });
});
