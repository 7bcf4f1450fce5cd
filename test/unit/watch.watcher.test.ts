import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { FakeService, MINUTE, WatchRig } from './watchRig';

let rig: WatchRig;
afterEach(() => rig?.close());

describe('watch: the watcher, several windows on one storage folder', () => {
  it('the everyday case: one baseline, then one notification in the focused window, one request a poll', async () => {
    rig = new WatchRig();
    const acme = new FakeService('https://acme.sugester.com');
    acme.add({ id: 1 });
    acme.add({ id: 2 });
    rig.window('A', acme, { focused: true });
    rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    assert.equal(acme.requests, 1, 'one baseline');
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(5 * MINUTE);
    assert.deepEqual(rig.shown.map((s) => [s.window, s.text]), [['A', 'A new post is assigned to you: "Post 3" (#3).']]);
    assert.equal(acme.requests, 2);
    await rig.clock.advance(60 * MINUTE);
    assert.equal(acme.requests, 14, 'twelve an idle hour');
    assert.equal(rig.shown.length, 1);
  });
});
