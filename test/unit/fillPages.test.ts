import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type Page } from '../../src/api';
import { fillPages } from '../../src/store/fillPages';
import { PagedList } from '../../src/store/pagedList';

type Item = { id: number };
const ascending = (a: Item, b: Item) => a.id - b.id;

/** A list of `count` records, `perPage` a page; `fail(page)` makes a page fail. */
function listOf(count: number, perPage: number, fail: (page: number) => boolean = () => false) {
  const asked: number[] = [];
  const list = new PagedList<Item>(
    async (page, size): Promise<Page<Item>> => {
      asked.push(page);
      if (fail(page)) throw new ApiError({ kind: 'server', status: 500, method: 'GET', path: '/app.json', host: 'a.example.com' });
      const items = Array.from({ length: Math.max(0, Math.min(size, count - (page - 1) * size)) }, (_, i) => ({
        id: (page - 1) * size + i + 1,
      }));
      return { items, received: items.length };
    },
    () => perPage,
    ascending,
  );
  return { list, asked };
}

/** Every 7th record is in the filter. */
const shown = (list: PagedList<Item>) => list.state.items.filter((item) => item.id % 7 === 0).length;
const signal = () => new AbortController().signal;

describe('fillPages', () => {
  it('loads page after page until the filter shows enough, and no further', async () => {
    const { list, asked } = listOf(1000, 5);
    const pagesTold: number[] = [];
    const end = await fillPages(list, { enough: () => shown(list) >= 3, maxPages: 20, signal: signal(), onPage: (n) => pagesTold.push(n) });
    assert.equal(end, 'enough');
    assert.equal(shown(list), 3);
    assert.deepEqual(asked, [1, 2, 3, 4, 5], 'records 1–25 hold 7, 14 and 21');
    assert.deepEqual(pagesTold, [1, 2, 3, 4], "the first load is the list's own; four more pages");
  });

  it('stops where the list ends', async () => {
    const { list } = listOf(12, 5);
    assert.equal(await fillPages(list, { enough: () => shown(list) >= 20, maxPages: 20, signal: signal() }), 'ended');
    assert.equal(list.state.items.length, 12);
    assert.equal(list.state.hasMore, false);
  });

  it('reads at most maxPages pages; then the list still has more, for "Load more…"', async () => {
    const { list, asked } = listOf(10_000, 1);
    assert.equal(await fillPages(list, { enough: () => false, maxPages: 20, signal: signal() }), 'bound');
    assert.equal(asked.length, 21, 'the first page, then twenty');
    assert.equal(list.state.hasMore, true);
  });

  it('a cancel (another filter, another account) stops it after the page under way', async () => {
    const { list, asked } = listOf(10_000, 1);
    const controller = new AbortController();
    const end = await fillPages(list, {
      enough: () => false,
      maxPages: 20,
      signal: controller.signal,
      onPage: (n) => n === 2 && controller.abort(),
    });
    assert.equal(end, 'cancelled');
    assert.equal(asked.length, 3);
  });

  it('a list started again (a refresh, a sign-out) cancels it', async () => {
    const { list } = listOf(10_000, 1);
    const generation = list.state.generation;
    const end = await fillPages(list, {
      enough: () => false,
      maxPages: 20,
      signal: signal(),
      onPage: (n) => n === 1 && void list.refresh(),
    });
    assert.equal(end, 'cancelled');
    assert.equal(list.state.generation, generation + 1);
    list.reset();
    assert.equal(list.state.generation, generation + 2);
  });

  it('stops at a page that fails, which the list keeps as its error; a click on its retry reads it again', async () => {
    let failing = true;
    const { list, asked } = listOf(1000, 5, (page) => failing && page === 3);
    assert.equal(await fillPages(list, { enough: () => false, maxPages: 20, signal: signal() }), 'failed');
    assert.ok(list.state.error instanceof ApiError);
    assert.deepEqual(asked, [1, 2, 3]);
    assert.equal(
      await fillPages(list, { enough: () => false, maxPages: 20, signal: signal() }),
      'failed',
      'without a click, no page is asked again',
    );
    assert.deepEqual(asked, [1, 2, 3]);
    failing = false;
    assert.equal(await fillPages(list, { enough: () => shown(list) >= 3, maxPages: 20, signal: signal(), atLeastOne: true }), 'enough');
    assert.deepEqual(asked, [1, 2, 3, 3, 4, 5]);
  });

  it('a click on "Load more…" reads a page even where the screen is full', async () => {
    const { list, asked } = listOf(1000, 5);
    await list.ensureStarted();
    assert.equal(await fillPages(list, { enough: () => true, maxPages: 20, signal: signal(), atLeastOne: true }), 'enough');
    assert.deepEqual(asked, [1, 2]);
  });
});
