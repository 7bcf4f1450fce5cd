import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Post } from '../../src/api';
import type { Session } from '../../src/accounts/session';
import { showAccountMenu } from '../../src/commands/accountMenu';
import { setWhoIAm, typedUserId, whoIAmItems } from '../../src/commands/setWhoIAm';
import type { Gateway } from '../../src/accounts/gateway';
import { Identity } from '../../src/accounts/identity';
import { usersSeen } from '../../src/accounts/usersSeen';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { fake, type ShownPick } from './fakeVscode';
import { INVISIBLE } from './hostile';
import { memoryState } from './memoryState';

const A = 'https://a.example.com';
const HOSTILE = '$(loading~spin) Ev\u202Eil\n[x](command:workbench.action.quit)';

/** The theme icons VS Code renders in a quick pick's text (`\$(…)` shows as text). */
function renderedIcons(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g)].filter((m) => !m[1]).map((m) => m[2]!);
}

function inspect(items: ShownPick['items']): string[][] {
  return items.map((item) => {
    for (const text of [item.label, item.description, item.detail]) {
      assert.ok(!INVISIBLE.test(text ?? '') && !/[\r\n]/.test(text ?? ''), JSON.stringify(text));
    }
    return [...renderedIcons(item.label), ...renderedIcons(item.description), ...renderedIcons(item.detail)];
  });
}

const posts: Post[] = [
  { id: 1, user_id: 7, nick: HOSTILE, responsible_id: 8 },
  { id: 2, user_id: 9, nick: 'ben', responsible_id: 7 },
];

describe('Set Who I Am…', () => {
  beforeEach(() => fake.reset());

  it('lists the users of the loaded posts with their nicks as text: only its own icons render', () => {
    const items = whoIAmItems(usersSeen(posts), undefined, '');
    assert.deepEqual(inspect(items), [['account'], ['account'], ['account']]);
    assert.deepEqual(
      items.map((item) => item.choice),
      [{ id: 7, nick: HOSTILE }, { id: 8 }, { id: 9, nick: 'ben' }],
    );
    assert.match(items[0]!.label, /\\\$\(loading~spin\)/);
  });

  it('offers the user id typed when no loaded post names it, and forgetting when "me" is known', () => {
    const me = { id: 9, nick: 'ben', source: 'learned' as const };
    const items = whoIAmItems(usersSeen(posts), me, ' 12 ');
    assert.deepEqual(items[0]!.choice, { id: 12 });
    assert.deepEqual(items.at(-1)!.choice, 'forget');
    assert.match(items.find((item) => typeof item.choice === 'object' && item.choice.id === 9)!.description ?? '', /you, now/);
    assert.equal(whoIAmItems(usersSeen(posts), undefined, '7').length, 3, 'a typed id that is listed is not offered twice');
    for (const typed of ['0', '-3', '1.5', '7x', '1234567890123456']) assert.equal(typedUserId(typed), undefined, typed);
  });

  it('a user id passed to the command is set without asking, with the nick the loaded posts give it', async () => {
    const identity = new Identity(memoryState());
    const log = new Log();
    const services = {
      session: { accountUrl: A } as Session,
      gateway: { current: { store: { posts: { state: { items: posts } } } } } as unknown as Gateway,
      log,
      ui: new Notifier(log),
    };
    await setWhoIAm(services, identity, 9);
    assert.deepEqual(identity.me(A), { id: 9, nick: 'ben', source: 'set' });
  });
});

describe('the account menu', () => {
  beforeEach(() => fake.reset());

  it('says who the person is, with the nick as text, and how to set it while not known', async () => {
    const identity = new Identity(memoryState());
    const session = { accountUrl: A, boundAccountUrl: undefined, signedInAccounts: async () => [A] };
    await showAccountMenu(session, identity);
    assert.match(fake.picks[0]!.items[0]!.label, /Set Who I Am/);
    await identity.noteFiled(A, { id: 5, user_id: 7, nick: HOSTILE });
    await showAccountMenu(session, identity);
    const first = fake.picks[1]!.items[0]!;
    assert.match(first.label, /^\$\(account\) You are user 7 · /);
    assert.match(first.description ?? '', /learned from a post you filed/);
    assert.deepEqual(inspect(fake.picks[1]!.items), [['account'], ['link-external'], ['sign-in'], ['sign-out']]);
  });

  it("with two accounts: both listed, this window's checked, who I am in each; Sign Out of Another Account…", async () => {
    const B = 'https://beta.example.com';
    const identity = new Identity(memoryState());
    await identity.noteFiled(B, { id: 5, user_id: 3, nick: 'bea' });
    await showAccountMenu({ accountUrl: A, boundAccountUrl: undefined, signedInAccounts: async () => [A, B] }, identity);
    const items = fake.picks[0]!.items;
    const listed = items.filter((item) => item.detail !== undefined).map((item) => [item.label, item.description]);
    assert.deepEqual(listed, [
      [`$(check) ${new URL(A).host}`, ''],
      [`$(blank) beta.example.com`, 'You are user 3 · bea'],
    ]);
    assert.ok(items.some((item) => /Sign Out of Another Account/.test(item.label)));
  });
});
