import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEMO_NOW, POST_KINDS, SCHEMAS, startStandIn, TASK_KINDS, type StandIn } from '../server';
import { call, type Json, type Reply } from './standinCall';

/* The stand-in server itself, over real HTTP with global fetch. Never print a token: assertions
 * that involve one use assert.ok with a message that does not contain it. */

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+01:00$/;
const CUSTOM_FAMILIES = ['string', 'integer', 'decimal', 'checkbox', 'date', 'text', 'datetime'];

/** fetch refuses a GET with a body; node:http does not. Resolves the status. */
function getWithBody(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const create = async (server: StandIn, path: string, wrapper: string, fields: Record<string, unknown>) => {
  const reply = await call(server, 'POST', path, { body: { [wrapper]: fields } });
  assert.equal(reply.status, 201, reply.text);
  return reply.json;
};

const assertError = (reply: Reply, status: number, fields?: string[]) => {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json.code, 'error');
  if (fields) assert.deepEqual(Object.keys(reply.json.message).sort(), [...fields].sort(), reply.text);
  else assert.equal(typeof reply.json.message, 'string');
};

let server: StandIn;
before(async () => {
  server = await startStandIn();
});
after(() => server.close());
beforeEach(() => server.reset());

describe('auth', () => {
  it('a missing or unknown token gets 401 in the error shape', async () => {
    assertError(await call(server, 'GET', '/app/clients.json', { token: null }), 401);
    assertError(await call(server, 'GET', '/app/clients.json', { token: 'wrong0000/acme' }), 401);
    assertError(await call(server, 'POST', '/app/clients.json', { token: 'wrong0000/acme', body: { client: { name: 'X' } } }), 401);
  });

  it('the token works in the body and in the query, for every method', async () => {
    assert.equal(await getWithBody(`${server.url}/app/clients.json`, JSON.stringify({ api_token: server.token })), 200);
    assert.equal(await getWithBody(`${server.url}/app/clients.json`, JSON.stringify({ api_token: 'wrong/acme' })), 401);
    const created = await call(server, 'POST', '/app/clients.json', { tokenIn: 'query', body: { client: { name: 'Query Token Co' } } });
    assert.equal(created.status, 201);
    assert.equal((await call(server, 'DELETE', `/app/clients/${created.json.id}.json`, { tokenIn: 'body' })).json, 'ok');
  });

  it('looks the token up in the query even when it is URL-encoded (%2F)', async () => {
    const url = `${server.url}/app/clients.json?api_token=${encodeURIComponent(server.token)}`;
    assert.ok(url.includes('%2F'));
    assert.equal((await fetch(url)).status, 200);
  });
});

describe('clients', () => {
  it('create answers 201 with every §2.1 field, defaults null, and drops unknown fields', async () => {
    const client = await create(server, '/app/clients.json', 'client', {
      name: 'Globex',
      email: 'it@globex.test',
      external_ids: { github: 'globex' },
      favourite_colour: 'red',
    });
    assert.equal(typeof client.id, 'number');
    assert.equal(client.name, 'Globex');
    assert.deepEqual(client.external_ids, { github: 'globex' });
    assert.equal(client.favourite_colour, undefined);
    assert.match(client.created_at, TIME);
    assert.equal(client.updated_at, client.created_at);
    assert.deepEqual(Object.keys(client), Object.keys(SCHEMAS.clients));
    for (const family of CUSTOM_FAMILIES) for (let n = 1; n <= 10; n++) assert.equal(client[`${family}${n}`], null, `${family}${n}`);
    for (const field of ['tax_no', 'city', 'kind', 'bank_account_id', 'avatar_file_name', 'token', 'paid_from'])
      assert.equal(client[field], null, field);
  });

  it('gets, updates only the given fields (whole record back, updated_at moves), deletes with "ok"', async () => {
    const { id, created_at } = await create(server, '/app/clients.json', 'client', { name: 'Hooli', email: 'a@hooli.test' });
    const got = await call(server, 'GET', `/app/clients/${id}.json`);
    assert.equal(got.status, 200);
    assert.equal(got.json.name, 'Hooli');
    const updated = await call(server, 'PUT', `/app/clients/${id}.json`, {
      body: { client: { note: 'moved', string1: 'gold', integer2: '42' } },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.name, 'Hooli');
    assert.equal(updated.json.email, 'a@hooli.test');
    assert.equal(updated.json.note, 'moved');
    assert.equal(updated.json.string1, 'gold');
    assert.equal(updated.json.integer2, 42, 'numeric strings are cast');
    assert.equal(updated.json.created_at, created_at);
    assert.ok(updated.json.updated_at > created_at, 'updated_at moves');
    const removed = await call(server, 'DELETE', `/app/clients/${id}.json`);
    assert.equal(removed.status, 200);
    assert.equal(removed.text, '"ok"');
    assertError(await call(server, 'GET', `/app/clients/${id}.json`), 404);
    assertError(await call(server, 'DELETE', `/app/clients/${id}.json`), 404);
    assertError(await call(server, 'PUT', `/app/clients/${id}.json`, { body: { client: { note: 'x' } } }), 404);
  });

  it('lists as a plain array', async () => {
    await create(server, '/app/clients.json', 'client', { name: 'Listed Co' });
    const list = await call(server, 'GET', '/app/clients.json', { query: { per_page: 100 } });
    assert.ok(Array.isArray(list.json));
    assert.ok(list.json.some((c: Json) => c.name === 'Listed Co'));
  });

  it('422 for a missing name, a missing wrapper and a blanked name', async () => {
    const noName = await call(server, 'POST', '/app/clients.json', { body: { client: { email: 'x@y.test' } } });
    assert.deepEqual(noName.json, { code: 'error', message: { name: ["can't be blank"] } });
    assert.equal(noName.status, 422);
    assertError(await call(server, 'POST', '/app/clients.json', { body: {} }), 422, ['client']);
    assertError(await call(server, 'POST', '/app/clients.json', { body: { client: 'Acme' } }), 422, ['client']);
    const { id } = await create(server, '/app/clients.json', 'client', { name: 'Keep' });
    assertError(await call(server, 'PUT', `/app/clients/${id}.json`, { body: { client: { name: '  ' } } }), 422, ['name']);
  });

  it('422 names every field of the wrong type', async () => {
    const reply = await call(server, 'POST', '/app/clients.json', {
      body: {
        client: {
          name: 'Types',
          responsible_id: 1.5,
          integer1: 'many',
          decimal1: 'abc',
          kind: 'vip',
          checkbox1: 'maybe',
          date1: '2025-02-30',
          external_ids: { github: 7 },
        },
      },
    });
    assertError(reply, 422, ['responsible_id', 'integer1', 'decimal1', 'kind', 'checkbox1', 'date1', 'external_ids']);
    assert.deepEqual(reply.json.message.responsible_id, ['must be an integer']);
    assert.deepEqual(reply.json.message.integer1, ['is not a number']);
    assert.deepEqual(reply.json.message.kind, ['is not included in the list']);
    assertError(await call(server, 'POST', '/app/clients.json', { body: { client: { name: 'T', external_ids: ['a'] } } }), 422, [
      'external_ids',
    ]);
  });

  it('try_update updates the client sharing an external_ids entry, else creates one', async () => {
    const first = await create(server, '/app/clients.json', 'client', { name: 'Upsert Ltd', external_ids: { erp: 'U-1', shop: 's-1' } });
    const again = await call(server, 'POST', '/app/clients.json', {
      body: { client: { name: 'Upsert Ltd.', try_update: true, external_ids: { erp: 'U-1', crm: 'c-9' } } },
    });
    assert.equal(again.status, 200);
    assert.equal(again.json.id, first.id);
    assert.equal(again.json.name, 'Upsert Ltd.');
    assert.deepEqual(again.json.external_ids, { erp: 'U-1', shop: 's-1', crm: 'c-9' });
    assert.equal(again.json.try_update, undefined);
    const other = await call(server, 'POST', '/app/clients.json', {
      body: { client: { name: 'Upsert Ltd', try_update: true, external_ids: { erp: 'U-2' } } },
    });
    assert.equal(other.status, 201);
    assert.notEqual(other.json.id, first.id);
  });

  it('try_update falls back to equal name and email (any case)', async () => {
    const first = await create(server, '/app/clients.json', 'client', { name: 'Mail Match', email: 'Hi@MailMatch.test' });
    const again = await call(server, 'POST', '/app/clients.json', {
      body: { client: { name: 'mail match', email: 'hi@mailmatch.test', try_update: true, city: 'Oslo' } },
    });
    assert.equal(again.status, 200);
    assert.equal(again.json.id, first.id);
    assert.equal(again.json.city, 'Oslo');
    const plain = await call(server, 'POST', '/app/clients.json', { body: { client: { name: 'Mail Match', email: 'hi@mailmatch.test' } } });
    assert.equal(plain.status, 201, 'without try_update a duplicate is created');
  });

  it('filters by name (substring, any case), email, shortcut, tax_no and external_id', async () => {
    const fresh = await startStandIn();
    try {
      const a = await create(fresh, '/app/clients.json', 'client', {
        name: 'Alpha Works',
        email: 'ops@alpha.test',
        shortcut: 'ALW',
        tax_no: 'PL123',
        external_id: 'X-1',
      });
      const b = await create(fresh, '/app/clients.json', 'client', {
        name: 'Beta Alphabet',
        email: 'hi@beta.test',
        shortcut: 'BAB',
        external_ids: { erp: 'X-2' },
      });
      await create(fresh, '/app/clients.json', 'client', { name: 'Gamma', email: 'g@gamma.test' });
      const ids = async (query: Record<string, string>) =>
        (await call(fresh, 'GET', '/app/clients.json', { query })).json.map((c: Json) => c.id);
      assert.deepEqual(await ids({ name: 'alpha' }), [a.id, b.id]);
      assert.deepEqual(await ids({ email: 'HI@beta.test' }), [b.id]);
      assert.deepEqual(await ids({ shortcut: 'ALW' }), [a.id]);
      assert.deepEqual(await ids({ tax_no: 'PL123' }), [a.id]);
      assert.deepEqual(await ids({ external_id: 'X-1' }), [a.id]);
      assert.deepEqual(await ids({ external_id: 'X-2' }), [b.id]);
      assert.deepEqual(await ids({ name: 'nothing like it' }), []);
    } finally {
      await fresh.close();
    }
  });
});

describe('posts', () => {
  it('creates a task with every §2.2 field; closed defaults to false', async () => {
    const client = await create(server, '/app/clients.json', 'client', { name: 'Task Co' });
    const task = await create(server, '/app/posts.json', 'post', {
      title: 'Call back',
      content: 'About the invoice',
      task_kind: 'task',
      client_id: client.id,
      responsible_id: 1,
    });
    assert.deepEqual(Object.keys(task), Object.keys(SCHEMAS.posts));
    assert.equal(task.task_kind, 'task');
    assert.equal(task.client_id, client.id);
    assert.equal(task.closed, false);
    assert.equal(task.comments_cache, 0);
    assert.equal(task.post_id, null);
    assert.equal((await call(server, 'GET', `/app/clients/${client.id}.json`)).json.posts_count, 1);
  });

  it('creates a post of kind error and gets it back', async () => {
    const bug = await create(server, '/app/posts.json', 'post', { title: 'Crash', content: '```ts\nparse()\n```', kind: 'error' });
    const got = await call(server, 'GET', `/app/posts/${bug.id}.json`);
    assert.equal(got.json.kind, 'error');
    assert.equal(got.json.content, '```ts\nparse()\n```');
  });

  it('422: title required, kind and task_kind in their lists, client_id must exist', async () => {
    assertError(await call(server, 'POST', '/app/posts.json', { body: { post: { content: 'no title' } } }), 422, ['title']);
    assertError(
      await call(server, 'POST', '/app/posts.json', { body: { post: { title: 't', kind: 'rant', task_kind: 'meeting' } } }),
      422,
      ['kind', 'task_kind'],
    );
    assertError(await call(server, 'POST', '/app/posts.json', { body: { post: { title: 't', client_id: 999999 } } }), 422, ['client_id']);
  });

  it('a comment bumps the parent, and is listed in neither /app.json nor /app/tasks.json', async () => {
    const parent = await create(server, '/app/posts.json', 'post', { title: 'Parent', task_kind: 'task' });
    const comment = await create(server, '/app/posts.json', 'post', {
      post_id: parent.id,
      task_kind: 'comment',
      content: 'Looking into it',
    });
    assert.equal(comment.post_id, parent.id);
    assert.equal(comment.task_kind, 'comment');
    await create(server, '/app/posts.json', 'post', { post_id: parent.id, content: 'post_id alone makes a comment too' });
    const after = (await call(server, 'GET', `/app/posts/${parent.id}.json`)).json;
    assert.equal(after.comments_cache, 2);
    assert.ok(after.updated_at > parent.updated_at);
    const helpdesk = (await call(server, 'GET', '/app.json', { query: { per_page: 100, order: 'id.desc' } })).json;
    const tasks = (await call(server, 'GET', '/app/tasks.json', { query: { per_page: 100, order: 'id.desc' } })).json;
    assert.ok(helpdesk.some((p: Json) => p.id === parent.id));
    assert.ok(tasks.some((p: Json) => p.id === parent.id));
    assert.ok(!helpdesk.some((p: Json) => p.post_id !== null));
    assert.ok(!tasks.some((p: Json) => p.post_id !== null));
    assert.equal((await call(server, 'GET', `/app/posts/${comment.id}.json`)).json.content, 'Looking into it');
  });

  it('a comment needs an existing parent and a content', async () => {
    assertError(
      await call(server, 'POST', '/app/posts.json', { body: { post: { task_kind: 'comment', post_id: 987654, content: 'x' } } }),
      422,
      ['post_id'],
    );
    const parent = await create(server, '/app/posts.json', 'post', { title: 'P' });
    assertError(await call(server, 'POST', '/app/posts.json', { body: { post: { task_kind: 'comment', post_id: parent.id } } }), 422, [
      'content',
    ]);
    assertError(await call(server, 'POST', '/app/posts.json', { body: { post: { task_kind: 'comment', content: 'orphan' } } }), 422, [
      'post_id',
    ]);
    assert.equal((await call(server, 'GET', `/app/posts/${parent.id}.json`)).json.comments_cache, 0);
  });

  it('/app/tasks.json lists only posts with a task_kind; /app.json every post but comments', async () => {
    const praise = await create(server, '/app/posts.json', 'post', { title: 'Thanks!', kind: 'praise' });
    const helpdesk = (await call(server, 'GET', '/app.json', { query: { per_page: 100, order: 'id.desc' } })).json;
    const tasks = (await call(server, 'GET', '/app/tasks.json', { query: { per_page: 100, order: 'id.desc' } })).json;
    assert.ok(helpdesk.some((p: Json) => p.id === praise.id));
    assert.ok(!tasks.some((p: Json) => p.id === praise.id));
    assert.ok(tasks.every((p: Json) => p.task_kind !== null));
  });

  it('posts cannot be listed at /app/posts.json or deleted (not in the spec); updating one goes as the profile says (see standin.profiles)', async () => {
    const post = await create(server, '/app/posts.json', 'post', { title: 'Fixed' });
    assertError(await call(server, 'GET', '/app/posts.json'), 404);
    assertError(await call(server, 'DELETE', `/app/posts/${post.id}.json`), 404);
  });
});

describe('deals', () => {
  it('creates for a client_id, filters by client, gets, updates the whole record and deletes', async () => {
    const client = await create(server, '/app/clients.json', 'client', { name: 'Deal Co' });
    const deal = await create(server, '/app/deals.json', 'deal', {
      name: 'Support plan',
      client_id: client.id,
      price: 1200.5,
      url: 'https://x.test/d/1',
      status_id: 2,
      external_ids: { repo: 'a/b' },
    });
    assert.deepEqual(Object.keys(deal), Object.keys(SCHEMAS.deals));
    assert.equal(deal.price, 1200.5);
    assert.equal(deal.url, 'https://x.test/d/1');
    assert.equal(deal.status_id, 2);
    assert.deepEqual(deal.external_ids, { repo: 'a/b' });
    await create(server, '/app/deals.json', 'deal', { name: 'Elsewhere' });
    const listed = await call(server, 'GET', '/app/deals.json', { query: { client_id: client.id } });
    assert.deepEqual(
      listed.json.map((d: Json) => d.id),
      [deal.id],
    );
    const moved = await call(server, 'PUT', `/app/deals/${deal.id}.json`, { body: { deal: { client_id: null, price: '99.5' } } });
    assert.equal(moved.json.client_id, null);
    assert.equal(moved.json.price, 99.5);
    assert.equal(moved.json.name, 'Support plan');
    assert.equal((await call(server, 'GET', `/app/deals/${deal.id}.json`)).json.price, 99.5);
    assert.equal((await call(server, 'DELETE', `/app/deals/${deal.id}.json`)).json, 'ok');
    assertError(await call(server, 'GET', `/app/deals/${deal.id}.json`), 404);
  });

  it('a nested client is matched by an equal external_ids entry, else created', async () => {
    const nested = { name: 'Nested Ltd', email: 'n@nested.test', external_ids: { repo: 'github.com/nested/app' } };
    const before = server.store.list(server.prefix, 'clients').length;
    const first = await create(server, '/app/deals.json', 'deal', { name: 'First', client: nested });
    const created = (await call(server, 'GET', `/app/clients/${first.client_id}.json`)).json;
    assert.equal(created.name, 'Nested Ltd');
    assert.deepEqual(created.external_ids, nested.external_ids);
    const second = await create(server, '/app/deals.json', 'deal', {
      name: 'Second',
      client: { name: 'Other name', external_ids: { other: 'x', repo: 'github.com/nested/app' } },
    });
    assert.equal(second.client_id, first.client_id);
    const third = await create(server, '/app/deals.json', 'deal', {
      name: 'Third',
      client: { name: 'Nested Ltd', external_ids: { repo: 'github.com/nested/other' } },
    });
    assert.notEqual(third.client_id, first.client_id);
    assert.equal(server.store.list(server.prefix, 'clients').length, before + 2);
  });

  it('422: name required, price a number, client_id existing, nested client named; nothing created', async () => {
    const before = server.store.list(server.prefix, 'clients').length;
    assertError(await call(server, 'POST', '/app/deals.json', { body: { deal: { price: 'lots', client_id: 999999 } } }), 422, [
      'name',
      'price',
      'client_id',
    ]);
    assertError(
      await call(server, 'POST', '/app/deals.json', {
        body: { deal: { name: 'D', client: { email: 'x@y.test', external_ids: { a: 'b' } } } },
      }),
      422,
      ['client.name'],
    );
    assertError(await call(server, 'POST', '/app/deals.json', { body: { name: 'D' } }), 422, ['deal']);
    assert.equal(server.store.list(server.prefix, 'clients').length, before);
  });
});

describe('contacts and contact lists', () => {
  it('contacts: create, get, update, list, delete; name from first and last name', async () => {
    const contact = await create(server, '/app/contacts.json', 'contact', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@x.test',
      responsible_id: 3,
    });
    assert.deepEqual(Object.keys(contact), Object.keys(SCHEMAS.contacts));
    assert.equal(contact.name, 'Ada Lovelace');
    const updated = await call(server, 'PUT', `/app/contacts/${contact.id}.json`, { body: { contact: { phone: '+1 556' } } });
    assert.equal(updated.json.phone, '+1 556');
    assert.equal(updated.json.email, 'ada@x.test');
    assert.ok((await call(server, 'GET', '/app/contacts.json', { query: { per_page: 100 } })).json.some((c: Json) => c.id === contact.id));
    assert.equal((await call(server, 'DELETE', `/app/contacts/${contact.id}.json`)).json, 'ok');
    assertError(await call(server, 'GET', `/app/contacts/${contact.id}.json`), 404);
    assertError(await call(server, 'POST', '/app/contacts.json', { body: { contact: { email: 'nameless@x.test' } } }), 422, ['name']);
    assertError(await call(server, 'POST', '/app/contacts.json', { body: { contact: { name: 'R', responsible_id: 'boss' } } }), 422, [
      'responsible_id',
    ]);
  });

  it('contact lists: create, get, update, list, delete; name required', async () => {
    const list = await create(server, '/app/contact_lists.json', 'contact_list', { name: 'Beta testers' });
    assert.deepEqual(Object.keys(list), ['id', 'name', 'created_at', 'updated_at']);
    assert.equal((await call(server, 'GET', `/app/contact_lists/${list.id}.json`)).json.name, 'Beta testers');
    assert.equal(
      (await call(server, 'PUT', `/app/contact_lists/${list.id}.json`, { body: { contact_list: { name: 'Early access' } } })).json.name,
      'Early access',
    );
    assert.ok((await call(server, 'GET', '/app/contact_lists.json')).json.some((l: Json) => l.id === list.id));
    assert.equal((await call(server, 'DELETE', `/app/contact_lists/${list.id}.json`)).json, 'ok');
    assertError(await call(server, 'GET', `/app/contact_lists/${list.id}.json`), 404);
    assertError(await call(server, 'POST', '/app/contact_lists.json', { body: { contact_list: {} } }), 422, ['name']);
  });
});

describe('paths, bodies, timestamps', () => {
  it('404 JSON for unknown paths, methods and non-numeric ids', async () => {
    for (const [method, path] of [
      ['GET', '/app/widgets.json'],
      ['GET', '/nope'],
      ['PATCH', '/app/clients/1.json'],
      ['POST', '/app.json'],
      ['GET', '/app/clients/abc.json'],
      ['GET', '/app/clients/1'],
      ['GET', '/app/clients/99999999.json'],
    ] as const) {
      assertError(await call(server, method, path), 404);
    }
  });

  it('400 for a malformed JSON body or a body that is not an object', async () => {
    assertError(await call(server, 'POST', '/app/clients.json', { raw: '{"api_token":' }), 400);
    assertError(await call(server, 'POST', '/app/clients.json', { raw: '[1,2]' }), 400);
  });

  it('date-times have milliseconds and +01:00; ids strictly increase per resource', async () => {
    const a = await create(server, '/app/contact_lists.json', 'contact_list', { name: 'A' });
    const b = await create(server, '/app/contact_lists.json', 'contact_list', { name: 'B' });
    assert.ok(b.id > a.id);
    for (const value of [a.created_at, a.updated_at, b.created_at]) assert.match(value, TIME);
    const client = await create(server, '/app/clients.json', 'client', {
      name: 'When',
      datetime1: '2018-01-04T16:33:58.691Z',
      date1: '2013-01-16',
    });
    assert.equal(client.datetime1, '2018-01-04T17:33:58.691+01:00');
    assert.equal(client.date1, '2013-01-16');
  });
});

describe('pagination and order', () => {
  let paged: StandIn;
  before(async () => {
    paged = await startStandIn();
    for (let i = 1; i <= 157; i++)
      paged.store.insert(paged.prefix, 'clients', { name: `Client ${String(i).padStart(3, '0')}`, city: i % 2 ? 'Oslo' : null });
  });
  after(() => paged.close());
  const names = async (query: Record<string, string | number>) =>
    (await call(paged, 'GET', '/app/clients.json', { query })).json.map((c: Json) => c.name);

  it('default page 1 of 25, id ascending', async () => {
    const first = await names({});
    assert.equal(first.length, 25);
    assert.equal(first[0], 'Client 001');
    assert.equal(first[24], 'Client 025');
  });

  it('page and per_page; a short last page; a page past the end is []', async () => {
    assert.deepEqual(
      await names({ page: 2, per_page: 10 }),
      Array.from({ length: 10 }, (_, i) => `Client ${String(11 + i).padStart(3, '0')}`),
    );
    assert.equal((await names({ page: 7, per_page: 25 })).length, 7);
    assert.deepEqual(await names({ page: 8, per_page: 25 }), []);
    assert.equal((await names({ page: 0, per_page: 'x' })).length, 25, 'nonsense falls back to the defaults');
  });

  it('per_page above 100 is clamped to 100', async () => {
    assert.equal((await names({ per_page: 500 })).length, 100);
    assert.equal((await names({ per_page: 500, page: 2 })).length, 57);
  });

  it('order=field, order=field.desc; an unknown field is ignored', async () => {
    assert.equal((await names({ order: 'name.desc' }))[0], 'Client 157');
    assert.equal((await names({ order: 'name.desc', page: 2, per_page: 20 }))[0], 'Client 137');
    assert.equal((await names({ order: 'id.desc' }))[0], 'Client 157');
    assert.equal((await names({ order: 'name' }))[0], 'Client 001');
    assert.equal((await names({ order: 'shoe_size.desc' }))[0], 'Client 001');
    const byCity = await names({ order: 'city', per_page: 100, page: 1 });
    assert.equal(byCity[0], 'Client 001', 'Oslo first, ties by id');
    assert.equal(byCity[1], 'Client 003');
  });
});

describe('accounts', () => {
  it('creates an empty account whose token works; the answer names prefix, token, url, login, email', async () => {
    const reply = await call(server, 'POST', '/app/account.json', {
      body: {
        account: { prefix: 'newco', initial_module: 'crm' },
        user: { login: 'owner', email: 'owner@newco.test', password: 'pw-123456' },
      },
    });
    assert.equal(reply.status, 201, reply.text.replace(/"api_token":"[^"]*"/, ''));
    const account = reply.json;
    assert.deepEqual(Object.keys(account).sort(), ['api_token', 'email', 'login', 'prefix', 'url']);
    assert.equal(account.prefix, 'newco');
    assert.equal(account.url, server.url);
    assert.equal(account.login, 'owner');
    assert.ok(/^[0-9a-f]{32}\/newco$/.test(account.api_token), 'token looks like SECRET/prefix');
    assert.ok(account.api_token !== server.token, 'a new token');
    await create(server, '/app/clients.json', 'client', { name: 'Only in acme' });
    const theirs = await call(server, 'GET', '/app/clients.json', { token: account.api_token });
    assert.deepEqual(theirs.json, []);
    const mine = await call(server, 'POST', '/app/clients.json', { token: account.api_token, body: { client: { name: 'Newco client' } } });
    assert.equal(mine.status, 201);
    assertError(await call(server, 'GET', `/app/clients/${mine.json.id}.json`), 404, undefined);

    const taken = await call(server, 'POST', '/app/account.json', {
      body: { account: { prefix: 'newco' }, user: { login: 'o2', email: 'o2@newco.test', password: 'pw-654321' } },
    });
    assert.equal(taken.status, 201);
    assert.equal(taken.json.prefix, 'newco-2');
    assert.ok(taken.json.api_token.endsWith('/newco-2'));
  });

  it('422 for missing or invalid fields; 401 without a known token', async () => {
    const reply = await call(server, 'POST', '/app/account.json', {
      body: { account: { prefix: 'Bad Prefix!' }, user: { email: 'nope' } },
    });
    assertError(reply, 422, ['account.prefix', 'user.login', 'user.email', 'user.password']);
    assertError(
      await call(server, 'POST', '/app/account.json', { body: { user: { login: 'a', email: 'a@b.test', password: 'x' } } }),
      422,
      ['account'],
    );
    assertError(
      await call(server, 'POST', '/app/account.json', {
        token: 'nope/acme',
        body: { account: { prefix: 'x' }, user: { login: 'a', email: 'a@b.test', password: 'x' } },
      }),
      401,
    );
  });
});

describe('persistence', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'standin-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('saves after every change (valid JSON, no temporary files) and loads it back with the same token', async () => {
    const dataFile = join(dir, 'state.json');
    const first = await startStandIn({ dataFile, seed: 'demo' });
    const token = first.token;
    const client = await create(first, '/app/clients.json', 'client', { name: 'Persisted Co' });
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'));
    assert.ok(saved.accounts[0].clients.some((c: Json) => c.name === 'Persisted Co'));
    await call(first, 'PUT', `/app/clients/${client.id}.json`, { body: { client: { note: 'changed' } } });
    assert.ok(JSON.parse(readFileSync(dataFile, 'utf8')).accounts[0].clients.some((c: Json) => c.note === 'changed'));
    const seeded = first.store.list(first.prefix, 'posts').length;
    await first.close();
    assert.deepEqual(readdirSync(dir), ['state.json']);

    const second = await startStandIn({ dataFile, seed: 'empty' });
    try {
      assert.ok(second.token === token, 'the saved token is used again');
      assert.equal((await call(second, 'GET', `/app/clients/${client.id}.json`)).json.note, 'changed');
      assert.ok(seeded > 0);
      assert.equal(second.store.list(second.prefix, 'posts').length, seeded, 'the seed is ignored when the file exists');
      const next = await create(second, '/app/clients.json', 'client', { name: 'After restart' });
      assert.ok(next.id > client.id);
    } finally {
      await second.close();
    }
    const third = await startStandIn({ dataFile, token: 'fixed0000000000000000000000000000/acme' });
    try {
      assert.equal((await call(third, 'GET', '/app/clients.json', { token })).status, 401, 'a given token replaces the saved one');
      assert.equal((await call(third, 'GET', '/app/clients.json')).status, 200);
    } finally {
      await third.close();
    }
  });

  it('creates the file on start when it does not exist', async () => {
    const dataFile = join(dir, 'fresh.json');
    const standIn = await startStandIn({ dataFile });
    await standIn.close();
    assert.ok(existsSync(dataFile));
    assert.equal(JSON.parse(readFileSync(dataFile, 'utf8')).format, 'standin-store/1');
  });
});

describe('faults', () => {
  it('latency delays the normal answer', async () => {
    server.addFault({ path: '/app/clients.json', latencyMs: 300 });
    const started = Date.now();
    const reply = await call(server, 'GET', '/app/clients.json');
    assert.ok(Date.now() - started >= 280, `answered after ${Date.now() - started} ms`);
    assert.equal(reply.status, 200);
    assert.ok(Array.isArray(reply.json));
  });

  it('forced status, body and headers; a status alone does not touch the state', async () => {
    server.addFault({
      method: 'GET',
      path: '/app/deals.json',
      status: 403,
      body: { code: 'error', message: 'No access' },
      headers: { 'Retry-After': '7' },
    });
    const forced = await call(server, 'GET', '/app/deals.json');
    assert.equal(forced.status, 403);
    assert.deepEqual(forced.json, { code: 'error', message: 'No access' });
    assert.equal(forced.headers.get('retry-after'), '7');
    const count = server.store.list(server.prefix, 'clients').length;
    server.addFault({ method: 'POST', path: '/app/clients.json', status: 500 });
    const failed = await call(server, 'POST', '/app/clients.json', { body: { client: { name: 'Never' } } });
    assertError(failed, 500);
    assert.equal(server.store.list(server.prefix, 'clients').length, count);
    server.addFault({ path: '/app/contacts.json', headers: { 'X-Extra': 'yes' } });
    const normal = await call(server, 'GET', '/app/contacts.json');
    assert.equal(normal.status, 200);
    assert.equal(normal.headers.get('x-extra'), 'yes');
  });

  it('an HTML error page, malformed JSON and an empty body', async () => {
    server.addFault({ path: '/app.json', html: true, times: 1 });
    const page = await call(server, 'GET', '/app.json');
    assert.equal(page.status, 502);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /^<html>[\s\S]*502 Bad Gateway/);
    server.addFault({ path: '/app.json', malformedJson: true, times: 1 });
    const broken = await call(server, 'GET', '/app.json');
    assert.equal(broken.status, 200);
    assert.match(broken.headers.get('content-type') ?? '', /^application\/json/);
    assert.throws(() => JSON.parse(broken.text));
    server.addFault({ path: '/app.json', emptyBody: true, times: 1 });
    const empty = await call(server, 'GET', '/app.json');
    assert.equal(empty.status, 200);
    assert.equal(empty.text, '');
  });

  it('drop: the connection closes without an answer; the request is recorded', async () => {
    server.addFault({ path: '/app/clients.json', drop: true });
    await assert.rejects(call(server, 'POST', '/app/clients.json', { body: { client: { name: 'Dropped' } } }), TypeError);
    assert.equal(server.requests.length, 1);
    assert.ok(!server.store.list(server.prefix, 'clients').some((c) => c.name === 'Dropped'));
  });

  it('hang: no answer until the caller gives up', async () => {
    server.addFault({ path: '/app.json', hang: true });
    const started = Date.now();
    await assert.rejects(call(server, 'GET', '/app.json', { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    assert.ok(Date.now() - started < 2000);
  });

  it('hold: recorded, unanswered until released, then answered as the other effects say; clearing the faults releases too', async () => {
    server.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 2 });
    let answered = false;
    const held = call(server, 'POST', '/app/posts.json', { body: { post: { title: 'Held' } } }).then((reply) => ((answered = true), reply));
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, 'held');
    assert.equal(server.release(), 1);
    assert.equal((await held).status, 201);
    assert.equal(server.release(), 0, 'nothing is held now');
    const again = call(server, 'POST', '/app/posts.json', { body: { post: { title: 'Held again' } } });
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    server.clearFaults();
    assert.equal((await again).status, 201);
  });

  it('holdAnswer: answered as the records were when it was read, once released, after a change made meanwhile', async () => {
    const [post] = server.store.list(server.prefix, 'posts');
    assert.ok(post);
    server.addFault({ method: 'GET', path: `/app/posts/${post.id}.json`, holdAnswer: true, times: 1 });
    let answered = false;
    const held = call(server, 'GET', `/app/posts/${post.id}.json`).then((reply) => ((answered = true), reply));
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, 'held');
    const before = post.title;
    server.store.update(server.prefix, 'posts', post.id, { title: `${String(before)} (changed meanwhile)` });
    assert.equal(server.release(), 1);
    assert.equal(((await held).json as { title: unknown }).title, before, 'the answer of the read, not of the change after it');
  });

  it('dropAfterHandling: the caller sees a dropped connection but the record exists', async () => {
    server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
    await assert.rejects(call(server, 'POST', '/app/posts.json', { body: { post: { title: 'Saved but unanswered' } } }), TypeError);
    assert.ok(server.store.list(server.prefix, 'posts').some((p) => p.title === 'Saved but unanswered'));
  });

  it('redirectTo answers 302 with a Location', async () => {
    server.addFault({ path: '/app/clients.json', redirectTo: 'http://127.0.0.1:9/elsewhere.json' });
    const reply = await call(server, 'GET', '/app/clients.json');
    assert.equal(reply.status, 302);
    assert.equal(reply.headers.get('location'), 'http://127.0.0.1:9/elsewhere.json');
  });

  it('times limits a rule; the first matching rule applies; method and RegExp paths match', async () => {
    server.addFault({ method: 'PUT', status: 418 });
    server.addFault({ path: /^\/app\/contact_lists/, status: 503, times: 2 });
    server.addFault({ path: '/app/contact_lists.json', status: 500 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server, 'GET', '/app/contact_lists.json')).status);
    assert.deepEqual(statuses, [503, 503, 500]);
    assert.equal((await call(server, 'GET', '/app/contact_lists/1.json')).status, 404, 'the RegExp rule is used up');
    assert.equal((await call(server, 'PUT', '/app/contact_lists/1.json', { body: { contact_list: { name: 'x' } } })).status, 418);
    server.clearFaults();
    assert.equal((await call(server, 'GET', '/app/contact_lists.json')).status, 200);
  });

  it('reset clears faults and recorded requests, not data', async () => {
    const client = await create(server, '/app/clients.json', 'client', { name: 'Survives reset' });
    server.addFault({ status: 500 });
    server.reset();
    assert.equal(server.requests.length, 0);
    assert.equal((await call(server, 'GET', `/app/clients/${client.id}.json`)).status, 200);
  });

  it('close() ends hanging and delayed requests at once', async () => {
    const standIn = await startStandIn();
    standIn.addFault({ path: '/app.json', hang: true });
    standIn.addFault({ path: '/app/clients.json', latencyMs: 10_000 });
    standIn.addFault({ path: '/app/deals.json', hold: true });
    const hanging = call(standIn, 'GET', '/app.json').catch((error: Error) => error);
    const delayed = call(standIn, 'GET', '/app/clients.json').catch((error: Error) => error);
    const held = call(standIn, 'GET', '/app/deals.json').catch((error: Error) => error);
    while (standIn.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await standIn.close();
    assert.ok((await hanging) instanceof Error);
    assert.ok((await delayed) instanceof Error);
    assert.ok((await held) instanceof Error);
    assert.ok(Date.now() - started < 1000, `closed in ${Date.now() - started} ms`);
  });
});

describe('control endpoints', () => {
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/__standin/${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

  it('info gives url and prefix, never the token', async () => {
    const response = await control('GET', 'info');
    const text = await response.text();
    assert.deepEqual(JSON.parse(text), { url: server.url, prefix: 'acme' });
    assert.ok(!text.includes(server.token.split('/')[0]!), 'no token in the info');
  });

  it('faults: exact path and pathPattern; bad rules get 400; DELETE clears', async () => {
    assert.equal((await control('POST', 'faults', { path: '/app/deals.json', status: 409, times: 1 })).status, 201);
    assert.equal((await control('POST', 'faults', { pathPattern: '^/app/contacts', status: 503 })).status, 201);
    assert.equal((await call(server, 'GET', '/app/deals.json')).status, 409);
    assert.equal((await call(server, 'GET', '/app/deals.json')).status, 200);
    assert.equal((await call(server, 'GET', '/app/contacts/5.json')).status, 503);
    assert.equal((await control('POST', 'faults', { pathPattern: '(' })).status, 400);
    assert.equal((await control('POST', 'faults', { status: 'five hundred' })).status, 400);
    assert.equal((await fetch(`${server.url}/__standin/faults`, { method: 'POST', body: '{' })).status, 400);
    assert.equal((await control('DELETE', 'faults')).status, 200);
    assert.equal((await call(server, 'GET', '/app/contacts/5.json')).status, 404);
  });

  it('requests: recorded API calls only; DELETE and reset clear them', async () => {
    await call(server, 'GET', '/app/clients.json', { query: { page: 2 } });
    await control('GET', 'info');
    const recorded: Json = await (await control('GET', 'requests')).json();
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0].path, '/app/clients.json');
    assert.equal(recorded[0].query.page, '2');
    assert.equal((await control('DELETE', 'requests')).status, 200);
    assert.equal(server.requests.length, 0);
    await call(server, 'GET', '/app/clients.json');
    await control('POST', 'faults', { status: 500 });
    assert.equal((await control('POST', 'reset')).status, 200);
    assert.equal(server.requests.length, 0);
    assert.equal((await call(server, 'GET', '/app/clients.json')).status, 200);
    assert.equal((await control('GET', 'nothing')).status, 404);
  });
});

describe('recording', () => {
  it('records method, path, query, parsed body and lower-cased headers, in order', async () => {
    await call(server, 'GET', '/app/clients.json', { query: { page: 3, name: 'Ac me' } });
    await call(server, 'POST', '/app/contact_lists.json', { body: { contact_list: { name: 'Rec' } } });
    await call(server, 'POST', '/app/clients.json', { raw: 'not json' });
    const [get, post, broken] = server.requests;
    assert.equal(server.requests.length, 3);
    assert.equal(get!.method, 'GET');
    assert.equal(get!.path, '/app/clients.json');
    assert.equal(get!.query.page, '3');
    assert.equal(get!.query.name, 'Ac me');
    assert.ok(get!.query.api_token === server.token, 'the query token is recorded decoded');
    assert.equal(get!.body, null);
    assert.equal(get!.headers.accept, 'application/json');
    assert.deepEqual((post!.body as Json).contact_list, { name: 'Rec' });
    assert.match(post!.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(post!.query, {});
    assert.equal(broken!.body, 'not json');
    for (const request of server.requests) for (const name of Object.keys(request.headers)) assert.equal(name, name.toLowerCase());
  });
});

describe('demo data', () => {
  let demo: StandIn;
  before(async () => {
    demo = await startStandIn({ seed: 'demo' });
  });
  after(() => demo.close());

  it('has the promised counts, every kind and task_kind, some closed posts', () => {
    const posts = demo.store.list(demo.prefix, 'posts');
    const topLevel = posts.filter((p) => p.post_id === null);
    const deals = demo.store.list(demo.prefix, 'deals');
    assert.equal(demo.store.list(demo.prefix, 'clients').length, 20);
    // 60 of every kind and task_kind, and the 5 hostile e-mails; 15 answers of the team, 3 replies by mail.
    assert.equal(topLevel.length, 65);
    assert.equal(posts.length - topLevel.length, 18);
    assert.equal(deals.length, 12);
    assert.equal(deals.filter((d) => d.client_id === null).length, 3);
    assert.equal(demo.store.list(demo.prefix, 'contacts').length, 10);
    assert.equal(demo.store.list(demo.prefix, 'contact_lists').length, 3);
    assert.deepEqual(new Set(topLevel.map((p) => p.kind).filter(Boolean)), new Set(POST_KINDS));
    assert.deepEqual(new Set(topLevel.map((p) => p.task_kind).filter(Boolean)), new Set(TASK_KINDS));
    const closed = topLevel.filter((p) => p.closed).length;
    assert.ok(closed > 0 && closed < topLevel.length, `${closed} closed`);
    assert.ok(
      topLevel.some((p) => p.content?.includes('```')),
      'some contents have code blocks',
    );
    assert.ok(demo.store.list(demo.prefix, 'clients').some((c) => c.external_ids !== null));
  });

  it('comments_cache matches the comments; dates are before the fixed demo date', () => {
    const posts = demo.store.list(demo.prefix, 'posts');
    for (const post of posts.filter((p) => p.post_id === null)) {
      assert.equal(post.comments_cache, posts.filter((c) => c.post_id === post.id).length, `post ${post.id}`);
    }
    assert.ok(posts.every((p) => p.post_id === null || p.task_kind === 'comment'));
    for (const post of posts) {
      assert.match(post.created_at, TIME);
      assert.ok(Date.parse(post.created_at) <= DEMO_NOW, post.created_at);
    }
    const days = new Set(posts.map((p) => p.created_at.slice(0, 10)));
    assert.ok(days.size > 20, 'spread over several weeks');
  });

  it('is the same every time', async () => {
    const other = await startStandIn({ seed: 'demo' });
    try {
      const records = (s: StandIn) => {
        const { users: _users, created_at: _created, ...rest } = s.store.toJSON().accounts[0]!;
        return rest;
      };
      assert.deepEqual(records(other), records(demo));
    } finally {
      await other.close();
    }
  });

  it('is served over the API', async () => {
    const helpdesk = await call(demo, 'GET', '/app.json', { query: { per_page: 100 } });
    assert.equal(helpdesk.json.length, 65);
    const tasks = await call(demo, 'GET', '/app/tasks.json', { query: { per_page: 100 } });
    assert.equal(tasks.json.length, 50);
  });
});

describe('large-account generator', () => {
  it('10,000 posts, pageable through the API', async () => {
    const big = await startStandIn({ seed: { posts: 10_000 } });
    try {
      const posts = big.store.list(big.prefix, 'posts');
      assert.equal(posts.length, 10_000);
      assert.equal(big.store.list(big.prefix, 'clients').length, 200);
      const last = await call(big, 'GET', '/app.json', { query: { page: 100, per_page: 100 } });
      assert.equal(last.json.length, 100);
      assert.equal(last.json[99].id, posts[9_999]!.id);
      assert.deepEqual((await call(big, 'GET', '/app.json', { query: { page: 101, per_page: 100 } })).json, []);
      assert.equal((await call(big, 'GET', '/app.json', { query: { order: 'id.desc' } })).json[0].title, 'Integration help #10000');
    } finally {
      await big.close();
    }
  });

  it('is deterministic and takes a client count; 50,000 posts work', async () => {
    const a = await startStandIn({ seed: { posts: 300, clients: 7 } });
    const b = await startStandIn({ seed: { posts: 300, clients: 7 } });
    const huge = await startStandIn({ seed: { posts: 50_000, clients: 10 } });
    try {
      assert.equal(a.store.list(a.prefix, 'clients').length, 7);
      assert.deepEqual(a.store.list(a.prefix, 'posts'), b.store.list(b.prefix, 'posts'));
      assert.equal(huge.store.list(huge.prefix, 'posts').length, 50_000);
    } finally {
      await Promise.all([a.close(), b.close(), huge.close()]);
    }
  });
});
