import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { accountNowOf } from '../../src/auth/accountNow';
import { Session } from '../../src/auth/session';
import type { SignOutSignal } from '../../src/auth/signOutSignal';
import { Log } from '../../src/log';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';

/* The window's account as views, prompts and hovers see it, from a Session on faked storage. */

const A = 'https://acme.example.com';
const TOKEN = 'a1b2c3d4e5f6a7b8c9d0/SECRET+part';

describe('AccountNow', () => {
  let secrets: Secrets;
  let session: Session;

  beforeEach(() => {
    fake.reset();
    secrets = new Secrets();
    session = new Session(secrets, new Log(), new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  });

  it('answers once the session is restored: the account stored, usable', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    const accountNow = accountNowOf(session);
    assert.equal(accountNow.current, undefined, 'nothing known before the restore');
    assert.deepEqual(await accountNow.now(), { url: A, usable: true });
    assert.deepEqual(accountNow.current, { url: A, usable: true });
  });

  it('none while signed out; not usable while the token is rejected; still usable while unreachable; and says when it changes', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    const accountNow = accountNowOf(session);
    let changes = 0;
    accountNow.onDidChange(() => changes++);
    const changed = () => {
      const fired = changes > 0;
      changes = 0;
      return fired;
    };
    assert.equal(await accountNow.now(), undefined);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    await session.restore();
    assert.ok(changed(), 'signed in');
    assert.deepEqual(await accountNow.now(), { url: A, usable: true });
    session.noteReachability('unreachable');
    assert.ok(changed(), 'unreachable');
    assert.deepEqual(await accountNow.now(), { url: A, usable: true });
    session.noteReachability('rejected');
    assert.ok(changed(), 'rejected');
    assert.deepEqual(await accountNow.now(), { url: A, usable: false });
    await session.signOut();
    assert.ok(changed(), 'signed out');
    assert.equal(await accountNow.now(), undefined);
    assert.deepEqual(await accountNow.signedInAccounts(), []);
  });
});
