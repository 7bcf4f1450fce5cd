import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError, HelpdeskClient } from '../../src/api';
import { PROFILES, startStandIn, type StandIn } from '../server';
import type { PostUpdates } from '../server/profile';
import { assertNoToken, failure } from './support';

/* Updating a post (`PUT /app/posts/<id>.json`), which the spec does not show: the client sends
 * the token in the body and only the fields given, and reads the whole record answered; the
 * stand-in accepts it or refuses it as its profile says. */

const servers = new Map<PostUpdates, StandIn>();
const ALL: PostUpdates[] = ['accepted', 'notFound', 'methodNotAllowed', 'refused422', 'errorBody200'];

before(async () => {
  for (const how of ALL) servers.set(how, await startStandIn({ profile: { ...PROFILES.likely, postUpdates: how } }));
});
after(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

function clientOf(server: StandIn): HelpdeskClient {
  return new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
}

async function aPost(server: StandIn): Promise<number> {
  const post = await clientOf(server).posts.createTask({
    title: 'Printer on fire',
    content: 'Again.',
    task_kind: 'task',
    responsible_id: 1,
  });
  server.reset();
  return post.id;
}

describe('updating a post', () => {
  it('sends PUT /app/posts/<id>.json with the token in the body and only the given fields; answers the whole record', async () => {
    const server = servers.get('accepted')!;
    const id = await aPost(server);
    const updated = await clientOf(server).posts.update(id, { closed: true, status_id: undefined, responsible_id: 7 });
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request!.method, 'PUT');
    assert.equal(request!.path, `/app/posts/${id}.json`);
    assert.deepEqual(request!.query, {}, 'nothing in the URL, the token least of all');
    assert.deepEqual(request!.body, { api_token: server.token, post: { closed: true, responsible_id: 7 } });
    assert.equal(updated.id, id);
    assert.equal(updated.closed, true);
    assert.equal(updated.responsible_id, 7);
    assert.equal(updated.title, 'Printer on fire', 'the whole record, not only what changed');
    assert.equal(server.store.get(server.prefix, 'posts', id)!.closed, true);
  });

  it('reopens, sets a status, unassigns (null is sent as null)', async () => {
    const server = servers.get('accepted')!;
    const api = clientOf(server);
    const id = await aPost(server);
    await api.posts.update(id, { closed: true });
    const reopened = await api.posts.update(id, { closed: false, status_id: 2, responsible_id: null });
    assert.deepEqual((server.requests.at(-1)!.body as { post: unknown }).post, { closed: false, status_id: 2, responsible_id: null });
    assert.deepEqual([reopened.closed, reopened.status_id, reopened.responsible_id], [false, 2, null]);
  });

  it('refuses to send an update with nothing in it, or for a bad id, without a request', async () => {
    const server = servers.get('accepted')!;
    const api = clientOf(server);
    server.reset();
    await assert.rejects(api.posts.update(5, {}), RangeError);
    await assert.rejects(api.posts.update(5, { closed: undefined }), RangeError);
    await assert.rejects(api.posts.update(0, { closed: true }), RangeError);
    await assert.rejects(api.posts.update(1.5, { closed: true }), RangeError);
    assert.equal(server.requests.length, 0);
  });

  it('a status that is no post status is a validation error with the field named', async () => {
    const server = servers.get('accepted')!;
    const id = await aPost(server);
    const error = await failure(clientOf(server).posts.update(id, { status_id: 5 }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'validation');
    assert.deepEqual(error.fieldErrors, { status_id: ['must exist'] });
  });

  it('an answer that is another post is not taken for this one', async () => {
    const server = servers.get('accepted')!;
    const id = await aPost(server);
    server.addFault({
      method: 'PUT',
      path: `/app/posts/${id}.json`,
      status: 200,
      body: { id: id + 1, title: 'Someone else', closed: true },
      times: 1,
    });
    const error = await failure(clientOf(server).posts.update(id, { closed: true }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'badResponse');
    assert.equal(error.reason, 'unexpected');
  });

  const refusals: Array<[PostUpdates, string, number]> = [
    ['notFound', 'notFound', 404],
    ['methodNotAllowed', 'validation', 405],
    ['refused422', 'validation', 422],
    ['errorBody200', 'server', 200],
  ];
  for (const [how, kind, status] of refusals) {
    it(`refused (${how}): an ApiError of kind ${kind}, status ${status}, the post unchanged, the token nowhere`, async () => {
      const server = servers.get(how)!;
      const id = await aPost(server);
      const error = await failure(clientOf(server).posts.update(id, { closed: true }));
      assert.ok(error instanceof ApiError);
      assert.equal(error.kind, kind);
      assert.equal(error.status, status);
      assertNoToken(error, server.token);
      assert.equal(server.store.get(server.prefix, 'posts', id)!.closed, false);
      assert.equal(server.requests.length, 1, 'a write is never sent twice');
    });
  }

  it('the profiles: likely and contrary accept updating a post, sparse refuses it with a 404', () => {
    assert.equal(PROFILES.likely.postUpdates, 'accepted');
    assert.equal(PROFILES.contrary.postUpdates, 'accepted');
    assert.equal(PROFILES.sparse.postUpdates, 'notFound');
  });
});
