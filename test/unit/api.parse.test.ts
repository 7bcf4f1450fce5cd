import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HelpdeskClient, SHAPES, type Client, type Deal, type Post, type Status } from '../../src/api';
import { asPage, asRecord } from '../../src/api/parse';

/* The tolerant reader (src/api/parse.ts): what a real account may send besides the bare record
 * and the plain array, read as the normal record; what it may not, refused or left out. */

const readPost = asRecord<Post>(SHAPES.post);
const readPosts = asPage<Post>(SHAPES.post);

/** The post as the service's own shape has it: what every accepted spelling must read as. */
const NORMAL: Post = { id: 42, title: 'Crash in parser', client_id: 7, comments_cache: 3, closed: true, private: false, status_id: null };

/** The message of what `run` throws; fails when it throws nothing. */
function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof Error && error.constructor === Error, `a plain Error, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected it to throw');
}

describe('tolerant reader: accepted spellings read as the normal record', () => {
  it('the bare record, as it came', () => {
    assert.deepEqual(readPost({ ...NORMAL }), NORMAL);
  });

  it('the record in an envelope under its own key', () => {
    assert.deepEqual(readPost({ post: { ...NORMAL } }), NORMAL);
    assert.deepEqual(asRecord<Client>(SHAPES.client)({ client: { id: 5, name: 'Acme' } }), { id: 5, name: 'Acme' });
    assert.deepEqual(asRecord<Deal>(SHAPES.deal)({ deal: { id: 6, client_id: 5 } }), { id: 6, client_id: 5 });
  });

  it('an object with an id of its own is the record, even with a field named like the envelope', () => {
    assert.deepEqual(readPost({ id: 9, post: { id: 10 } }), { id: 9, post: { id: 10 } });
  });

  it('a list in an envelope under the plural', () => {
    assert.deepEqual(readPosts({ posts: [{ ...NORMAL }, { id: 43 }] }), { items: [NORMAL, { id: 43 }], received: 2 });
    assert.deepEqual(asPage<Status>(SHAPES.status)({ statuses: [{ id: 1, name: 'New' }] }), {
      items: [{ id: 1, name: 'New' }],
      received: 1,
    });
  });

  it('list items in their own envelopes, mixed with bare ones', () => {
    assert.deepEqual(readPosts([{ post: { ...NORMAL } }, { id: 43 }]), { items: [NORMAL, { id: 43 }], received: 2 });
    assert.deepEqual(readPosts({ posts: [{ post: { ...NORMAL } }] }), { items: [NORMAL], received: 1 });
  });

  it('ids and counts as numeric strings', () => {
    assert.deepEqual(readPost({ ...NORMAL, id: '42', client_id: '7', comments_cache: '3' }), NORMAL);
    const numbers = readPost({ id: ' 8 ', points: '-2', priority: '2.5', view_count: '0', post_id: '0042' });
    assert.deepEqual(numbers, { id: 8, points: -2, priority: 2.5, view_count: 0, post_id: 42 });
    assert.deepEqual(asRecord<Client>(SHAPES.client)({ id: '5', posts_count: '12', responsible_id: '3' }), {
      id: 5,
      posts_count: 12,
      responsible_id: 3,
    });
    assert.deepEqual(asRecord<Deal>(SHAPES.deal)({ id: '6', client_id: '5', status_id: '4' }), { id: 6, client_id: 5, status_id: 4 });
  });

  const SPELLINGS: Array<[unknown, boolean]> = [
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    ['yes', true],
    ['no', false],
    ['1', true],
    ['0', false],
    [1, true],
    [0, false],
    ['TRUE', true],
    ['False', false],
    ['Yes', true],
    ['NO', false],
    [' yes ', true],
    ['\tfalse\n', false],
    [' 1', true],
  ];
  for (const [spelled, value] of SPELLINGS) {
    it(`the boolean ${JSON.stringify(spelled)} reads as ${value}`, () => {
      assert.deepEqual(readPost({ ...NORMAL, closed: spelled, private: spelled }), { ...NORMAL, closed: value, private: value });
      assert.deepEqual(asRecord<Client>(SHAPES.client)({ id: 5, company: spelled }), { id: 5, company: value });
    });
  }

  it('null stays null; fields the shape does not name are kept as they came, whatever they hold', () => {
    const odd = { nested: { closed: 'maybe' }, list: ['yes'], text: 'no' };
    const post = readPost({ id: 1, closed: null, client_id: null, comments_cache: null, ...odd });
    assert.equal('title' in post, false, 'nothing added');
    assert.deepEqual(post, { id: 1, closed: null, client_id: null, comments_cache: null, ...odd });
  });

  it('the same over the wire: a GET answering envelopes and spellings gives the normal records', async () => {
    const answers: Record<string, unknown> = {
      '/app/posts/42.json': { post: { ...NORMAL, id: '42', client_id: '7', closed: 'yes', private: '0', comments_cache: '3' } },
      '/app.json': { posts: [{ post: { id: '42', closed: 'Yes' } }, { id: 43, closed: 0 }] },
      '/app/statuses.json': { statuses: [{ status: { id: '2', name: 'In progress', kind: 'post' } }] },
    };
    const api = new HelpdeskClient({
      accountUrl: 'http://127.0.0.1:9',
      token: 'secretToken123/acme',
      retryLimit: 0,
      fetch: async (input) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        return new Response(JSON.stringify(answers[path]), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    assert.deepEqual(await api.posts.get(42), NORMAL);
    assert.deepEqual(await api.posts.listHelpdesk(), {
      items: [
        { id: 42, closed: true },
        { id: 43, closed: false },
      ],
      received: 2,
    });
    assert.deepEqual(await api.statuses('post'), [{ id: 2, name: 'In progress', kind: 'post' }]);
  });
});

describe('tolerant reader: what it refuses', () => {
  const SECRET = 'abc<script>leak()</script>';

  it('an id that is not a positive whole number: the record is refused, with a message that quotes nothing sent', () => {
    for (const id of ['abc', SECRET, '0', '-3', '1.5', '', ' ', '12345678901234567', 0, -3, 1.5, null, true, [], {}]) {
      const message = thrown(() => readPost({ ...NORMAL, id }));
      assert.equal(message, 'a post record with a positive whole id', JSON.stringify(id));
    }
    const page = readPosts([{ id: 'abc', title: SECRET }, { id: 2 }]);
    assert.deepEqual(page, { items: [{ id: 2 }], received: 2 }, 'in a page: skipped, still counted');
  });

  it('an envelope under another key is not the record: {"deal": {...}} read as a post is refused', () => {
    assert.equal(
      thrown(() => readPost({ deal: { id: 6, name: 'Support plan' } })),
      'a post record with a positive whole id',
    );
    assert.equal(
      thrown(() => readPost({ posts: { id: 6 } })),
      'a post record with a positive whole id',
      'nor the plural',
    );
    assert.deepEqual(readPosts([{ deal: { id: 6 } }, { post: { id: 7 } }]), { items: [{ id: 7 }], received: 2 });
    assert.equal(
      thrown(() => readPosts({ deals: [{ id: 6 }] })),
      'a list of posts, got an object',
    );
    assert.equal(
      thrown(() => readPosts({ post: [{ id: 6 }] })),
      'a list of posts, got an object',
      'a list under the singular is not one either',
    );
  });

  it('not a record, not a list: the message names the type, never the text', () => {
    assert.equal(
      thrown(() => readPost(SECRET)),
      'a post record, got a string',
    );
    assert.equal(
      thrown(() => readPost([{ id: 1 }])),
      'a post record, got a list',
    );
    assert.equal(
      thrown(() => readPost(null)),
      'a post record, got null',
    );
    assert.equal(
      thrown(() => readPosts(SECRET)),
      'a list of posts, got a string',
    );
    assert.equal(
      thrown(() => readPosts(12)),
      'a list of posts, got 12',
    );
  });

  it('a known field it cannot read (closed: "maybe", an id "abc") is left out, never guessed; the record stays', () => {
    const post = readPost({
      ...NORMAL,
      closed: 'maybe',
      private: 2,
      client_id: 'abc',
      comments_cache: 'three',
      status_id: SECRET,
      unread: 'yes',
    });
    assert.deepEqual(post, { id: 42, title: 'Crash in parser', unread: true });
    assert.ok(!JSON.stringify(post).includes('maybe') && !JSON.stringify(post).includes('leak'));
    for (const closed of ['maybe', 'y', 'n', 'on', 'off', 'truthy', '', 2, -1, 0.5, [], {}, [true]]) {
      assert.equal('closed' in readPost({ id: 1, closed }), false, JSON.stringify(closed));
    }
    for (const count of ['1e3', '0x10', '', '12abc', 'NaN', [], {}, true]) {
      assert.equal('comments_cache' in readPost({ id: 1, comments_cache: count }), false, JSON.stringify(count));
    }
  });
});
