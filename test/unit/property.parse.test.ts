import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError, HelpdeskClient } from '../../src/api';
import { asPage, asRecord } from '../../src/api/parse';
import { brokenText, hostileRecord } from './hostile';

const POST_FIELDS = ['title', 'content', 'kind', 'task_kind', 'closed', 'created_at', 'updated_at', 'client_id', 'comments_cache', 'unknown_field'];

const validId = (id: unknown): boolean => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any JSON value, and lists of records of every quality. */
const answer = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.oneof({ weight: 4, arbitrary: hostileRecord(POST_FIELDS) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 12 }),
);

/** A client whose every GET answers `text` with status 200. */
function clientAnswering(text: string, contentType = 'application/json'): HelpdeskClient {
  return new HelpdeskClient({
    accountUrl: 'http://127.0.0.1:9',
    token: 'secretToken123/acme',
    retryLimit: 0,
    fetch: async () => new Response(text, { status: 200, headers: { 'content-type': contentType } }),
  });
}

describe('parsing answers (properties)', () => {
  it('asPage keeps the records with a positive whole id, once each, as they came; skips the rest, but counts them', () => {
    fc.assert(
      fc.property(answer, (value) => {
        if (!Array.isArray(value)) {
          assert.throws(() => asPage(value), (error: Error) => error.constructor === Error && /^a list, got /.test(error.message));
          return;
        }
        const page = asPage<{ id: number }>(value);
        const seen = new Set<unknown>();
        const expected = value.filter((item) => isRecord(item) && validId(item.id) && !seen.has(item.id) && seen.add(item.id));
        assert.equal(page.items.length, expected.length);
        page.items.forEach((record, i) => assert.equal(record, expected[i], 'the same object, unknown fields and nulls kept'));
        assert.equal(page.received, value.length, 'every item the service sent is counted');
      }),
      { numRuns: 500 },
    );
  });

  it('asRecord returns a record with a positive whole id and throws a plain Error for anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileRecord(POST_FIELDS)), (value) => {
        if (isRecord(value) && validId(value.id)) assert.equal(asRecord(value), value);
        else assert.throws(() => asRecord(value), (error: Error) => error.constructor === Error && /record/.test(error.message));
      }),
      { numRuns: 500 },
    );
  });

  it('a list call over the wire: valid records, or badResponse, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (value) => {
        const call = clientAnswering(JSON.stringify(value)).posts.listHelpdesk();
        if (!Array.isArray(value)) {
          await assert.rejects(call, (error) => error instanceof ApiError && error.kind === 'badResponse');
          return;
        }
        const { items: posts, received } = await call;
        assert.ok(posts.every((post) => validId(post.id)));
        assert.equal(new Set(posts.map((post) => post.id)).size, posts.length, 'no id twice');
        assert.equal(received, value.length);
      }),
      { numRuns: 150 },
    );
  });

  it('any text as an answer: parsed, or badResponse without the token', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(brokenText(60), fc.jsonValue().map((v) => JSON.stringify(v))), fc.constantFrom('application/json', 'text/html', ''), async (text, type) => {
        try {
          const post = await clientAnswering(text, type).posts.get(7);
          assert.ok(validId(post.id));
        } catch (error) {
          assert.ok(error instanceof ApiError, String(error));
          assert.equal(error.kind, 'badResponse');
          assert.ok(!error.message.includes('secretToken123'));
        }
      }),
      { numRuns: 150 },
    );
  });
});
