import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { clampPerPage, isLastPage, pages } from '../../src/api';
import { useStandIn } from './support';
import { asPage } from '../../src/api/parse';

const stand = useStandIn();
const clientPages = () => stand.server.requests.filter((r) => r.path === '/app/clients.json').map((r) => r.query.page);

describe('pagination', () => {
  before(async () => {
    const api = stand.client();
    for (let i = 1; i <= 57; i++) await api.clients.create({ name: `Client ${String(i).padStart(2, '0')}` });
  });

  it('walks every page and stops at the short last one', async () => {
    const sizes: number[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 25 })) sizes.push(page.length);
    assert.deepEqual(sizes, [25, 25, 7]);
    assert.deepEqual(clientPages(), ['1', '2', '3']);
  });

  it('stops at an empty page when the count divides evenly', async () => {
    const sizes: number[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 19 })) sizes.push(page.length);
    assert.deepEqual(sizes, [19, 19, 19]);
    assert.deepEqual(clientPages(), ['1', '2', '3', '4']);
  });

  it('keeps order and filters on every page, and can start later', async () => {
    const names: string[] = [];
    for await (const page of stand.client().clients.pages({ perPage: 20, page: 2, order: 'name.desc' })) names.push(...page.map((c) => c.name ?? ''));
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
    const data = Array.from({ length: 7 }, (_, i) => i);
    const got: number[][] = [];
    const fetchPage = async ({ page = 1, perPage = 3 }) => {
      const items = data.slice((page - 1) * perPage, page * perPage);
      return { items, received: items.length };
    };
    for await (const page of pages(fetchPage, { perPage: 3 })) got.push(page);
    assert.deepEqual(got, [[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('a full page with a broken record is still full: the next page is asked for', async () => {
    const answers = [[{ id: 1 }, { id: 'x' }, { id: 3 }], [{ id: 4 }]];
    const asked: number[] = [];
    const got: Array<Array<{ id: number }>> = [];
    const fetchPage = async ({ page = 1 }: { page?: number }) => (asked.push(page), asPage<{ id: number }>(answers[page - 1] ?? []));
    for await (const page of pages(fetchPage, { perPage: 3 })) got.push(page);
    assert.deepEqual(asked, [1, 2]);
    assert.deepEqual(got, [[{ id: 1 }, { id: 3 }], [{ id: 4 }]]);
  });

  it('a page is the last one when the service sent fewer items than asked for, broken ones counted', () => {
    assert.equal(isLastPage({ items: [{ id: 1 }, { id: 2 }], received: 2 }, 3), true);
    assert.equal(isLastPage({ items: [{ id: 1 }, { id: 3 }], received: 3 }, 3), false);
    assert.equal(isLastPage({ items: [], received: 3 }, 3), false);
    assert.equal(isLastPage({ items: [], received: 0 }, 3), true);
  });
});
