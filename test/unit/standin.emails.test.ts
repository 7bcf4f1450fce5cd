import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStandIn, type ProfileName, type StandIn } from '../server';
import { HOSTILE_GLOBALS, HIDDEN_MARKER } from '../server/demoEmails';
import { DEMO_HOSTILE } from '../server/demoPosts';
import { call, type Json } from './standinCall';

/* The demo's e-mails on every profile: the same HTML content, with `use_html` sent as a boolean
 * (likely), a string (contrary) or not at all (sparse), so that the extension is shown right on
 * each side of what the service notes leave open. */

const servers = {} as Record<ProfileName, StandIn>;
before(async () => {
  for (const profile of ['likely', 'contrary', 'sparse'] as const) servers[profile] = await startStandIn({ seed: 'demo', profile });
});
after(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

const stored = (server: StandIn) => server.store.list(server.prefix, 'posts');
const isHtml = (content: unknown) => typeof content === 'string' && /^\s*<(!doctype|html|div|p)\b/i.test(content);

describe('the demo e-mails', () => {
  it('every profile holds HTML e-mails, HTML comments, a plain e-mail and the hostile corpus, the same in each', () => {
    for (const server of Object.values(servers)) {
      const posts = stored(server);
      const emails = posts.filter((p) => p.task_kind === 'email');
      assert.ok(emails.filter((p) => p.use_html === true && isHtml(p.content)).length >= 9, `${server.profile.name}: HTML e-mails`);
      const plain = emails.filter((p) => p.use_html === false);
      assert.equal(plain.length, 1, 'one plain-text e-mail');
      assert.match(plain[0]!.content!, /<Reference>/, 'whose text holds what looks like a tag');
      const htmlComments = posts.filter((p) => p.task_kind === 'comment' && p.use_html === true);
      assert.equal(htmlComments.length, 3);
      assert.ok(htmlComments.every((c) => typeof c.content === 'string' && c.content.includes('</')));
      for (const { title } of DEMO_HOSTILE)
        assert.ok(
          emails.some((p) => p.title === title),
          title,
        );
      const corpus = emails.map((p) => p.content).join('\n');
      for (const attack of [
        '<script>',
        'onerror=',
        'javascript:',
        'data:text/html',
        'vbscript:',
        '<iframe',
        '<object',
        '<form',
        '<svg',
        'http-equiv="refresh"',
        '<base ',
        '&#x6A;',
        '\u202E',
        '\u200B',
      ])
        assert.ok(corpus.includes(attack), attack);
      assert.ok(corpus.includes(HIDDEN_MARKER) && HOSTILE_GLOBALS.every((name) => corpus.includes(name) || name === 'hbPwned13'));
      assert.ok(
        emails.some((p) => (p.content?.length ?? 0) >= 999_000 && p.content!.startsWith('<div><div>')),
        'a megabyte of nesting',
      );
      assert.deepEqual(
        emails.map((p) => [p.id, p.title, p.content]),
        stored(servers.likely)
          .filter((p) => p.task_kind === 'email')
          .map((p) => [p.id, p.title, p.content]),
        'the same content in every profile',
      );
    }
  });

  it('posts and comments are numbered in the order they were written; the hostile e-mails among the oldest, not on the first page', () => {
    const posts = stored(servers.likely);
    const times = posts.map((p) => Date.parse(p.created_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'ids in the order of creation',
    );
    assert.ok(
      posts.every((p) => p.post_id === null || p.post_id < p.id),
      'a comment after its post',
    );
    const topLevel = posts.filter((p) => p.post_id === null);
    const hostile = new Set(DEMO_HOSTILE.map((h) => h.title));
    assert.equal(topLevel.filter((p) => hostile.has(p.title!)).length, DEMO_HOSTILE.length);
    assert.ok(
      topLevel.slice(-50).every((p) => !hostile.has(p.title!)),
      'not among the 50 newest',
    );
    assert.ok(posts.slice(-20).filter((p) => p.post_id === null).length >= 10, 'the newest records are mostly posts, as in a service');
  });
});

describe('use_html as each profile sends it', () => {
  const read = async (server: StandIn, id: number): Promise<Json> => (await call(server, 'GET', `/app/posts/${id}.json`)).json;
  const emailIds = (server: StandIn) => ({
    html: stored(server).find((p) => p.task_kind === 'email' && p.use_html === true && p.id % 2 === 0)!.id,
    htmlOdd: stored(server).find((p) => p.task_kind === 'email' && p.use_html === true && p.id % 2 === 1)!.id,
    plain: stored(server).find((p) => p.task_kind === 'email' && p.use_html === false)!.id,
  });

  it('likely: a boolean, in the record, the lists and the answer to a create', async () => {
    const server = servers.likely;
    const { html, plain } = emailIds(server);
    assert.equal((await read(server, html)).use_html, true);
    assert.equal((await read(server, plain)).use_html, false);
    const list = (await call(server, 'GET', '/app.json', { query: { per_page: 100 } })).json as Json[];
    assert.ok(list.every((p) => typeof p.use_html === 'boolean'));
    const created = (await call(server, 'POST', '/app/posts.json', { body: { post: { title: 'x', content: '<p>x</p>', use_html: true } } }))
      .json;
    assert.equal(created.use_html, true);
  });

  it('contrary: a string, "1"/"0" or "true"/"false", wherever a post is answered; stored as a boolean', async () => {
    const server = servers.contrary;
    const { html, htmlOdd, plain } = emailIds(server);
    assert.equal((await read(server, html)).use_html, '1');
    assert.equal((await read(server, htmlOdd)).use_html, 'true');
    assert.ok(['0', 'false'].includes((await read(server, plain)).use_html));
    const list = (await call(server, 'GET', '/app.json', { query: { per_page: 25 } })).json as Json[];
    assert.ok(
      list.length > 0 && list.every((p) => ['1', '0', 'true', 'false'].includes(p.use_html)),
      JSON.stringify(list.map((p) => p.use_html)),
    );
    const created = (await call(server, 'POST', '/app/posts.json', { body: { post: { title: 'x', content: '<p>x</p>', use_html: '1' } } }))
      .json;
    assert.ok(['1', 'true'].includes(created.use_html));
    assert.equal(server.store.get(server.prefix, 'posts', created.id)!.use_html, true);
    const updated = await call(server, 'PUT', `/app/posts/${created.id}.json`, { body: { post: { closed: true } } });
    assert.ok(['1', 'true'].includes(updated.json.use_html), updated.text);
  });

  it('sparse: not at all, while the e-mails are HTML all the same', async () => {
    const server = servers.sparse;
    const { html } = emailIds(server);
    const post = await read(server, html);
    assert.equal('use_html' in post, false);
    assert.ok(isHtml(post.content));
    const list = (await call(server, 'GET', '/app/tasks.json', { query: { per_page: 100 } })).json as Json[];
    assert.ok(list.every((p) => !('use_html' in p)));
    assert.ok(
      list.some((p) => p.task_kind === 'email' && isHtml(p.content)),
      'the abstract of an e-mail is HTML too',
    );
  });
});
