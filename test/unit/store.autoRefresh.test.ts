import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { autoRefresh } from '../../src/store/autoRefresh';
import { fake, workspace } from './fakeVscode';

describe('autoRefresh', () => {
  beforeEach(() => {
    fake.reset();
    mock.timers.enable({ apis: ['setInterval'] });
  });
  afterEach(() => mock.timers.reset());

  it('off by default', () => {
    let refreshes = 0;
    const running = autoRefresh(
      () => true,
      async () => void refreshes++,
    );
    mock.timers.tick(24 * 60 * 60_000);
    assert.equal(refreshes, 0);
    running.dispose();
  });

  it('every N minutes while signed in; a tick while signed out does nothing', () => {
    fake.config.set('helpdesk.autoRefreshMinutes', 5);
    let signedIn = true;
    let refreshes = 0;
    const running = autoRefresh(
      () => signedIn,
      async () => void refreshes++,
    );
    mock.timers.tick(5 * 60_000);
    assert.equal(refreshes, 1);
    signedIn = false;
    mock.timers.tick(20 * 60_000);
    assert.equal(refreshes, 1, 'signed out: no refresh');
    signedIn = true;
    mock.timers.tick(5 * 60_000);
    assert.equal(refreshes, 2);
    running.dispose();
    mock.timers.tick(60 * 60_000);
    assert.equal(refreshes, 2, 'stopped with its disposal');
  });

  it('follows a change of the setting, and a failed refresh does not stop it', async () => {
    let refreshes = 0;
    const running = autoRefresh(
      () => true,
      async () => {
        refreshes++;
        throw new Error('unreachable');
      },
    );
    await workspace.getConfiguration('helpdesk').update('autoRefreshMinutes', 1);
    mock.timers.tick(3 * 60_000);
    assert.equal(refreshes, 3);
    await workspace.getConfiguration('helpdesk').update('autoRefreshMinutes', 0);
    mock.timers.tick(3 * 60_000);
    assert.equal(refreshes, 3, 'off again');
    running.dispose();
  });
});
