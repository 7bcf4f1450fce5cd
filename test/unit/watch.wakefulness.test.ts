import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Wakefulness } from '../../src/watch/wakefulness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('watch: a window asleep after an hour unfocused', () => {
  it('counts from when the window lost focus, however long it was focused before', () => {
    const window = new Wakefulness(true, 0, HOUR);
    window.focusChanged(false, 3 * HOUR);
    assert.equal(window.asleep(3 * HOUR + 2 * MINUTE), false, 'unfocused for two minutes: awake');
    assert.equal(window.asleep(4 * HOUR - MINUTE), false);
    assert.equal(window.asleep(4 * HOUR + MINUTE), true, 'unfocused for an hour and a minute: asleep');
  });

  it('a focused window never sleeps; focused again, it wakes, and the hour starts again when it next loses focus', () => {
    const window = new Wakefulness(true, 0, HOUR);
    assert.equal(window.asleep(10 * HOUR), false);
    window.focusChanged(false, 10 * HOUR);
    assert.equal(window.asleep(12 * HOUR), true);
    window.focusChanged(true, 12 * HOUR);
    assert.equal(window.asleep(12 * HOUR), false);
    window.focusChanged(false, 13 * HOUR);
    assert.equal(window.asleep(13 * HOUR + 30 * MINUTE), false);
  });

  it('a window that starts unfocused counts from its start; losing focus twice does not restart the hour', () => {
    const window = new Wakefulness(false, 0, HOUR);
    assert.equal(window.asleep(30 * MINUTE), false);
    window.focusChanged(false, 50 * MINUTE); // another state change (say, active) while still unfocused
    assert.equal(window.asleep(HOUR + MINUTE), true);
  });
});
