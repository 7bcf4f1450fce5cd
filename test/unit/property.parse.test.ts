import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertNoToken } from './support';
import { ApiError, HelpdeskClient, SHAPES, type Post } from '../../src/api';
import { asPage, asRecord } from '../../src/api/parse';
import { brokenText, hostileRecord } from './hostile';

const POST_FIELDS = [
  'title',
  'content',
  'kind',
  'task_kind',
  'closed',
  'private',
  'created_at',
  'updated_at',
  'client_id',
  'status_id',
  'comments_cache',
  'priority',
  'unknown_field',
];
const POST = SHAPES.post;
const readPost = asRecord<Post>(POST);
const readPosts = asPage<Post>(POST);

const validId = (id: unknown): boolean => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any JSON value, and lists of records of every quality, bare or in their envelopes. */
const answer = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(
    fc.oneof(
      { weight: 4, arbitrary: hostileRecord(POST_FIELDS) },
      { weight: 1, arbitrary: hostileRecord(POST_FIELDS).map((post) => ({ post })) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    ),
    { maxLength: 12 },
  ),
  fc.array(hostileRecord(POST_FIELDS), { maxLength: 8 }).map((posts) => ({ posts })),
);

/** What `describe` may say of a value: its type, or a number or boolean as such, never a string's text. */
const GOT = String.raw`(?:null|a list|an object|a string|a undefined|true|false|NaN|-?Infinity|-?\d+(?:\.\d+)?(?:e[+-]\d+)?)`;
/** Every message the reader may throw for a post: from a fixed vocabulary, so it can quote nothing the server sent. */
const REFUSAL = new RegExp(`^(?:a post record, got ${GOT}|a post record with a positive whole id)$`);

/** The list in an answer, as the reader finds it: a plain array, or an array under the plural. */
const listIn = (value: unknown): unknown[] | undefined =>
  Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.posts) ? value.posts : undefined;

function tryRead(value: unknown): Post | undefined {
  try {
    return readPost(value);
  } catch {
    return undefined;
  }
}

/** A post's known fields are of their type once read. */
function assertTyped(post: Record<string, unknown>): void {
  assert.ok(validId(post.id));
  for (const field of POST.ids) if (field in post && post[field] !== null) assert.ok(validId(post[field]), field);
  for (const field of POST.numbers)
    if (field in post && post[field] !== null) assert.ok(typeof post[field] === 'number' && Number.isFinite(post[field]), field);
  for (const field of POST.booleans) if (field in post && post[field] !== null) assert.equal(typeof post[field], 'boolean', field);
}

const KNOWN = new Set<string>([...POST.ids, ...POST.numbers, ...POST.booleans]);
/** Already in the canonical form: every known field null, or of its type. */
function canonical(record: Record<string, unknown>): boolean {
  if (!validId(record.id)) return false;
  for (const field of POST.ids) if (field in record && record[field] !== null && !validId(record[field])) return false;
  for (const field of POST.numbers)
    if (field in record && record[field] !== null && !(typeof record[field] === 'number' && Number.isFinite(record[field]))) return false;
  for (const field of POST.booleans) if (field in record && record[field] !== null && typeof record[field] !== 'boolean') return false;
  return true;
}

// Canonical posts, and the ways a service may spell the same post.
const id = fc.integer({ min: 1, max: 999_999_999_999_999 });
const count = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000_000 }),
  fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100),
);
const canonicalPost = fc.record(
  {
    id,
    client_id: fc.option(id, { nil: null }),
    post_id: fc.option(id, { nil: null }),
    status_id: fc.option(id, { nil: null }),
    comments_cache: fc.option(count, { nil: null }),
    priority: fc.option(count, { nil: null }),
    points: fc.option(count, { nil: null }),
    closed: fc.option(fc.boolean(), { nil: null }),
    private: fc.option(fc.boolean(), { nil: null }),
    unread: fc.option(fc.boolean(), { nil: null }),
    answered: fc.option(fc.boolean(), { nil: null }),
    use_html: fc.option(fc.boolean(), { nil: null }),
    title: fc.string(),
    unknown_field: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['id'], noNullPrototype: true },
);

/** A number as itself, or as its numeric string. */
const spellNumber = (n: number) => fc.constantFrom<unknown>(n, String(n));
/** Every accepted spelling of a boolean, in any case, with spaces around it or not. */
const spellBoolean = (b: boolean) =>
  fc
    .tuple(
      fc.constantFrom(...(b ? ['true', 'yes', '1'] : ['false', 'no', '0'])),
      fc.array(fc.boolean(), { maxLength: 5 }),
      fc.constantFrom('', ' ', '\t', '  '),
      fc.constantFrom('', ' ', '\n'),
    )
    .map(([word, upper, before, after]) => before + [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') + after)
    .chain((text) => fc.constantFrom<unknown>(b, b ? 1 : 0, text));

/** The same post, each known field in any accepted spelling, bare or in its envelope. */
function spelled(post: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.entries(post).map(([field, value]) =>
    (value === null || !KNOWN.has(field)
      ? fc.constant(value)
      : typeof value === 'boolean'
        ? spellBoolean(value)
        : spellNumber(value as number)
    ).map((v) => [field, v] as const),
  );
  return fc.tuple(...fields, fc.boolean()).map((parts) => {
    const record = Object.fromEntries(parts.slice(0, -1) as Array<readonly [string, unknown]>);
    return parts.at(-1) ? { post: record } : record;
  });
}

const TOKEN = '0a1b2c3d4e5f6a7b8c9d/acme';
/** The token as a service could echo it: whole, its secret part, URL-encoded, in another case. */
const tokenEcho = fc.constantFrom(
  TOKEN,
  TOKEN.split('/')[0]!,
  encodeURIComponent(TOKEN),
  encodeURIComponent(TOKEN).toLowerCase(),
  TOKEN.toUpperCase(),
);

/** A client whose every GET answers `text` with this status. */
function clientAnswering(text: string, contentType = 'application/json', status = 200): HelpdeskClient {
  return new HelpdeskClient({
    accountUrl: 'http://127.0.0.1:9',
    token: TOKEN,
    retryLimit: 0,
    fetch: async () => new Response(text, { status, headers: { 'content-type': contentType } }),
  });
}

describe('parsing answers (properties)', () => {
  it('asPage keeps each item asRecord reads, once per id, in order; skips the rest, but counts them', () => {
    fc.assert(
      fc.property(answer, (value) => {
        const list = listIn(value);
        if (!list) {
          assert.throws(
            () => readPosts(value),
            (error: Error) => error.constructor === Error && new RegExp(`^a list of posts, got ${GOT}$`).test(error.message),
          );
          return;
        }
        const page = readPosts(value);
        const seen = new Set<number>();
        const expected = list
          .map(tryRead)
          .filter((post): post is Post => post !== undefined && !seen.has(post.id) && Boolean(seen.add(post.id)));
        assert.deepEqual(page.items, expected);
        page.items.forEach((post) => assertTyped({ ...post }));
        assert.equal(page.received, list.length, 'every item the service sent is counted');
      }),
      { numRuns: 500 },
    );
  });

  it('asRecord reads a record with a positive whole id, fields typed or left out, the rest as it came; else a plain Error that quotes nothing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          hostileRecord(POST_FIELDS),
          hostileRecord(POST_FIELDS).map((post) => ({ post })),
        ),
        (value) => {
          const source: unknown = isRecord(value) && !('id' in value) && isRecord(value.post) ? value.post : value;
          let post: Post;
          try {
            post = readPost(value);
          } catch (error) {
            assert.ok(error instanceof Error && error.constructor === Error, String(error));
            assert.match(error.message, REFUSAL);
            assert.ok(!(isRecord(source) && validId(source.id)), 'a record with a good id is never refused');
            return;
          }
          assert.ok(isRecord(source));
          const read = post as unknown as Record<string, unknown>;
          assertTyped({ ...read });
          for (const field of Object.keys(read)) assert.ok(field in source, `${field} not added`);
          for (const [field, original] of Object.entries(source)) {
            if (!KNOWN.has(field)) assert.equal(read[field], original, `${field} kept as it came`);
            else if (!(field in read))
              assert.ok(original !== null && !canonical({ id: 1, [field]: original }), `${field} left out only when it could not be read`);
          }
          if (canonical(source)) assert.deepEqual(post, { ...source });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a post spelled any accepted way (numeric strings, yes/no/1/0/true/false in any case, envelopes) reads back as the canonical post', () => {
    fc.assert(
      fc.property(
        canonicalPost.chain((post) => fc.tuple(fc.constant(post), spelled(post))),
        ([post, rendered]) => {
          assert.deepEqual(readPost(rendered), { ...post });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a list of posts spelled any accepted way, bare or under "posts", reads back as the canonical list', () => {
    const posts = fc.uniqueArray(canonicalPost, { selector: (post) => post.id, maxLength: 8 });
    fc.assert(
      fc.property(
        posts.chain((list) => fc.tuple(fc.constant(list), fc.tuple(...list.map(spelled)), fc.boolean())),
        ([list, rendered, wrapped]) => {
          const page = readPosts(wrapped ? { posts: rendered } : rendered);
          assert.deepEqual(page, { items: list.map((post) => ({ ...post })), received: list.length });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a list call over the wire: valid records, or badResponse, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (value) => {
        const call = clientAnswering(JSON.stringify(value)).posts.listHelpdesk();
        const list = listIn(value);
        if (!list) {
          await assert.rejects(call, (error) => error instanceof ApiError && error.kind === 'badResponse');
          return;
        }
        const { items: posts, received } = await call;
        assert.ok(posts.every((post) => validId(post.id)));
        assert.equal(new Set(posts.map((post) => post.id)).size, posts.length, 'no id twice');
        assert.equal(received, list.length);
      }),
      { numRuns: 150 },
    );
  });

  it('any answer, even one that echoes the token: parsed, or an ApiError that holds no form of the token', async () => {
    // What a service may send back: broken text, any JSON, or either with the token inside
    // (as a value, a field name, an error message).
    const echoing = fc
      .tuple(fc.string({ maxLength: 20 }), tokenEcho, fc.string({ maxLength: 20 }))
      .map(([a, token, b]) => `${a}${token}${b}`);
    const texts = fc.oneof(
      brokenText(60),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      echoing,
      echoing.map((words) => JSON.stringify({ code: 'error', message: words })),
      fc.tuple(echoing, echoing).map(([field, words]) => JSON.stringify({ code: 'error', message: { [field]: [words] } })),
      echoing.map((words) => JSON.stringify({ id: words, title: words })),
    );
    await fc.assert(
      fc.asyncProperty(
        texts,
        fc.constantFrom('application/json', 'text/html', 'text/plain', ''),
        fc.constantFrom(200, 403, 422, 500),
        async (text, type, status) => {
          try {
            const post = await clientAnswering(text, type, status).posts.get(7);
            assert.ok(validId(post.id));
          } catch (error) {
            assert.ok(error instanceof ApiError, String(error));
            assertNoToken(error, TOKEN);
            for (const form of [TOKEN, TOKEN.split('/')[0]!].map((t) => t.toLowerCase())) {
              assert.ok(!JSON.stringify(error).toLowerCase().includes(form), 'no form of the token, in any case');
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
