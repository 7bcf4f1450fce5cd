import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Account, AccountChange } from '../../src/api/account';
import type { Client, Deal } from '../../src/api';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { ClientsTreeProvider } from '../../src/views/clientsTree';
import { ClientNode, type HelpdeskNode } from '../../src/views/nodes';
import { EventEmitter } from './fakeVscode';
import { windowOn } from './fakeWindow';

/* The Clients view draws again only the client whose deals changed. */

describe('the Clients view', () => {
  it("a deal linked to a client draws that client's row again (and the one that listed it before), not the view", async () => {
    const clients: Client[] = [1, 2, 3].map((id) => ({ id, name: `Client ${id}` }));
    const deals = new Map<number, Deal[]>([
      [1, [{ id: 10, name: 'D', client_id: 1 }]],
      [2, []],
      [3, []],
    ]);
    const changes = new EventEmitter<AccountChange>();
    const dealReads: number[] = [];
    const account = {
      url: 'https://a.example',
      clientsPage: async (page: number) => ({ items: page === 1 ? clients : [], received: page === 1 ? clients.length : 0 }),
      postsPage: async () => ({ items: [], received: 0 }),
      dealsOf: async (id: number) => (dealReads.push(id), { items: [...(deals.get(id) ?? [])] }),
      statuses: async () => new Map(),
      noteStop: () => undefined,
      onDidChange: changes.event,
    } as unknown as Account;
    const store = new HelpdeskStore({ error: () => undefined });
    store.bind(account);
    const { window: windowAccount } = windowOn(account, store);
    const provider = new ClientsTreeProvider(store, windowAccount);
    const rows = (await provider.getChildren()).filter((n): n is ClientNode => n instanceof ClientNode);
    assert.equal(rows.length, 3);
    for (const row of rows) await provider.getChildren(row);
    const drawn: (HelpdeskNode | undefined)[] = [];
    provider.onDidChangeTreeData((node) => drawn.push(node ?? undefined));
    const moved = { id: 10, name: 'D', client_id: 3 };
    deals.set(1, []);
    deals.set(3, [moved]);
    changes.fire({ kind: 'deals', deal: moved });
    assert.deepEqual(
      drawn.map((node) => (node instanceof ClientNode ? node.client.id : 'the whole view')),
      [1, 3],
    );
    dealReads.length = 0;
    assert.deepEqual(
      (await provider.getChildren(rows[2])).map((n) => n.label),
      ['D'],
    );
    await provider.getChildren(rows[1]);
    assert.deepEqual(dealReads, [3], "only the changed client's deals are read again");
  });
});
