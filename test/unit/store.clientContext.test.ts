import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client, Deal, ListRead, Post } from '../../src/api';
import type { PagedListState } from '../../src/store/pagedList';
import { accountSources, readClientContext } from '../../src/store/clientContext';

/* The customer context read from an account alone (another account's post: no store of its lists here). */
describe('the customer context of an account with no store here', () => {
  const client: Client = { id: 2, name: 'Bluewater Logistics' };
  const deals: ListRead<Deal> = { items: [{ id: 5, name: 'Gold', client_id: 2 }] };

  it('reads the client and its deals from the account, and looks for no other posts', async () => {
    const asked: string[] = [];
    const account = {
      client: async (id: number) => (asked.push(`client ${id}`), client),
      dealsOf: async (id: number) => (asked.push(`deals ${id}`), deals),
    };
    const context = await readClientContext(accountSources(account), 2, 7, new AbortController().signal);
    assert.deepEqual(context, { clientId: 2, client, deals, posts: undefined });
    assert.deepEqual(asked.sort(), ['client 2', 'deals 2']);
  });

  it('gives the deals by name, as the store does (the card lists the first few)', async () => {
    const unordered: ListRead<Deal> = {
      items: [
        { id: 1, name: 'Zinc', client_id: 2 },
        { id: 2, name: 'Amber', client_id: 2 },
      ],
    };
    const account = { client: async () => client, dealsOf: async () => unordered };
    const context = await readClientContext(accountSources(account), 2, 7, new AbortController().signal);
    assert.deepEqual(
      context.deals?.items.map((deal) => deal.name),
      ['Amber', 'Zinc'],
    );
  });

  it('a part that fails says so; the other is still given', async () => {
    const account = {
      client: () => Promise.reject(new Error('gone')),
      dealsOf: async () => deals,
    };
    const context = await readClientContext(accountSources(account), 2, 7, new AbortController().signal);
    assert.equal((context.clientError as Error).message, 'gone');
    assert.deepEqual(context.deals, deals);
  });

  it('counts the other posts as the list was when looking ended, not as it is when the deals come (the window may have moved it to another account)', async () => {
    const list = (items: Post[]): PagedListState<Post> => ({
      items,
      hasMore: false,
      loading: false,
      error: undefined,
      errorLoadingMore: false,
      started: true,
      sortedByService: true,
      generation: 1,
      lastKnown: false,
    });
    const posts = { state: list([{ id: 3, client_id: 2, title: 'Invoice' }]), loadMore: async () => undefined };
    let answerDeals!: (read: ListRead<Deal>) => void;
    const sources = {
      posts,
      loadedClient: () => client,
      readClient: async () => client,
      dealsOf: () => new Promise<ListRead<Deal>>((resolve) => (answerDeals = resolve)),
      dealsKnown: () => undefined,
    };
    const reading = readClientContext(sources, 2, 7, new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    // Another account's list now, with a post of a client of the same number.
    posts.state = list([{ id: 99, client_id: 2, title: "Another account's post" }]);
    answerDeals(deals);
    const context = await reading;
    assert.deepEqual(
      context.posts?.open.map((post) => post.id),
      [3],
    );
  });
});
