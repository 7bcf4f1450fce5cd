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

/** GET and DELETE: token in the query, no body, JSON Accept. */
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
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app/clients.json'), { page: '1', per_page: '10', order: 'name.desc', name: 'Initech' });
    assert.ok(Array.isArray(list));
    assert.ok(list.some((c) => c.name === 'Initech'));
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

  it('deletes', async () => {
    const api = stand.client();
    const { id } = await api.clients.create({ name: 'Soylent' });
    stand.server.reset();
    assert.equal(await api.clients.delete(id), undefined);
    assertQueryCall(only(), 'DELETE', `/app/clients/${id}.json`);
    await assert.rejects(api.clients.get(id), { kind: 'notFound' });
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
    const task = await api.posts.createTask({ title: 'Call back', content: 'About the invoice', task_kind: 'task', client_id: client.id, responsible_id: 1 });
    const sent = assertBodyCall(only(), 'POST', '/app/posts.json', 'post');
    assert.deepEqual(sent, { title: 'Call back', content: 'About the invoice', task_kind: 'task', client_id: client.id, responsible_id: 1 });
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

  it('adds a comment with post_id and task_kind comment, and the parent counts it', async () => {
    const api = stand.client();
    const parent = await api.posts.createTask({ title: 'Parent', task_kind: 'task', client_id: null, responsible_id: 2 });
    stand.server.reset();
    const comment = await api.posts.addComment(parent.id, { content: 'Looking into it', client_id: null, responsible_id: 2 });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/posts.json', 'post'), {
      content: 'Looking into it',
      client_id: null,
      responsible_id: 2,
      post_id: parent.id,
      task_kind: 'comment',
    });
    assert.equal(comment.post_id, parent.id);
    assert.equal((await api.posts.get(parent.id)).comments_cache, 1);
  });

  it('lists the helpdesk at /app.json and tasks at /app/tasks.json', async () => {
    const api = stand.client();
    const task = await api.posts.createTask({ title: 'Listed', task_kind: 'help' });
    stand.server.reset();
    const helpdesk = await api.posts.listHelpdesk({ perPage: 100, order: 'id.desc' });
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app.json'), { per_page: '100', order: 'id.desc' });
    assert.ok(helpdesk.some((p) => p.id === task.id));
    stand.server.reset();
    const tasks = await api.posts.listTasks({ page: 1 });
    assert.deepEqual(assertQueryCall(only(), 'GET', '/app/tasks.json'), { page: '1' });
    assert.ok(tasks.some((p) => p.id === task.id));
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
  it('creates for a client_id, lists filtered by client, gets, updates and deletes', async () => {
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
    assert.deepEqual(listed.map((d) => d.id), [deal.id]);

    stand.server.reset();
    assert.equal((await api.deals.get(deal.id)).name, 'Support plan');
    assertQueryCall(only(), 'GET', `/app/deals/${deal.id}.json`);

    stand.server.reset();
    const moved = await api.deals.update(deal.id, { client_id: null });
    assert.deepEqual(assertBodyCall(only(), 'PUT', `/app/deals/${deal.id}.json`, 'deal'), { client_id: null });
    assert.equal(moved.client_id, null);
    assert.equal(moved.name, 'Support plan');

    stand.server.reset();
    await api.deals.delete(deal.id);
    assertQueryCall(only(), 'DELETE', `/app/deals/${deal.id}.json`);
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

describe('contacts and contact lists', () => {
  it('contacts: create, get, update, list, delete', async () => {
    const api = stand.client();
    const contact = await api.contacts.create({ name: 'Ada L', first_name: 'Ada', last_name: 'L', email: 'ada@x.test', phone: '+1 555', responsible_id: 3, description: 'eng' });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/contacts.json', 'contact'), {
      name: 'Ada L', first_name: 'Ada', last_name: 'L', email: 'ada@x.test', phone: '+1 555', responsible_id: 3, description: 'eng',
    });
    assert.equal((await api.contacts.get(contact.id)).email, 'ada@x.test');
    stand.server.reset();
    const updated = await api.contacts.update(contact.id, { phone: '+1 556' });
    assert.deepEqual(assertBodyCall(only(), 'PUT', `/app/contacts/${contact.id}.json`, 'contact'), { phone: '+1 556' });
    assert.equal(updated.first_name, 'Ada');
    assert.ok((await api.contacts.list()).some((c) => c.id === contact.id));
    await api.contacts.delete(contact.id);
    await assert.rejects(api.contacts.get(contact.id), { kind: 'notFound' });
  });

  it('contact lists: create, get, update, list, delete', async () => {
    const api = stand.client();
    const list = await api.contactLists.create({ name: 'Beta testers' });
    assert.deepEqual(assertBodyCall(only(), 'POST', '/app/contact_lists.json', 'contact_list'), { name: 'Beta testers' });
    assert.equal((await api.contactLists.get(list.id)).name, 'Beta testers');
    stand.server.reset();
    assert.equal((await api.contactLists.update(list.id, { name: 'Early access' })).name, 'Early access');
    assert.deepEqual(assertBodyCall(only(), 'PUT', `/app/contact_lists/${list.id}.json`, 'contact_list'), { name: 'Early access' });
    assert.ok((await api.contactLists.list()).some((l) => l.id === list.id));
    await api.contactLists.delete(list.id);
    await assert.rejects(api.contactLists.get(list.id), { kind: 'notFound' });
  });
});

describe('accounts', () => {
  it('creates an account with its first user and answers its token and address', async () => {
    const api = stand.client();
    const account = await api.accounts.create({
      account: { prefix: 'newco', initial_module: 'crm' },
      user: { login: 'owner', email: 'owner@newco.test', password: 'pw-123456' },
    });
    const request = only();
    assert.equal(request.path, '/app/account.json');
    const body = request.body as Record<string, unknown>;
    assert.equal(body.api_token, stand.server.token);
    assert.deepEqual(body.account, { prefix: 'newco', initial_module: 'crm' });
    assert.deepEqual(body.user, { login: 'owner', email: 'owner@newco.test', password: 'pw-123456' });
    assert.equal(account.prefix, 'newco');
    assert.equal(account.email, 'owner@newco.test');
    const fresh = stand.client({ token: account.api_token, accountUrl: account.url });
    assert.deepEqual(await fresh.clients.list(), [], 'the new account starts empty');
  });
});

describe('links', () => {
  it('names a record page from the normalized account address', () => {
    const api = stand.client({ accountUrl: `${stand.server.url}/app/posts/9/` });
    assert.equal(api.accountUrl, stand.server.url);
    assert.equal(api.link('posts', 123), `${stand.server.url}/app/posts/123`);
  });
});
