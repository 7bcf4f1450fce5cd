import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type Post } from '../../src/api';
import { offerToTakePost } from '../../src/commands/startWorkOffer';
import { Identity } from '../../src/accounts/identity';
import { Log } from '../../src/log';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Notifier } from '../../src/ui/notifier';
import { PROFILES, type StandIn } from '../server';
import { fake } from './fakeVscode';
import { memoryState } from './memoryState';
import { accountOn, standInsForSuite } from './support';

/* After Start Work: the offer, once per post, to assign it to the person and set a status they
 * pick (the "in progress" one first). Never done unasked. */

let accepting: StandIn;
let refusing: StandIn;
// Both reset before each test.
standInsForSuite(
  ([a, r]) => ([accepting, refusing] = [a!, r!]),
  { seed: 'demo' },
  { seed: 'demo', profile: { ...PROFILES.likely, postUpdates: 'methodNotAllowed' } },
);

async function windowOn(server: StandIn) {
  const state = memoryState();
  const account = accountOn(server, state);
  const log = new Log();
  const store = new HelpdeskStore(log);
  store.bind(account);
  await store.posts.ensureStarted();
  const identity = new Identity(state);
  await identity.set(account.url, 7);
  const services = {
    ui: new Notifier(log),
    gateway: { current: { url: account.url, usable: true, account, store } },
    state,
  } as unknown as Parameters<typeof offerToTakePost>[0];
  const post: Post = store.posts.state.items.find((p) => p.closed === false && typeof p.post_id !== 'number')!;
  return { account, store, identity, services, post };
}

const puts = (server: StandIn) => server.requests.filter((request) => request.method === 'PUT');
const offers = () => fake.messages.filter((m) => m.buttons.includes('Assign and Set Status…'));

describe('the offer after Start Work', () => {
  beforeEach(() => fake.reset());

  it('taken: the post is assigned to the person and set to the status picked, the "in progress" one offered first', async () => {
    const w = await windowOn(accepting);
    for (let i = 0; i < 100 && !w.store.statuses; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    fake.answers.push('Assign and Set Status…');
    const inProgress = [...(w.store.statuses ?? new Map<number, string>())].find(([, name]) => /progress/i.test(name));
    assert.ok(inProgress, 'the demo account has an "in progress" status');
    fake.pickAnswers.push(inProgress[1]);
    const outcome = await offerToTakePost(w.services, w.identity, w.account, w.post);
    assert.ok(typeof outcome === 'object' && 'updated' in outcome, JSON.stringify(outcome));
    assert.equal(fake.picks.at(-1)?.items[0]?.label, inProgress[1], 'in progress first');
    assert.deepEqual((puts(accepting).at(-1)!.body as { post: unknown }).post, { responsible_id: 7, status_id: inProgress[0] });
  });

  it('declined, or dismissed: nothing is written, and the same post is not offered again', async () => {
    const w = await windowOn(accepting);
    fake.answers.push('Not for This Post');
    assert.equal(await offerToTakePost(w.services, w.identity, w.account, w.post), 'declined');
    assert.equal(await offerToTakePost(w.services, w.identity, w.account, w.post), 'notOffered');
    assert.equal(offers().length, 1, 'offered once');
    assert.equal(puts(accepting).length, 0, 'nothing written unasked');
  });

  it('where the helpdesk refuses updates, it is not offered once that is known', async () => {
    const w = await windowOn(refusing);
    fake.answers.push('Assign and Set Status…');
    fake.pickAnswers.push(undefined);
    await offerToTakePost(w.services, w.identity, w.account, w.post);
    await w.account.updatePost(w.post.id, { closed: true }).catch(() => undefined);
    const other = w.store.posts.state.items.find((p) => p.id !== w.post.id && typeof p.post_id !== 'number')!;
    assert.equal(await offerToTakePost(w.services, w.identity, w.account, other), 'notOffered');
  });
});
