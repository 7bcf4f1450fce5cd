import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PROFILES, startStandIn, type ProfileName, type StandIn } from '../server';
import { presentedPost } from '../server/profile';
import { call, type Json } from './standinCall';

/* The stand-in's profiles, over real HTTP: `likely` takes the side the service notes find
 * likely, `contrary` the other side of each, `sparse` lists less than it stores
 * (test/server/profile.ts). All seeded with the demo. */

const ids = (list: Json[]): number[] => list.map((record) => record.id);
const ascending = (list: number[]) => list.every((id, i) => i === 0 || list[i - 1]! < id);
const descending = (list: number[]) => list.every((id, i) => i === 0 || list[i - 1]! > id);

const servers = {} as Record<ProfileName, StandIn>;
before(async () => {
  servers.likely = await startStandIn({ seed: 'demo' });
  servers.contrary = await startStandIn({ seed: 'demo', profile: 'contrary' });
  servers.sparse = await startStandIn({ seed: 'demo', profile: 'sparse' });
});
after(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

describe('stand-in profiles', () => {
  it('the default profile is likely; each server says which it is', async () => {
    assert.equal(servers.likely.profile, PROFILES.likely);
    assert.equal(servers.contrary.profile, PROFILES.contrary);
    const plain = await startStandIn();
    try {
      assert.equal(plain.profile.name, 'likely');
    } finally {
      await plain.close();
    }
  });

  it("author: likely and contrary name the token's user as the author of a post created through the API; sparse names none", async () => {
    for (const name of ['likely', 'contrary', 'sparse'] as const) {
      const server = servers[name];
      const owner = server.store.account(server.prefix).users[0]!;
      const created = (
        await call(server, 'POST', '/app/posts.json', {
          body: { post: { title: 'Who wrote this?', content: 'Me.', task_kind: 'task', user_id: 99, nick: 'someone' } },
        })
      ).json;
      const named = name !== 'sparse';
      assert.deepEqual([created.user_id, created.nick], named ? [owner.id, 'owner'] : [99, 'someone'], name);
      const stored = server.store.get(server.prefix, 'posts', created.id)!;
      assert.deepEqual([stored.user_id, stored.nick], [created.user_id, created.nick], `${name}: as stored`);
    }
    const demo = servers.likely.store.list(servers.likely.prefix, 'posts');
    assert.ok(
      demo.some((post) => post.user_id === 1 && post.nick === 'owner'),
      "some demo posts are the token user's",
    );
    assert.ok(
      demo.some((post) => post.responsible_id === 1),
      'some demo posts are assigned to the token user',
    );
  });

  it('order: likely sorts by order=field.desc; contrary ignores it and lists in id order', async () => {
    for (const path of ['/app.json', '/app/clients.json', '/app/deals.json']) {
      const likely = ids((await call(servers.likely, 'GET', path, { query: { order: 'id.desc', per_page: 25 } })).json);
      const contrary = ids((await call(servers.contrary, 'GET', path, { query: { order: 'id.desc', per_page: 25 } })).json);
      assert.ok(likely.length > 1 && descending(likely), `${path} likely: ${likely.join(',')}`);
      assert.ok(contrary.length > 1 && ascending(contrary), `${path} contrary: ${contrary.join(',')}`);
    }
    const byName = (await call(servers.likely, 'GET', '/app/clients.json', { query: { order: 'name', per_page: 100 } })).json.map(
      (c: Json) => c.name,
    );
    assert.deepEqual(byName, [...byName].sort());
    assert.ok(ascending(ids((await call(servers.contrary, 'GET', '/app/clients.json', { query: { order: 'name', per_page: 100 } })).json)));
  });

  it('deals: likely filters by client_id; contrary ignores the filter and lists every deal', async () => {
    const all = servers.likely.store.list(servers.likely.prefix, 'deals');
    const clientId = all.find((deal) => deal.client_id !== null)!.client_id!;
    const likely = (await call(servers.likely, 'GET', '/app/deals.json', { query: { client_id: clientId, per_page: 100 } })).json;
    assert.ok(likely.length > 0);
    assert.ok(likely.every((deal: Json) => deal.client_id === clientId));
    const contrary = (await call(servers.contrary, 'GET', '/app/deals.json', { query: { client_id: clientId, per_page: 100 } })).json;
    assert.equal(contrary.length, servers.contrary.store.list(servers.contrary.prefix, 'deals').length);
    assert.ok(contrary.some((deal: Json) => deal.client_id !== clientId));
  });

  it('page size: likely holds up to 100 a page; contrary at most 25, whatever per_page asks, and pages on', async () => {
    const likely = (await call(servers.likely, 'GET', '/app.json', { query: { per_page: 100 } })).json;
    assert.ok(likely.length > 25, `${likely.length}`);
    const contrary = servers.contrary;
    const pages: number[][] = [];
    for (let page = 1; page < 10; page++) {
      const answer = ids((await call(contrary, 'GET', '/app.json', { query: { per_page: 100, page } })).json);
      pages.push(answer);
      if (answer.length === 0) break;
    }
    const sizes = pages.map((page) => page.length);
    assert.equal(sizes[0], 25);
    assert.ok(
      sizes.every((size) => size <= 25),
      sizes.join(','),
    );
    assert.equal(sizes.at(-1), 0, 'a page past the end is empty');
    const listed = pages.flat();
    assert.equal(new Set(listed).size, listed.length, 'no record twice across pages');
    assert.equal(listed.length, contrary.store.list(contrary.prefix, 'posts').length, 'every post, comments included, over the pages');
    assert.equal(
      (await call(contrary, 'GET', '/app/clients.json', { query: { per_page: 10 } })).json.length,
      10,
      'fewer than 25 asked: as asked',
    );
  });

  it('comments: likely leaves them out of /app.json; contrary lists them beside the other posts', async () => {
    const likely = (await call(servers.likely, 'GET', '/app.json', { query: { per_page: 100 } })).json;
    assert.ok(likely.length > 0 && likely.every((post: Json) => post.post_id === null));
    const contrary: Json[] = [];
    for (let page = 1; ; page++) {
      const answer = (await call(servers.contrary, 'GET', '/app.json', { query: { per_page: 25, page } })).json;
      if (answer.length === 0) break;
      contrary.push(...answer);
    }
    const comments = contrary.filter((post) => post.post_id !== null);
    assert.ok(comments.length > 0);
    assert.ok(comments.every((comment) => comment.task_kind === 'comment'));
    assert.equal(contrary.length - comments.length, likely.length, 'the same other posts');
  });

  it('titles: likely takes a comment without a title; contrary refuses it (422 naming title), and takes one with a title', async () => {
    for (const name of ['likely', 'contrary'] as const) {
      const server = servers[name];
      const parent = await call(server, 'POST', '/app/posts.json', { body: { post: { title: 'Parent', task_kind: 'task' } } });
      assert.equal(parent.status, 201, parent.text);
      const untitled = await call(server, 'POST', '/app/posts.json', {
        body: { post: { post_id: parent.json.id, task_kind: 'comment', content: 'No title' } },
      });
      const titled = await call(server, 'POST', '/app/posts.json', {
        body: { post: { post_id: parent.json.id, task_kind: 'comment', title: 'Re: Parent', content: 'With a title' } },
      });
      assert.equal(titled.status, 201, `${name}: ${titled.text}`);
      assert.equal(titled.json.title, 'Re: Parent');
      if (name === 'likely') {
        assert.equal(untitled.status, 201, untitled.text);
      } else {
        assert.equal(untitled.status, 422, untitled.text);
        assert.equal(untitled.json.code, 'error');
        assert.deepEqual(Object.keys(untitled.json.message), ['title']);
        assert.equal(
          (await call(server, 'GET', `/app/posts/${parent.json.id}.json`)).json.comments_cache,
          1,
          'the refused comment was not made',
        );
      }
      const task = await call(server, 'POST', '/app/posts.json', { body: { post: { content: 'A task without a title' } } });
      assert.equal(task.status, 422, `${name}: every other post needs a title in both`);
    }
  });

  it('delete: likely answers the JSON string "ok"; contrary an empty 200, and the record is gone in both', async () => {
    for (const name of ['likely', 'contrary'] as const) {
      const server = servers[name];
      const client = await call(server, 'POST', '/app/clients.json', { body: { client: { name: `Short-lived ${name}` } } });
      assert.equal(client.status, 201, client.text);
      const deleted = await call(server, 'DELETE', `/app/clients/${client.json.id}.json`);
      assert.equal(deleted.status, 200);
      if (name === 'likely') assert.equal(deleted.json, 'ok');
      else assert.equal(deleted.text, '');
      assert.equal((await call(server, 'GET', `/app/clients/${client.json.id}.json`)).status, 404);
    }
  });
});

describe('the sparse profile: lists less than it stores', () => {
  it('/app.json leaves out posts with only a kind (bug reports), and cuts content to an abstract; a post read alone is whole', async () => {
    const server = servers.sparse;
    const long = 'x'.repeat(300) + '\n\nSent from VS Code · hb-0123456789';
    const bug = await call(server, 'POST', '/app/posts.json', { body: { post: { title: 'A bug', content: 'Crash', kind: 'error' } } });
    const task = await call(server, 'POST', '/app/posts.json', { body: { post: { title: 'A task', content: long, task_kind: 'task' } } });
    assert.equal(bug.status, 201, bug.text);
    assert.equal(task.status, 201, task.text);
    const listed = (await call(server, 'GET', '/app.json', { query: { per_page: 100, order: 'id.desc' } })).json;
    assert.ok(!listed.some((post: Json) => post.id === bug.json.id), 'the bug report is not listed');
    const shown = listed.find((post: Json) => post.id === task.json.id);
    assert.equal(shown.content, long.slice(0, 250));
    assert.equal((await call(server, 'GET', `/app/posts/${task.json.id}.json`)).json.content, long);
    assert.equal((await call(server, 'GET', `/app/posts/${bug.json.id}.json`)).json.kind, 'error');
    const likely = (await call(servers.likely, 'GET', '/app.json', { query: { per_page: 100 } })).json;
    assert.ok(
      likely.some((post: Json) => post.kind === 'error' && post.task_kind === null),
      'likely lists bug reports',
    );
  });

  it('refuses order=….asc with 422, takes order=id and order=id.desc', async () => {
    const server = servers.sparse;
    const refused = await call(server, 'GET', '/app.json', { query: { order: 'id.asc', per_page: 5 } });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.json.code, 'error');
    assert.ok(ascending(ids((await call(server, 'GET', '/app.json', { query: { order: 'id', per_page: 5 } })).json)));
    assert.ok(descending(ids((await call(server, 'GET', '/app.json', { query: { order: 'id.desc', per_page: 5 } })).json)));
    assert.equal((await call(servers.likely, 'GET', '/app.json', { query: { order: 'id.asc', per_page: 5 } })).status, 200);
  });

  it('answers a page past the end with 404; an empty first page is still []', async () => {
    const server = servers.sparse;
    const past = await call(server, 'GET', '/app/clients.json', { query: { page: 99, per_page: 100 } });
    assert.equal(past.status, 404, past.text);
    assert.equal((await call(servers.likely, 'GET', '/app/clients.json', { query: { page: 99, per_page: 100 } })).status, 200);
    const empty = await startStandIn({ seed: 'empty', profile: 'sparse' });
    try {
      const first = await call(empty, 'GET', '/app.json');
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json, []);
    } finally {
      await empty.close();
    }
  });

  it('the other ways a list may hand content back: left out, cut at 65,535, a trailing "Sent from" line stripped', async () => {
    const { listedContent } = await import('../server/profile');
    const content = `${'y'.repeat(70_000)}\n\nSent from VS Code · hb-0123456789`;
    assert.equal(listedContent(content, 'omitted'), undefined);
    assert.equal((listedContent(content, 'cut') as string).length, 65_535);
    assert.equal(listedContent(content, 'unsigned'), 'y'.repeat(70_000));
    assert.equal(listedContent(content, 'full'), content);
  });
});

describe('statuses (both profiles)', () => {
  for (const name of ['likely', 'contrary'] as const) {
    it(`${name}: GET /app/statuses.json lists every status, and kind= keeps one kind`, async () => {
      const server = servers[name];
      const all = await call(server, 'GET', '/app/statuses.json');
      assert.equal(all.status, 200, all.text);
      assert.ok(Array.isArray(all.json));
      const kinds = new Set(all.json.map((status: Json) => status.kind));
      assert.ok(kinds.has('post') && kinds.has('deal'), [...kinds].join(','));
      for (const status of all.json) {
        assert.ok(Number.isSafeInteger(status.id) && status.id > 0);
        assert.equal(typeof status.code, 'string');
        assert.equal(typeof status.name, 'string');
      }
      for (const kind of ['post', 'deal']) {
        const some = (await call(server, 'GET', '/app/statuses.json', { query: { kind } })).json;
        assert.ok(some.length > 0);
        assert.ok(
          some.every((status: Json) => status.kind === kind),
          kind,
        );
        assert.deepEqual(ids(some), ids(all.json.filter((status: Json) => status.kind === kind)));
      }
      assert.deepEqual((await call(server, 'GET', '/app/statuses.json', { query: { kind: 'nothing' } })).json, []);
      assert.equal((await fetch(`${server.url}/app/statuses.json`)).status, 401, 'a token is needed');
    });
  }

  it("the demo posts' status_id points to a post status, or is null", async () => {
    const postStatuses = new Set(ids((await call(servers.likely, 'GET', '/app/statuses.json', { query: { kind: 'post' } })).json));
    const posts = servers.likely.store.list(servers.likely.prefix, 'posts').filter((post) => post.post_id === null);
    assert.ok(posts.some((post) => post.status_id !== null) && posts.some((post) => post.status_id === null));
    for (const post of posts)
      assert.ok(post.status_id === null || postStatuses.has(Number(post.status_id)), `post ${post.id}: ${String(post.status_id)}`);
  });

  it('PUT /app/posts/<id>.json: likely and contrary change only what is sent and answer the whole record (updated_at moved); sparse answers 404 and changes nothing', async () => {
    for (const name of ['likely', 'contrary', 'sparse'] as const) {
      const server = servers[name];
      const post = server.store.list(server.prefix, 'posts').find((p) => p.post_id === null && p.closed === false)!;
      const before = { ...post };
      const answer = await call(server, 'PUT', `/app/posts/${post.id}.json`, { body: { post: { closed: true, status_id: 2 } } });
      const stored = server.store.get(server.prefix, 'posts', post.id)!;
      if (name === 'sparse') {
        assert.equal(answer.status, 404, answer.text);
        assert.equal(answer.json.code, 'error');
        assert.deepEqual(stored, before, 'nothing changed');
        continue;
      }
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
      assert.deepEqual(Object.keys(answer.json), Object.keys(before), `${name}: the whole record`);
      assert.deepEqual([answer.json.closed, answer.json.status_id, answer.json.title], [true, 2, before.title]);
      assert.notEqual(answer.json.updated_at, before.updated_at);
      // As stored, but for use_html, which contrary sends as a string.
      assert.deepEqual(presentedPost(stored, server.profile.useHtml), answer.json);
      const fixed = await call(server, 'PUT', `/app/posts/${post.id}.json`, {
        body: { post: { post_id: 1, task_kind: 'comment', title: ' ' } },
      });
      assert.equal(fixed.status, 422);
      assert.deepEqual(Object.keys(fixed.json.message).sort(), ['post_id', 'task_kind', 'title']);
      assert.equal((await call(server, 'PUT', '/app/posts/999999.json', { body: { post: { closed: true } } })).status, 404);
    }
  });
});
