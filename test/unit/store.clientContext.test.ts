import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client, Deal, ListRead } from '../../src/api';
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

  it('a part that fails says so; the other is still given', async () => {
    const account = {
      client: () => Promise.reject(new Error('gone')),
      dealsOf: async () => deals,
    };
    const context = await readClientContext(accountSources(account), 2, 7, new AbortController().signal);
    assert.equal((context.clientError as Error).message, 'gone');
    assert.equal(context.deals, deals);
  });
});
