import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Session } from '../../src/accounts/session';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Gateway } from '../../src/accounts/gateway';
import { Log } from '../../src/log';
import { type StandIn } from '../server';
import { Secrets } from './fakeSession';
import { fake, workspace } from './fakeVscode';
import { memoryState } from './memoryState';
import { standInsForSuite } from './support';
import { restoredSession } from './fakeSession';

/* The gateway follows the session while it moves from one account to another (review of the plain account). */

/** A secret storage whose writes wait until let go: an OS keyring that asks to be unlocked. */
class SlowSecrets extends Secrets {
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  override async store(key: string, value: string): Promise<void> {
    await this.gate;
    return super.store(key, value);
  }
  override async delete(key: string): Promise<void> {
    await this.gate;
    return super.delete(key);
  }
}

const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('Gateway while the session moves to another account', () => {
  let a: StandIn;
  let b: StandIn;
  let secrets: SlowSecrets;
  let session: Session;
  let gateway: Gateway;
  let store: HelpdeskStore;
  const getConfiguration = workspace.getConfiguration.bind(workspace);
  const original = Object.getOwnPropertyDescriptor(workspace, 'getConfiguration')!;

  standInsForSuite(([x, y]) => ([a, b] = [x!, y!]), { seed: 'demo' }, { seed: 'demo' });

  beforeEach(async () => {
    fake.reset();
    fake.config.set('helpdesk.accountUrl', a.url);
    secrets = new SlowSecrets();
    secrets.data.set(`helpdesk.token:${a.url}`, a.token);
    session = await restoredSession(secrets);
    store = new HelpdeskStore(new Log());
    gateway = new Gateway(session, new Log(), memoryState(), store);
    await store.posts.ensureStarted();
  });
  afterEach(() => {
    Object.defineProperty(workspace, 'getConfiguration', original);
    secrets.release();
    gateway.dispose();
  });

  it('a draft sent for the new account while its token is being stored goes through the account the views show, and shows there', async () => {
    secrets.hold();
    const saving = gateway.signIn(b.url, b.token);
    await ticks();
    assert.equal(session.credentials?.accountUrl, b.url, 'the session is on B, its token not stored yet');
    // What the draft sender does (sendDraft.ts: gateway.accountFor(draft.accountUrl)).
    const forDraft = await gateway.accountFor(b.url);
    secrets.release();
    await saving;
    assert.ok(forDraft, 'B is signed in to');
    await store.posts.ensureStarted();
    const task = await forDraft.createTask({ title: 'Sent while signing in', task_kind: 'task' });
    await new Promise((resolve) => setImmediate(resolve)); // views follow a post filed in the next turn (see Account.filed)
    assert.ok(
      store.posts.state.items.some((post) => post.id === task.id),
      "the task filed for this window's account shows in its view",
    );
    assert.equal(forDraft, gateway.current?.account, "the draft went through this window's account");
  });

  it('a sign-in whose settings could not be written (settings.json with an error) leaves the session on B: the gateway is on B too', async () => {
    workspace.getConfiguration = (section?: string) => {
      const config = getConfiguration(section);
      return { ...config, update: () => Promise.reject(new Error('Unable to write into user settings.')) };
    };
    await assert.rejects(gateway.signIn(b.url, b.token), /Unable to write/);
    Object.defineProperty(workspace, 'getConfiguration', original);
    await ticks();
    assert.equal(session.credentials?.accountUrl, b.url, 'the session holds B (its token is stored)');
    assert.equal(gateway.current?.url, b.url, "the account commands use is the session's");
    // Whatever the views read next is B's (they go by the gateway's window account, which says B, usable).
    await store.posts.refresh();
    a.reset();
    await store.posts.refresh();
    assert.equal(a.requests.length, 0, "nothing more is asked of A with A's token");
  });

  it('signing out (the keyring slow to delete): once the account is asked for and is none, the store asks nothing more with its token', async () => {
    secrets.hold();
    const signingOut = session.signOut();
    await ticks();
    assert.equal(gateway.current?.account, undefined, 'signed out');
    a.reset();
    // What is not guarded by a sign-in check: Load More (extension.ts), a deal row's retry.
    await store.posts.refresh().catch(() => undefined);
    await store.dealsOf(1).catch(() => undefined);
    secrets.release();
    await signingOut;
    assert.deepEqual(
      a.requests.map((r) => r.path),
      [],
      'no request with the token signed out of',
    );
  });
});
