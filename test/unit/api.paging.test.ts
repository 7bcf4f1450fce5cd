import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ApiError, clampPerPage, isApiError, isLastPage, MAX_PAGES, pages, SHAPES, type Page, type PagingStop } from '../../src/api';
import { useStandIn } from './support';
import { asPage } from '../../src/api/parse';

const stand = useStandIn();
const clientPages = () => stand.server.requests.filter((r) => r.path === '/app/clients.json').map((r) => r.query.page);

describe('pagination', () => {
  before(async () => {
    const api = stand.client();
    for (let i = 1; i <= 57; i++) await api.clients.create({ name: `Client ${String(i).padStart(2, '0')}` });
  });

  it('walks every page; a short page is not the end, the empty page after it is', async () => {
    const sizes: number[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 25 })) sizes.push(page.length);
    assert.deepEqual(sizes, [25, 25, 7]);
    assert.deepEqual(clientPages(), ['1', '2', '3', '4']);
  });

  it('stops at an empty page when the count divides evenly', async () => {
    const sizes: number[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 19 })) sizes.push(page.length);
    assert.deepEqual(sizes, [19, 19, 19]);
    assert.deepEqual(clientPages(), ['1', '2', '3', '4']);
  });

  it('keeps order and filters on every page, and can start later', async () => {
    const names: string[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 20, page: 2, order: 'name.desc' }))
      names.push(...page.map((c) => c.name ?? ''));
    assert.equal(names.length, 37);
    assert.equal(names[0], 'Client 37');
    for (const request of stand.server.requests) assert.equal(request.query.order, 'name.desc');
  });

  it('sends at most 100 per page', async () => {
    await stand.client().clients.list({ perPage: 500 });
    assert.equal(stand.server.requests[0]!.query.per_page, '100');
    assert.equal(clampPerPage(0), 1);
    assert.equal(clampPerPage(undefined), 25);
  });

  it('a page past the end is empty', async () => {
    assert.deepEqual(await stand.client().clients.list({ page: 99, perPage: 25 }), { items: [], received: 0 });
  });

  it('stops when cancelled between pages', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    await assert.rejects(async () => {
      for await (const page of stand.client().clients.pages({ perPage: 10 }, { signal: controller.signal })) {
        seen.push(page.length);
        controller.abort();
      }
    });
    assert.deepEqual(seen, [10]);
    assert.equal(clientPages().length, 1);
  });

  it('the generic iterator works on any page function', async () => {
    const data = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));
    const got: number[][] = [];
    const fetchPage = async ({ page = 1, perPage = 3 }) => {
      const items = data.slice((page - 1) * perPage, page * perPage);
      return { items, received: items.length };
    };
    for await (const page of pages(fetchPage, { perPage: 3 })) got.push(page.map((item) => item.id));
    assert.deepEqual(got, [[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('a page with a broken record is not the end: the next page is asked for', async () => {
    const answers = [[{ id: 1 }, { id: 'x' }, { id: 3 }], [{ id: 4 }]];
    const asked: number[] = [];
    const got: Array<Array<{ id: number }>> = [];
    const read = asPage<{ id: number }>(SHAPES.deal);
    const fetchPage = async ({ page = 1 }: { page?: number }) => (asked.push(page), read(answers[page - 1] ?? []));
    for await (const page of pages(fetchPage, { perPage: 3 })) got.push(page);
    assert.deepEqual(asked, [1, 2, 3]);
    assert.deepEqual(got, [[{ id: 1 }, { id: 3 }], [{ id: 4 }]]);
  });

  it('a page is the last one when it is empty, or when every record in it was seen before; a short page is not', () => {
    const seen = new Set([1, 2]);
    assert.equal(isLastPage({ items: [], received: 0 }, seen), true, 'empty');
    assert.equal(isLastPage({ items: [], received: 0 }, new Set()), true, 'empty, nothing seen yet');
    assert.equal(isLastPage({ items: [{ id: 2 }, { id: 1 }], received: 2 }, seen), true, 'all seen before: the service ignores page');
    assert.equal(isLastPage({ items: [{ id: 2 }, { id: 3 }], received: 2 }, seen), false, 'one new record');
    assert.equal(isLastPage({ items: [{ id: 3 }], received: 1 }, seen), false, 'short, but new');
    assert.equal(isLastPage({ items: [{ id: 3 }, { id: 4 }], received: 3 }, new Set()), false, 'a broken record counted, the rest new');
  });
});

/** A fake list of `total` records (ids 1…total), paged as a service would: records `perPage` at most, whatever is asked. */
function fakeService(total: number, options: { maxPerPage?: number; ignoresPage?: boolean } = {}) {
  const data = Array.from({ length: total }, (_, i) => ({ id: i + 1 }));
  const asked: Array<{ page: number; perPage: number }> = [];
  const fetchPage = async ({ page = 1, perPage = 25 }): Promise<Page<{ id: number }>> => {
    asked.push({ page, perPage });
    const size = Math.min(perPage, options.maxPerPage ?? Infinity);
    const from = options.ignoresPage ? 0 : (page - 1) * size;
    const items = data.slice(from, from + size);
    return { items, received: items.length };
  };
  return { asked, fetchPage };
}

async function readAll<T extends { id: number }>(iterator: AsyncIterable<T[]>): Promise<T[][]> {
  const got: T[][] = [];
  for await (const page of iterator) got.push(page);
  return got;
}

describe('pages(): the end of a list', () => {
  it('a service that pages 25 when asked for 50 is read to the end: every record, once', async () => {
    const service = fakeService(130, { maxPerPage: 25 });
    const stops: PagingStop[] = [];
    const got = await readAll(pages(service.fetchPage, { perPage: 50 }, {}, (why) => stops.push(why)));
    assert.deepEqual(
      got.map((page) => page.length),
      [25, 25, 25, 25, 25, 5],
    );
    assert.deepEqual(
      got.flat().map((item) => item.id),
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      service.asked.map((a) => a.page),
      [1, 2, 3, 4, 5, 6, 7],
      'read on past every short page, to the empty one',
    );
    assert.ok(service.asked.every((a) => a.perPage === 50));
    assert.deepEqual(stops, [], 'an empty page is the normal end');
  });

  it('a service that ignores page (always page 1) is asked twice, and the stop is reported as "repeated"', async () => {
    const service = fakeService(40, { ignoresPage: true });
    const stops: PagingStop[] = [];
    const got = await readAll(pages(service.fetchPage, { perPage: 25 }, {}, (why) => stops.push(why)));
    assert.equal(service.asked.length, 2);
    assert.deepEqual(
      got.flat().map((item) => item.id),
      Array.from({ length: 25 }, (_, i) => i + 1),
      'page 1 once',
    );
    assert.deepEqual(stops, ['repeated']);
  });

  it('a list that never ends stops at MAX_PAGES, reported as "cap"', async () => {
    let asked = 0;
    const endless = async ({ page = 1 }): Promise<Page<{ id: number }>> => (
      asked++,
      { items: [{ id: page * 2 }, { id: page * 2 + 1 }], received: 2 }
    );
    const stops: PagingStop[] = [];
    const got = await readAll(pages(endless, { perPage: 2 }, {}, (why) => stops.push(why)));
    assert.equal(asked, MAX_PAGES);
    assert.equal(got.length, MAX_PAGES);
    assert.deepEqual(stops, ['cap']);
  });

  it('the cap counts from the first page read, not from page 1', async () => {
    const service = fakeService(20 * MAX_PAGES, { maxPerPage: 5 });
    const stops: PagingStop[] = [];
    await readAll(pages(service.fetchPage, { page: 1001, perPage: 5 }, {}, (why) => stops.push(why)));
    assert.equal(service.asked.length, MAX_PAGES);
    assert.equal(service.asked[0]!.page, 1001);
    assert.deepEqual(stops, ['cap']);
  });

  it('a page that overlaps the one before (records shifted in) yields only the new records, and is not the end', async () => {
    const answers = [[{ id: 9 }, { id: 8 }, { id: 7 }], [{ id: 7 }, { id: 6 }, { id: 5 }], [{ id: 5 }, { id: 4 }], []];
    const stops: PagingStop[] = [];
    const got = await readAll(
      pages(
        async ({ page = 1 }) => ({ items: answers[page - 1]!, received: answers[page - 1]!.length }),
        { perPage: 3 },
        {},
        (why) => stops.push(why),
      ),
    );
    assert.deepEqual(
      got.map((page) => page.map((item) => item.id)),
      [[9, 8, 7], [6, 5], [4]],
    );
    assert.deepEqual(stops, []);
  });

  it('a page of nothing but broken records ends the list (reading on could loop for ever), told as "unreadable"', async () => {
    const answers: unknown[][] = [[{ id: 1 }, { id: 2 }], [{ id: 'x' }, { id: 'y' }], [{ id: 3 }], []];
    const read = asPage<{ id: number }>(SHAPES.deal);
    const stops: PagingStop[] = [];
    const got = await readAll(
      pages(
        async ({ page = 1 }) => read(answers[page - 1]),
        { perPage: 2 },
        {},
        (why) => stops.push(why),
      ),
    );
    assert.equal(isLastPage(read(answers[1]), new Set([1, 2])), true);
    assert.deepEqual(
      got.flat().map((item) => item.id),
      [1, 2],
    );
    assert.deepEqual(stops, ['unreadable']);
  });
});

/** A 404 as the client throws it for `page` of a list. */
const notFound = (page: number) =>
  new ApiError({
    kind: 'notFound',
    method: 'GET',
    path: '/app/deals.json',
    host: 'acme.example.com',
    status: 404,
    serverMessage: `page ${page}`,
  });

describe('pages(): a page past the end answered 404 (not documented either way)', () => {
  const sparse = useStandIn({ profile: 'sparse' });

  it('a 404 on a page after the first ends the list: every record read, nothing thrown, nothing told', async () => {
    const stops: PagingStop[] = [];
    const asked: number[] = [];
    const fetchPage = async ({ page = 1 }): Promise<Page<{ id: number }>> => {
      asked.push(page);
      if (page > 2) throw notFound(page);
      return { items: [{ id: page * 2 - 1 }, { id: page * 2 }], received: 2 };
    };
    const got = await readAll(pages(fetchPage, { perPage: 2 }, {}, (why) => stops.push(why)));
    assert.deepEqual(
      got.flat().map((item) => item.id),
      [1, 2, 3, 4],
    );
    assert.deepEqual(asked, [1, 2, 3]);
    assert.deepEqual(stops, []);
  });

  it('a 404 on the first page is an error (the list itself is not there)', async () => {
    const fetchPage = async ({ page = 1 }): Promise<Page<{ id: number }>> => {
      throw notFound(page);
    };
    await assert.rejects(readAll(pages(fetchPage, { perPage: 2 })), (error) => isApiError(error, 'notFound'));
  });

  it('other errors on a later page still fail', async () => {
    const fetchPage = async ({ page = 1 }): Promise<Page<{ id: number }>> => {
      if (page > 1) throw new ApiError({ kind: 'server', method: 'GET', path: '/app/deals.json', host: 'acme.example.com', status: 500 });
      return { items: [{ id: 1 }], received: 1 };
    };
    await assert.rejects(readAll(pages(fetchPage, { perPage: 2 })), (error) => isApiError(error, 'server'));
  });

  it('on a stand-in that answers a page past the end with 404, a list is read to its end', async () => {
    const api = sparse.client();
    for (let i = 1; i <= 7; i++) await api.clients.create({ name: `Client ${i}` });
    const got = await readAll(api.clients.pages({ perPage: 3 }));
    assert.deepEqual(
      got.map((page) => page.length),
      [3, 3, 1],
    );
    assert.deepEqual(
      sparse.server.requests.filter((r) => r.method === 'GET' && r.path === '/app/clients.json').map((r) => r.query.page),
      ['1', '2', '3', '4'],
    );
    assert.equal(sparse.log.at(-1)?.status, 404, 'the stand-in did answer 404 past the end');
  });
});
