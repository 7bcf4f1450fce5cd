import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedRequest } from '../server';
import { useStandIn } from './support';

const stand = useStandIn();

/** The one request the stand-in received since the last reset. */
function only(): RecordedRequest {
  assert.equal(stand.server.requests.length, 1, 'expected exactly one request');
  return stand.server.requests[0]!;
}

/** POST and PUT: token and wrapper in a JSON body, nothing in the query, JSON headers. */
function assertBodyCall(request: RecordedRequest, method: string, path: string, wrapper: string): Record<string, unknown> {
  assert.equal(request.method, method);
  assert.equal(request.path, path);
  assert.deepEqual(request.query, {});
  assert.equal(request.headers['accept'], 'application/json');
  assert.match(request.headers['content-type'] ?? '', /^application\/json/);
  const body = request.body as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['api_token', wrapper].sort());
  assert.equal(body.api_token, stand.server.token);
  return body[wrapper] as Record<string, unknown>;
}

/** GET: token in the query, no body, JSON Accept. */
function assertQueryCall(request: RecordedRequest, method: string, path: string): Record<string, string> {
  assert.equal(request.method, method);
  assert.equal(request.path, path);
  assert.equal(request.query.api_token, stand.server.token);
  assert.equal(request.body, null);
  assert.equal(request.headers['accept'], 'application/json');
  const { api_token: _token, ...rest } = request.query;
  return rest;
}

describe('clients', () => {
  it('creates with only the given fields and returns the record', async () => {
    const api = stand.client();
    const created = await api.clients.create({ name: 'Globex', email: 'it@globex.test', note: 'VIP', external_ids: { github: 'globex' } });
    const sent = assertBodyCall(only(), 'POST', '/app/clients.json', 'client');
    assert.deepEqual(sent, { name: 'Globex', email: 'it@globex.test', note: 'VIP', external_ids: { github: 'globex' } });
    assert.equal(typeof created.id, 'number');
    assert.equal(created.name, 'Globex');
    assert.deepEqual(created.external_ids, { github: 'globex' });
  });

  it('lists one page with paging, order and filters in the query', async () => {
    const api = stand.client();
    await api.clients.create({ name: 'Initech', email: 'ops@initech.test' });
    stand.server.reset();
    const list = await api.clients.list({ page: 1, perPage: 10, order: 'name.desc', name: 'Initech' });
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app/clients.json'), {
      page: '1',
      per_page: '10',
      order: 'name.desc',
      name: 'Initech',
    });
    assert.ok(Array.isArray(list.items));
    assert.equal(list.received, list.items.length);
    assert.ok(list.items.some((c) => c.name === 'Initech'));
  });

  it('gets one', async () => {
    const api = stand.client();
    const { id } = await api.clients.create({ name: 'Umbrella' });
    stand.server.reset();
    const got = await api.clients.get(id);
    assertQueryCall(only(), 'GET', `/app/clients/${id}.json`);
    assert.equal(got.id, id);
    assert.equal(got.name, 'Umbrella');
  });

  it('updates with only the changed fields and returns the whole record', async () => {
    const api = stand.client();
    const { id } = await api.clients.create({ name: 'Hooli', email: 'a@hooli.test' });
    stand.server.reset();
    const updated = await api.clients.update(id, { note: 'moved', string1: 'gold' });
    assert.deepEqual(assertBodyCall(only(), 'PUT', `/app/clients/${id}.json`, 'client'), { note: 'moved', string1: 'gold' });
    assert.equal(updated.name, 'Hooli', 'unchanged fields come back too');
    assert.equal(updated.note, 'moved');
    assert.equal(updated.string1, 'gold');
  });

  it('refuses ids that are not positive whole numbers before sending anything', async () => {
    const api = stand.client();
    await assert.rejects(api.clients.get(0), RangeError);
    await assert.rejects(api.clients.get(1.5), RangeError);
    assert.equal(stand.server.requests.length, 0);
  });
});

describe('posts', () => {
  it('creates a task with title, content, task_kind, client_id and responsible_id', async () => {
    const api = stand.client();
    const client = await api.clients.create({ name: 'Task Co' });
    stand.server.reset();
    const task = await api.posts.createTask({
      title: 'Call back',
      content: 'About the invoice',
      task_kind: 'task',
      client_id: client.id,
      responsible_id: 1,
    });
    const sent = assertBodyCall(only(), 'POST', '/app/posts.json', 'post');
    assert.deepEqual(sent, {
      title: 'Call back',
      content: 'About the invoice',
      task_kind: 'task',
      client_id: client.id,
      responsible_id: 1,
    });
    assert.equal(task.title, 'Call back');
    assert.equal(task.client_id, client.id);
  });

  it('files a post of kind error', async () => {
    const api = stand.client();
    const bug = await api.posts.reportError({ title: 'Crash in parser', content: '```ts\nparse()\n```' });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/posts.json', 'post'), {
      title: 'Crash in parser',
      content: '```ts\nparse()\n```',
      kind: 'error',
    });
    assert.equal(bug.kind, 'error');
    assert.equal(bug.closed, false);
  });

  it('adds a comment with a title, post_id and task_kind comment, and the parent counts it', async () => {
    const api = stand.client();
    const parent = await api.posts.createTask({ title: 'Parent', task_kind: 'task', client_id: null, responsible_id: 2 });
    stand.server.reset();
    const comment = await api.posts.addComment(parent.id, {
      title: 'Re: Parent',
      content: 'Looking into it',
      client_id: null,
      responsible_id: 2,
    });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/posts.json', 'post'), {
      title: 'Re: Parent',
      content: 'Looking into it',
      client_id: null,
      responsible_id: 2,
      post_id: parent.id,
      task_kind: 'comment',
    });
    assert.equal(comment.post_id, parent.id);
    assert.equal((await api.posts.get(parent.id)).comments_cache, 1);
  });

  it('lists the helpdesk at /app.json', async () => {
    const api = stand.client();
    const task = await api.posts.createTask({ title: 'Listed', task_kind: 'help' });
    stand.server.reset();
    const helpdesk = await api.posts.listHelpdesk({ perPage: 100, order: 'id.desc' });
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app.json'), { per_page: '100', order: 'id.desc' });
    assert.ok(helpdesk.items.some((p) => p.id === task.id));
    assert.equal(helpdesk.received, helpdesk.items.length);
  });

  it('gets one post', async () => {
    const api = stand.client();
    const { id } = await api.posts.createTask({ title: 'One' });
    stand.server.reset();
    const post = await api.posts.get(id);
    assertQueryCall(only(), 'GET', `/app/posts/${id}.json`);
    assert.equal(post.title, 'One');
  });
});

describe('deals', () => {
  it('creates for a client_id, lists filtered by client, gets and updates', async () => {
    const api = stand.client();
    const client = await api.clients.create({ name: 'Deal Co' });
    stand.server.reset();
    const deal = await api.deals.create({ name: 'Support plan', description: 'yearly', client_id: client.id, price: 1200.5 });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/deals.json', 'deal'), {
      name: 'Support plan',
      description: 'yearly',
      client_id: client.id,
      price: 1200.5,
    });
    assert.equal(deal.client_id, client.id);

    stand.server.reset();
    const listed = await api.deals.list({ client_id: client.id });
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app/deals.json'), { client_id: String(client.id) });
    assert.deepEqual(
      listed.items.map((d) => d.id),
      [deal.id],
    );
    assert.equal(listed.received, 1);

    stand.server.reset();
    assert.equal((await api.deals.get(deal.id)).name, 'Support plan');
    assertQueryCall(only(), 'GET', `/app/deals/${deal.id}.json`);

    stand.server.reset();
    const moved = await api.deals.update(deal.id, { client_id: null });
    assert.deepEqual(assertBodyCall(only(), 'PUT', `/app/deals/${deal.id}.json`, 'deal'), { client_id: null });
    assert.equal(moved.client_id, null);
    assert.equal(moved.name, 'Support plan');
  });

  it('creates with a nested client carrying external_ids, matched on a second deal', async () => {
    const api = stand.client();
    const client = { name: 'Nested Ltd', email: 'n@nested.test', external_ids: { repo: 'github.com/nested/app' } };
    const first = await api.deals.create({ name: 'First', client, external_ids: { repo: 'github.com/nested/app' } });
    const sent = assertBodyCall(only(), 'POST', '/app/deals.json', 'deal');
    assert.deepEqual(sent.client, client);
    assert.equal(typeof first.client_id, 'number');
    const second = await api.deals.create({ name: 'Second', client });
    assert.equal(second.client_id, first.client_id);
  });
});

describe('statuses', () => {
  it('lists the statuses of one kind at /app/statuses.json?kind=…', async () => {
    const api = stand.client();
    for (const kind of ['post', 'deal'] as const) {
      stand.server.reset();
      const statuses = await api.statuses(kind);
      assert.deepEqual(assertQueryCall(only(), 'GET', '/app/statuses.json'), { kind });
      assert.ok(statuses.length > 0);
      assert.ok(statuses.every((status) => status.kind === kind && Number.isSafeInteger(status.id) && typeof status.name === 'string'));
    }
  });
});

describe('links', () => {
  it('names a record page from the normalized account address', () => {
    const api = stand.client({ accountUrl: `${stand.server.url}/app/posts/9/` });
    assert.equal(api.accountUrl, stand.server.url);
    assert.equal(api.link('posts', 123), `${stand.server.url}/app/posts/123`);
  });
});
