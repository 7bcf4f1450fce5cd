import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Gateway } from '../../src/accounts/gateway';
import { Log } from '../../src/log';
import { type StandIn } from '../server';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';
import { standInsForSuite } from './support';

/* The gateway with a real session (the editor faked, fakeVscode.ts) against the stand-in. */

describe('Gateway', () => {
  let server: StandIn;
  let secrets: Secrets;
  let session: Session;

  standInsForSuite(([started]) => (server = started!));

  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.accountUrl', server.url);
    secrets = new Secrets();
    secrets.data.set(`helpdesk.token:${server.url}`, server.token);
    session = new Session(secrets, new Log(), new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  });

  it('made after the session was restored (the rest of the extension loads on first use), it lists that account', async () => {
    await session.whenRestored();
    assert.equal(session.state, 'signedIn');
    const store = new HelpdeskStore(new Log());
    const gateway = new Gateway(session, new Log(), memoryState(), store);
    await store.posts.ensureStarted();
    const { items, error } = store.posts.state;
    assert.equal(error, undefined);
    assert.ok(items.length > 0, 'the first page of posts');
    gateway.dispose();
  });

  it('a 429 whose call fails at once says so, without a wait that never comes', async () => {
    await session.whenRestored();
    const store = new HelpdeskStore(new Log());
    const gateway = new Gateway(session, new Log(), memoryState(), store);
    server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': 'Fri, 31 Dec 2100 23:59:59 GMT' }, times: 1 });
    await store.posts.ensureStarted();
    assert.ok(store.posts.state.error, 'the posts did not load');
    const said = [...fake.logLines, ...fake.statusBar].filter((line) => /slow down/.test(line));
    assert.ok(said.length > 0, 'the 429 is noted');
    for (const line of said) assert.doesNotMatch(line, /waiting/);
    gateway.dispose();
  });

  it('made before the session was restored, it follows it', async () => {
    const store = new HelpdeskStore(new Log());
    const gateway = new Gateway(session, new Log(), memoryState(), store);
    await session.whenRestored();
    await store.posts.ensureStarted();
    assert.ok(store.posts.state.items.length > 0, 'the first page of posts');
    gateway.dispose();
  });
});
