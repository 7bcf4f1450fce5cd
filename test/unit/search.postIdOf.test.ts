import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postIdOf } from '../../src/search/postIdOf';

describe("the post a tool's input names", () => {
  const account = 'https://acme.example.com';

  it("takes a number, #123, the short form and the post's address", () => {
    assert.equal(postIdOf(123, account, 'HD-'), 123);
    assert.equal(postIdOf(' #123 ', account, 'HD-'), 123);
    assert.equal(postIdOf('hd-123', account, 'HD-'), 123);
    assert.equal(postIdOf(`${account}/app/posts/123`, `${account}/`, ''), 123);
  });

  it('takes nothing else', () => {
    for (const value of [
      0,
      -1,
      1.5,
      '',
      'abc',
      '0123',
      '12a',
      `https://other.example.com/app/posts/1`,
      'HD-',
      '1'.repeat(16),
      null,
      {},
      [1],
      `${' '.repeat(1_000_000)}12`,
    ]) {
      assert.equal(postIdOf(value, account, 'HD-'), undefined, JSON.stringify(value).slice(0, 40));
    }
  });
});
