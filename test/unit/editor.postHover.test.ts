import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Gateway } from '../../src/accounts/gateway';
import { postHovers } from '../../src/editor/postHover';
import { Log } from '../../src/log';
import { type StandIn } from '../server';
import { Secrets } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState } from './memoryState';
import { standInsForSuite } from './support';
import { restoredSession, signedInSecrets } from './fakeSession';

/* Hovers on references: one request per post per few minutes, for every account signed in to. */

describe('a hovered reference', () => {
  let a: StandIn;
  let b: StandIn;
  let secrets: Secrets;
  let gateway: Gateway;

  standInsForSuite(([x, y]) => ([a, b] = [x!, y!]), { seed: 'demo' }, { seed: 'demo' });
  beforeEach(async () => {
    fake.reset();
    fake.config.set('helpdesk.accountUrl', a.url);
    secrets = signedInSecrets(a, b);
    const session = await restoredSession(secrets);
    gateway = new Gateway(session, new Log(), memoryState(), new HelpdeskStore(new Log()));
  });
  afterEach(() => gateway.dispose());

  const postRequests = (server: StandIn, id: number) => server.requests.filter((r) => r.path.startsWith(`/app/posts/${id}`)).length;

  it("of the window's own account: requested once for ten hovers", async () => {
    const hovers = postHovers(gateway);
    for (let i = 0; i < 10; i++) await hovers.describe(1);
    assert.equal(postRequests(a, 1), 1);
  });

  it("of another account signed in to: requested once for ten hovers too, with that account's token only", async () => {
    const hovers = postHovers(gateway);
    const shown: string[] = [];
    for (let i = 0; i < 10; i++) shown.push((await hovers.describe(1, b.url)).value);
    assert.equal(postRequests(b, 1), 1, `${postRequests(b, 1)} requests`);
    assert.equal(postRequests(a, 1), 0);
    assert.equal(new Set(shown).size, 1, 'the same facts each time');
    assert.ok(!shown[0]!.includes('could not be loaded'), shown[0]);
  });

  it('a post that is gone is remembered as gone, and says so', async () => {
    const hovers = postHovers(gateway);
    for (let i = 0; i < 5; i++) assert.match((await hovers.describe(987654, b.url)).value, /Post #987654 is not on .* it was deleted/);
    assert.equal(postRequests(b, 987654), 1);
  });
});
