import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Session } from '../../src/accounts/session';
import { readSettings } from '../../src/settings';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { Log } from '../../src/log';
import { fake } from './fakeVscode';
import { Secrets, Signal } from './fakeSession';
import { memoryState, MemoryAccountList } from './memoryState';

/* Session with the editor's secret storage, settings and sign-out signal faked (fakeVscode.ts). */

const A = 'https://acme.example.com';
const B = 'https://other.example.com';
const TOKEN = 'a1b2c3d4e5f6a7b8c9d0/SECRET+part';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const published = () => fake.executed.filter((c) => c.command === 'setContext' && c.args[0] === 'helpdesk.state').map((c) => c.args[1]);

describe('Session', () => {
  let secrets: Secrets;
  let signal: Signal;
  let session: Session;

  beforeEach(() => {
    fake.reset();
    secrets = new Secrets();
    signal = new Signal();
    session = new Session(secrets, new Log(), signal as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  });

  it('the account list failing to be written (a pipe or a link in its place) neither undoes a sign-in nor stops a sign-out: it is logged', async () => {
    const list = new MemoryAccountList();
    const refused = () => Promise.reject(new Error('accounts.json is not a file the extension can use now'));
    list.add = refused;
    list.remove = refused;
    const here = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    try {
      await here.save(A, TOKEN);
      assert.equal(here.state, 'signedIn');
      assert.deepEqual(here.credentials, { accountUrl: A, token: TOKEN });
      const signedOut: string[] = [];
      here.onDidSignOut((accountUrl) => signedOut.push(accountUrl));
      await here.signOut();
      assert.equal(here.state, 'signedOut');
      assert.deepEqual(signedOut, [A]);
      assert.deepEqual(signal.announced, [A], 'the other windows are told');
      assert.equal(secrets.data.has(`helpdesk.token:${A}`), false);
      assert.match(fake.logLines.join('\n'), /account list/i);
    } finally {
      here.dispose();
    }
  });

  it('restores the token stored for the address in the settings', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    await session.whenRestored();
    assert.equal(session.state, 'signedIn');
    assert.deepEqual(session.credentials, { accountUrl: A, token: TOKEN });
    assert.equal(published().at(-1), 'signedIn');
  });

  it('without a token, or with an address it cannot use, it is signed out (and says why in the log)', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    await session.whenRestored();
    assert.equal(session.state, 'signedOut');
    fake.config.set('helpdesk.accountUrl', 'http://acme.example.com');
    secrets.data.set('helpdesk.token:http://acme.example.com', TOKEN);
    await session.restore();
    assert.equal(session.state, 'signedOut');
    assert.match(fake.logLines.join('\n'), /address in the settings is not usable/);
  });

  it('a workspace binding that is not text (against its schema) binds to nothing usable: signed out, on no other account', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    await session.whenRestored();
    assert.equal(session.state, 'signedIn');
    for (const written of [{ url: A }, [A]]) {
      fake.config.set('helpdesk.workspaceAccount', written);
      await session.restore();
      assert.equal(session.state, 'signedOut', JSON.stringify(written));
      assert.equal(session.boundAccountUrl, undefined);
    }
    fake.config.delete('helpdesk.workspaceAccount');
    await session.restore();
    assert.equal(session.state, 'signedIn', 'unbound: the account chosen');
  });

  it('an account address setting that is not text is unusable: signed out, and nothing throws', async () => {
    fake.config.set('helpdesk.accountUrl', [A]);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    // Every view and provider reads the settings: they must not throw on it.
    assert.equal(readSettings().accountUrl, '');
    await session.whenRestored();
    assert.equal(session.state, 'signedOut');
  });

  it('a restore begun before a sign-in does not undo it when its read of the secrets answers late', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    await session.whenRestored();
    await session.save(A, TOKEN);
    // Each read of the secret storage answers with what was stored when asked, a moment later (a round trip to the window).
    const held: (() => void)[] = [];
    secrets.get = (key: string) => {
      const value = secrets.data.get(key);
      return new Promise<string | undefined>((resolve) => held.push(() => resolve(value)));
    };
    // The sign-out's delete fires onDidChange: a restore begins and asks for the token, which is gone.
    await session.signOut();
    assert.equal(held.length, 1, 'the restore is waiting on its read');
    await session.save(A, TOKEN);
    const states: string[] = [];
    session.onDidChange(() => states.push(session.state));
    // The stale answer first; then any read begun since, until none is left.
    while (held.length) {
      held.shift()!();
      await settle();
    }
    assert.deepEqual(session.credentials, { accountUrl: A, token: TOKEN });
    assert.deepEqual(
      states.filter((state) => state !== 'signedIn'),
      [],
      'never signed out again, not even for a moment',
    );
  });

  it('follows what the calls met, only while signed in', async () => {
    session.noteReachability('rejected');
    assert.equal(session.state, 'signedOut', 'signed out stays so');
    await session.save(A, TOKEN);
    session.noteReachability('unreachable');
    assert.equal(session.state, 'unreachable');
    session.noteReachability('signedIn');
    assert.equal(session.state, 'signedIn');
  });

  it('save() switches accounts without the old address bringing back the old token', async () => {
    await session.save(A, TOKEN);
    const seen: (string | undefined)[] = [];
    session.onDidChange(() => seen.push(session.credentials?.accountUrl));
    await session.save(B, 'another-token-0123456789');
    await settle();
    assert.ok(!seen.includes(A), `never back to the old account on the way: ${seen.join(', ')}`);
    assert.deepEqual(session.credentials, { accountUrl: B, token: 'another-token-0123456789' });
    assert.equal(fake.config.get('helpdesk.accountUrl'), B, 'the address is a setting');
    assert.ok(![...fake.config.values()].includes(TOKEN), 'the token is not');
  });

  it('an unbound window keeps the account last chosen in it: a switch or a sign-in in another window moves new windows, not this one', async () => {
    const list = new MemoryAccountList();
    const here = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    const there = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    await here.save(A, TOKEN);
    await there.restore();
    assert.equal(there.accountUrl, A, 'a window that chose nothing starts with the account chosen last anywhere');
    await there.save(B, 'another-token-0123456789');
    await here.restore();
    await settle();
    assert.equal(here.accountUrl, A, 'this window stays on the account it chose');
    assert.equal(there.accountUrl, B);
    assert.ok(await there.switchTo(A));
    assert.ok(await here.switchTo(B));
    await there.restore();
    assert.equal(there.accountUrl, A, 'each window on its own choice');
    assert.equal(here.accountUrl, B);
    const fresh = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    await fresh.whenRestored();
    assert.equal(fresh.accountUrl, B, 'a new window starts with the last choice made anywhere');
    for (const s of [here, there, fresh]) s.dispose();
  });

  it('a window that started on the account chosen last elsewhere keeps it when another window signs in to another', async () => {
    const list = new MemoryAccountList();
    const first = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    await first.save(A, TOKEN);
    const started = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    await started.whenRestored();
    assert.equal(started.accountUrl, A);
    await first.save(B, 'another-token-0123456789');
    await started.restore();
    assert.equal(started.accountUrl, A, 'the window works on the account it started with until it is switched');
    const signedOutEverywhere = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    fake.config.set('helpdesk.accountUrl', 'https://none.example.com');
    await signedOutEverywhere.whenRestored();
    fake.config.set('helpdesk.accountUrl', B);
    await signedOutEverywhere.restore();
    assert.equal(signedOutEverywhere.accountUrl, B, 'a window signed out follows a sign-in made elsewhere');
    for (const s of [first, started, signedOutEverywhere]) s.dispose();
  });

  it('a window whose account is signed out of stays signed out: it does not move to another account by itself', async () => {
    const here = new Session(secrets, new Log(), signal as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
    await here.save(B, 'another-token-0123456789');
    await here.save(A, TOKEN);
    await here.signOut();
    // The account new windows start with is one still signed in to: this window stays out all the same.
    fake.config.set('helpdesk.accountUrl', B);
    await here.restore();
    assert.equal(here.state, 'signedOut');
    here.dispose();
  });

  it('a folder last used with an account signed out of since starts, when opened again, with the one chosen last anywhere', async () => {
    const folder = memoryState();
    const before = new Session(secrets, new Log(), signal as unknown as SignOutSignal, new MemoryAccountList(), folder);
    await before.save(A, TOKEN);
    before.dispose();
    secrets.data.delete(`helpdesk.token:${A}`); // signed out of in another window, this folder closed
    secrets.data.set(`helpdesk.token:${B}`, 'another-token-0123456789');
    fake.config.set('helpdesk.accountUrl', B);
    const reopened = new Session(secrets, new Log(), signal as unknown as SignOutSignal, new MemoryAccountList(), folder);
    await reopened.whenRestored();
    assert.equal(reopened.accountUrl, B);
    reopened.dispose();
  });

  it('a sign-out heard while the window records its account is not undone by that restore', async () => {
    const state = memoryState();
    let release = () => {};
    // VS Code's Memento holds the value at once and resolves once it is stored: slowly, here.
    const slow = {
      ...state,
      update: (key: string, value: unknown) => (void state.update(key, value), new Promise<void>((resolve) => (release = resolve))),
    };
    fake.config.set('helpdesk.accountUrl', A);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    const here = new Session(secrets, new Log(), signal as unknown as SignOutSignal, new MemoryAccountList(), slow);
    const first = here.restore();
    await settle();
    secrets.data.delete(`helpdesk.token:${A}`); // signed out in another window
    await here.restore();
    release();
    await first;
    assert.equal(here.state, 'signedOut');
    assert.equal(here.credentials, undefined, 'no token signed out of is kept');
    here.dispose();
  });

  it('the accounts signed in to are read from the secret storage once, and again only after a change', async () => {
    const list = new MemoryAccountList();
    const here = new Session(secrets, new Log(), signal as unknown as SignOutSignal, list, memoryState());
    await here.save(A, TOKEN);
    await here.save(B, 'another-token-0123456789');
    let reads = 0;
    const get = secrets.get;
    secrets.get = (key: string) => (reads++, get(key));
    assert.deepEqual(await here.signedInAccounts(), [A, B]);
    const first = reads;
    await Promise.all([here.signedInAccounts(), here.signedInAccounts()]);
    assert.equal(reads, first, 'no secret read again while nothing changed');
    await here.signOut(A);
    assert.deepEqual(await here.signedInAccounts(), [B], 'a sign-out is seen at once');
    secrets.data.delete(`helpdesk.token:${B}`);
    await secrets.delete(`helpdesk.token:${B}`); // another window's sign-out, heard through the storage
    assert.deepEqual(await here.signedInAccounts(), []);
    list.addresses.push(A);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    list.changed.fire(); // another window's sign-in, heard through the list
    assert.deepEqual(await here.signedInAccounts(), [A]);
    here.dispose();
  });

  it('sign out deletes the token, tells the other windows, and never logs the token', async () => {
    await session.save(A, TOKEN);
    await session.signOut();
    assert.equal(session.state, 'signedOut');
    assert.equal(secrets.data.size, 0);
    assert.deepEqual(signal.announced, [A]);
    const log = fake.logLines.join('\n');
    assert.match(log, /Signed in to https:\/\/acme\.example\.com[\s\S]*Signed out/);
    for (const part of TOKEN.split(/[/+]/)) assert.ok(!log.includes(part), `no part of the token in the log: ${part}`);
  });

  it("signed out in another window: this window's copy of that token goes; a token stored since stays", async () => {
    await session.save(A, TOKEN);
    signal.heard.fire(A);
    await settle();
    assert.equal(session.state, 'signedOut');
    assert.equal(secrets.data.has(`helpdesk.token:${A}`), false);

    await session.save(A, TOKEN);
    // This window signed in again before the news of an older sign-out came.
    secrets.data.set(`helpdesk.token:${A}`, 'a-newer-token-0123456789');
    signal.heard.fire(A);
    await settle();
    assert.equal(secrets.data.get(`helpdesk.token:${A}`), 'a-newer-token-0123456789');
  });

  it('a sign-out elsewhere of another account changes nothing here', async () => {
    await session.save(A, TOKEN);
    signal.heard.fire(B);
    await settle();
    assert.equal(session.state, 'signedIn');
    assert.equal(secrets.data.get(`helpdesk.token:${A}`), TOKEN);
  });

  it('tells of every sign-out, of any account, here or in another window, once this window has followed it', async () => {
    const told: string[] = [];
    session.onDidSignOut((accountUrl) => told.push(`${accountUrl} ${session.state}`));
    await session.save(B, TOKEN);
    await session.save(A, TOKEN);
    await session.signOut(B);
    assert.deepEqual(told, [`${B} signedIn`], "another account than this window's");
    signal.heard.fire(B);
    await settle();
    signal.heard.fire(A);
    await settle();
    assert.deepEqual(
      told,
      [`${B} signedIn`, `${B} signedIn`, `${A} signedOut`],
      "heard from another window: this window's account is signed out first",
    );
    await session.save(A, TOKEN);
    await session.signOut();
    assert.equal(told.at(-1), `${A} signedOut`);
  });
});
