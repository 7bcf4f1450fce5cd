import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { time } from '../../src/watch/newsStatus';

describe("the news bell's tooltip times", () => {
  it('are local times of day, HH:MM on the 24-hour clock', () => {
    assert.equal(time(new Date(2026, 10, 25, 3, 4).getTime()), '03:04');
    assert.equal(time(new Date(2026, 10, 25, 15, 30).getTime()), '15:30');
    assert.equal(time(new Date(2026, 10, 25, 0, 0).getTime()), '00:00');
  });
});
