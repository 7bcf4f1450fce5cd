import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { Gateway } from '../../src/accounts/gateway';
import type { SignedIn } from '../../src/accounts/signedIn';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Log } from '../../src/log';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';

/* The window's account as views, commands, tools and the watcher see it (the gateway), from a Session on faked storage. */

/** What a view goes by: which account, and whether its rows show. */
const seen = (signedIn: SignedIn | undefined) => signedIn && { url: signedIn.url, usable: signedIn.usable };

const A = 'https://acme.example.com';
const TOKEN = 'a1b2c3d4e5f6a7b8c9d0/SECRET+part';

describe("the window's account", () => {
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
    const windowAccount = new Gateway(session, new Log(), memoryState(), new HelpdeskStore(new Log()));
    const current = () => windowAccount.current;
    assert.equal(current(), undefined, 'nothing known before the restore');
    const ready = await windowAccount.ready();
    assert.ok(ready !== undefined && ready === current(), 'one object while the account stays');
    assert.ok(ready.store instanceof HelpdeskStore);
    assert.deepEqual(seen(await windowAccount.ready()), { url: A, usable: true });
    assert.deepEqual(seen(windowAccount.current), { url: A, usable: true });
  });

  it('none while signed out; not usable while the token is rejected; still usable while unreachable; and says when it changes', async () => {
    fake.config.set('helpdesk.accountUrl', A);
    const windowAccount = new Gateway(session, new Log(), memoryState(), new HelpdeskStore(new Log()));
    let changes = 0;
    windowAccount.onDidChange(() => changes++);
    const changed = () => {
      const fired = changes > 0;
      changes = 0;
      return fired;
    };
    assert.equal(seen(await windowAccount.ready()), undefined);
    secrets.data.set(`helpdesk.token:${A}`, TOKEN);
    await session.restore();
    assert.ok(changed(), 'signed in');
    assert.deepEqual(seen(await windowAccount.ready()), { url: A, usable: true });
    session.noteReachability('unreachable');
    assert.ok(changed(), 'unreachable');
    assert.deepEqual(seen(await windowAccount.ready()), { url: A, usable: true });
    session.noteReachability('rejected');
    assert.ok(changed(), 'rejected');
    assert.deepEqual(seen(await windowAccount.ready()), { url: A, usable: false });
    await session.signOut();
    assert.ok(changed(), 'signed out');
    assert.equal(seen(await windowAccount.ready()), undefined);
    assert.deepEqual(await windowAccount.signedInAccounts(), []);
  });
});
