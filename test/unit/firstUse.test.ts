import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeOnFirstUse } from '../../src/firstUse';

describe('firstUse: what a start does not need, made at its first use', () => {
  it('a value is made once, at its first use', () => {
    let made = 0;
    const pattern = madeOnFirstUse(() => (made++, /[\p{L}]/u));
    assert.equal(made, 0);
    assert.equal(pattern().test('ż'), true);
    assert.equal(pattern(), pattern());
    assert.equal(made, 1);
  });
});
