import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HelpdeskClient, isApiError } from '../../src/api';
import { Account, PostUpdatesRefusedError, type AccountChange } from '../../src/api/account';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { memoryState } from './memoryState';
import { PROFILES, startStandIn, type StandIn } from '../server';
import type { PostUpdates } from '../server/profile';

/* Account.updatePost on a stand-in that accepts updating posts, and on ones that refuse it in
 * each way: the answer is told as `updated`; a refusal is remembered per account (in the global
 * state) and told, and forgotten by a refresh or an update that goes through. */

const servers = new Map<PostUpdates, StandIn>();
before(async () => {
  for (const how of ['accepted', 'notFound', 'methodNotAllowed', 'refused422', 'errorBody200'] as const) {
    servers.set(how, await startStandIn({ seed: 'demo', profile: { ...PROFILES.likely, postUpdates: how } }));
  }
});
after(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

function accountOn(server: StandIn, state = memoryState()) {
  const changes: AccountChange[] = [];
  const noted: string[] = [];
  const api = new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
  const account = new Account(server.url, {
    api: () => api,
    signal: new AbortController().signal,
    knowledge: new ListKnowledge(state, server.url),
    log: (m) => void noted.push(m),
  });
  account.onDidChange((change) => void changes.push(change));
  return { account, changes, noted, state };
}

const openPost = (server: StandIn) =>
  server.store.list(server.prefix, 'posts').find((post) => post.post_id === null && post.closed === false)!;

describe('Account.updatePost', () => {
  it('accepted: the answered record is told as updated, and nothing is remembered as refused', async () => {
    const server = servers.get('accepted')!;
    const { account, changes } = accountOn(server);
    const post = openPost(server);
    const updated = await account.updatePost(post.id, { closed: true });
    assert.equal(updated.closed, true);
    assert.deepEqual(changes, [{ kind: 'updated', post: updated }]);
    assert.equal(account.postUpdatesRefused, false);
  });

  for (const how of ['notFound', 'methodNotAllowed', 'refused422', 'errorBody200'] as const) {
    it(`refused (${how}): a PostUpdatesRefusedError, remembered for the account across windows' restarts, told once, nothing changed`, async () => {
      const server = servers.get(how)!;
      const { account, changes, noted, state } = accountOn(server);
      const post = openPost(server);
      const error = await account.updatePost(post.id, { closed: true }).then(
        () => assert.fail('expected a refusal'),
        (failed: unknown) => failed,
      );
      assert.ok(error instanceof PostUpdatesRefusedError, String(error));
      assert.equal(error.postId, post.id);
      assert.equal(account.postUpdatesRefused, true);
      assert.ok(changes.some((change) => change.kind === 'postUpdates' && change.refused));
      assert.ok(!changes.some((change) => change.kind === 'updated' || change.kind === 'gone'));
      assert.equal(server.store.get(server.prefix, 'posts', post.id)!.closed, false);
      assert.equal(noted.length, 1);
      // Another window (another Account on the same global state) knows it too.
      assert.equal(accountOn(server, state).account.postUpdatesRefused, true);
      await account.forgetPostUpdatesRefused();
      assert.equal(account.postUpdatesRefused, false);
      assert.deepEqual(changes.at(-1), { kind: 'postUpdates', refused: false });
    });
  }

  it('a 404 for a post that is gone is not a refusal: told as gone, nothing remembered', async () => {
    const server = servers.get('accepted')!;
    const { account, changes } = accountOn(server);
    const error = await account.updatePost(999_999, { closed: true }).catch((failed: unknown) => failed);
    assert.ok(isApiError(error, 'notFound'), String(error));
    assert.equal(account.postUpdatesRefused, false);
    assert.deepEqual(changes, [{ kind: 'gone', id: 999_999 }]);
  });

  it('a 422 that names a field sent refuses the value, not updates: nothing remembered', async () => {
    const server = servers.get('accepted')!;
    const { account } = accountOn(server);
    const error = await account.updatePost(openPost(server).id, { status_id: 5 }).catch((failed: unknown) => failed);
    assert.ok(isApiError(error, 'validation'), String(error));
    assert.equal(account.postUpdatesRefused, false);
  });

  it('a failure that says nothing of updates (500, network) is not remembered', async () => {
    const server = servers.get('accepted')!;
    const { account } = accountOn(server);
    const post = openPost(server);
    server.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, status: 500, times: 1 });
    assert.ok(isApiError(await account.updatePost(post.id, { closed: true }).catch((failed: unknown) => failed), 'server'));
    server.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, drop: true, times: 1 });
    assert.ok(isApiError(await account.updatePost(post.id, { closed: true }).catch((failed: unknown) => failed), 'network'));
    assert.equal(account.postUpdatesRefused, false);
  });

  it('an update that goes through after a refusal was remembered forgets it', async () => {
    const server = servers.get('accepted')!;
    const { account, changes } = accountOn(server);
    const post = openPost(server);
    server.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, status: 405, times: 1 });
    await assert.rejects(account.updatePost(post.id, { closed: true }), PostUpdatesRefusedError);
    assert.equal(account.postUpdatesRefused, true);
    await account.updatePost(post.id, { closed: true });
    assert.equal(account.postUpdatesRefused, false);
    assert.deepEqual(
      changes.slice(-2).map((change) => change.kind),
      ['postUpdates', 'updated'],
    );
  });

  it('a 403 on the update is the refused-update case (remembered like a 405), not a sign-in failure; a 401 is not remembered', async () => {
    const server = servers.get('accepted')!;
    const { account } = accountOn(server);
    const post = openPost(server);
    server.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, status: 401, times: 1 });
    assert.ok(isApiError(await account.updatePost(post.id, { closed: true }).catch((failed: unknown) => failed), 'auth'));
    assert.equal(account.postUpdatesRefused, false);
    server.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, status: 403, times: 1 });
    await assert.rejects(account.updatePost(post.id, { closed: true }), PostUpdatesRefusedError);
    assert.equal(account.postUpdatesRefused, true);
  });

  it('what is kept is read back checked: a stored status of the wrong shape is no refusal', async () => {
    const server = servers.get('accepted')!;
    for (const value of ['405', 1e308, -1, null, { status: 405 }, 99.5]) {
      const state = memoryState();
      await state.update(`helpdesk.listKnowledge:${server.url}`, { filed: [], updatesRefused: value });
      assert.equal(accountOn(server, state).account.postUpdatesRefused, false, JSON.stringify(value));
    }
  });
});
