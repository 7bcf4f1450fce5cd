import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Client, Deal, Post } from '../../src/api';
import type { Account } from '../../src/api/account';
import type { SignedIn } from '../../src/accounts/signedIn';
import { linkDeal } from '../../src/commands/linkDeal';
import { pickClient, pickPost } from '../../src/commands/prompts';
import type { Services } from '../../src/services';
import type { HelpdeskStore } from '../../src/store/helpdeskStore';
import { ClientNode } from '../../src/views/nodes';
import { fake, QuickPickItemKind, type ShownPick } from './fakeVscode';
import { INVISIBLE } from './hostile';

/* Server text in the quick picks, as the commands build them (the editor faked: fakeVscode.ts). */

/** The theme icons VS Code renders in a quick pick's label, description or detail (iconLabels.ts): `\$(…)` is shown as text. */
function renderedIcons(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g)].filter((m) => !m[1]).map((m) => m[2]!);
}

/** Every rendered icon of a pick's items, and fails when any text holds a line break or an invisible or bidi character. */
function inspect(pick: ShownPick | undefined): string[][] {
  assert.ok(pick, 'a quick pick was shown');
  return pick.items.map((item) => {
    for (const text of [item.label, item.description, item.detail]) {
      assert.ok(!INVISIBLE.test(text ?? '') && !/[\r\n]/.test(text ?? ''), JSON.stringify(text));
    }
    return [...renderedIcons(item.label), ...renderedIcons(item.description), ...renderedIcons(item.detail)];
  });
}

/** A list loaded whole: its one page read. */
const loadedList = (items: { id: number }[]) => ({
  ensureStarted: async () => undefined,
  loadMore: async () => undefined,
  onDidChange: () => ({ dispose: () => undefined }),
  find: (id: number) => items.find((item) => item.id === id),
  state: { items, hasMore: false, started: true, loading: false, error: undefined, generation: 1 },
});

const gateway = (posts: Partial<Post>[], clients: Partial<Client>[]) => ({
  current: {
    url: 'https://acme.example.com',
    usable: true,
    account: { url: 'https://acme.example.com' } as Account,
    store: { posts: loadedList(posts as Post[]), clients: loadedList(clients as Client[]) } as unknown as HelpdeskStore,
  },
});

/** The items of the pick `picking` shows once the loaded rows were searched; the pick is then hidden. */
async function shown(picking: Promise<unknown>): Promise<ShownPick> {
  const pick = fake.quickPicks.at(-1);
  assert.ok(pick, 'a quick pick was shown');
  for (let i = 0; i < 100 && pick.busy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 5));
  const items = [...pick.items];
  pick.hide();
  await picking;
  return { items, options: { title: pick.title } };
}

describe('quick picks show server text as text', () => {
  beforeEach(() => fake.reset());

  it("a post titled $(loading~spin) shows no spinner: only the post's own kind icon renders", async () => {
    const picking = pickPost(
      gateway(
        [
          { id: 1, title: '$(loading~spin)', task_kind: 'task' },
          { id: 2, title: 'Pay \u202Eevil\u202C\nnow $(check)', kind: 'error' },
        ],
        [],
      ),
      'Pick',
    );
    assert.deepEqual(inspect(await shown(picking)), [['tasklist'], ['bug']]);
  });

  it('a client named $(check) with a bidi override in its city shows neither', async () => {
    const picking = pickClient(
      gateway([], [{ id: 1, name: '$(check) Acme', city: 'Ber\u202Elin\n$(zap)', email: 'a@b.c' }]),
      'Pick',
      'No client',
    );
    assert.deepEqual(inspect(await shown(picking)), [['circle-slash'], []]);
  });

  it('Link Deal: a free deal named $(check) … does not look linked; a raw price with an RTL override and a newline is shown clean', async () => {
    const client = { id: 7, name: 'Acme' } as Client;
    const deals: Partial<Deal>[] = [
      { id: 1, name: 'Own deal', client_id: 7, price: 100 },
      { id: 2, name: '$(check) Free deal', client_id: null, price: '12\u202E00\n5' },
    ];
    const account = { url: 'https://acme.example.com', deals: async () => deals };
    const signedIn = { url: account.url, usable: true, account } as unknown as SignedIn;
    const services = { gateway: { current: signedIn, ready: async () => signedIn } } as unknown as Services;
    assert.equal(await linkDeal(services, signedIn, new ClientNode(client)), undefined, 'dismissed');
    const pick = fake.picks[0];
    const items = pick?.items.filter((item) => item.kind !== QuickPickItemKind.Separator) ?? [];
    assert.deepEqual(inspect({ items, options: undefined }), [['add'], ['check'], []], 'only the own deal is checked');
    assert.equal(items[2]?.description, '#2 · 12 00 5');
  });
});
