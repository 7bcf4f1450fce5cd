import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { FILED_KEPT, Identity } from '../../src/accounts/identity';
import { nickSeen, usersSeen } from '../../src/accounts/usersSeen';
import { memoryState } from './memoryState';

const A = 'https://a.example.com';
const B = 'https://b.example.com';

describe('Identity', () => {
  it("remembers the person's own updates per post (the updated_at each left), bounded and checked; filing and forgetting keep them", async () => {
    const state = memoryState();
    const identity = new Identity(state);
    await identity.noteUpdated(A, { id: 5, updated_at: '2026-11-26T11:00:00Z' });
    await identity.noteUpdated(A, { id: 5, updated_at: '2026-11-26T12:00:00Z' });
    await identity.noteUpdated(A, { id: 6, updated_at: 'x'.repeat(65) });
    assert.deepEqual([...identity.whoIAm(A).updated], [[5, '2026-11-26T12:00:00Z']]);
    assert.equal(identity.whoIAm(B).updated.size, 0, 'per account');
    await identity.noteFiled(A, { id: 9, user_id: 3 });
    await identity.forget(A);
    assert.deepEqual([...identity.whoIAm(A).updated], [[5, '2026-11-26T12:00:00Z']], 'kept through filing and forgetting who I am');
    for (let id = 100; id < 250; id++) await identity.noteUpdated(A, { id, updated_at: 't' });
    assert.equal(identity.whoIAm(A).updated.size, 100, 'the newest 100');
    await state.update('helpdesk.identity:' + A, { filed: [], commented: [], updated: { 7: 12, '-1': 'x', 8: 'ok' } });
    assert.deepEqual([...identity.whoIAm(A).updated], [[8, 'ok']], 'of another shape: dropped');
  });

  it('counts the comments it filed on each post (what the news does not tell the person of); a count of another shape reads as one', async () => {
    const state = memoryState();
    const identity = new Identity(state);
    await identity.noteFiled(A, { id: 90, user_id: 7, post_id: 30, task_kind: 'comment' });
    await identity.noteFiled(A, { id: 91, user_id: 7, post_id: 30, task_kind: 'comment' });
    await identity.noteFiled(A, { id: 92, user_id: 7, post_id: 31, task_kind: 'comment' });
    await identity.noteFiled(A, { id: 93, user_id: 7 });
    assert.deepEqual([...identity.whoIAm(A).comments].sort(), [
      [30, 2],
      [31, 1],
    ]);
    assert.deepEqual([...identity.whoIAm(B).comments], []);
    await state.update('helpdesk.identity:' + B, { filed: [], commented: [5, 6], comments: { 5: 'x', 6: 1e308 } });
    assert.deepEqual(
      [...identity.whoIAm(B).comments],
      [
        [5, 1],
        [6, 1],
      ],
    );
  });

  it('learns who the person is from the answer to a post it filed: its user_id and nick, per account', async () => {
    const state = memoryState();
    const identity = new Identity(state);
    assert.equal(identity.me(A), undefined);
    const learned = await identity.noteFiled(A, { id: 40, user_id: 7, nick: 'anna' });
    assert.deepEqual(learned, { id: 7, nick: 'anna', source: 'learned' });
    assert.deepEqual(
      new Identity(state).me(A),
      { id: 7, nick: 'anna', source: 'learned' },
      'kept in the state, as another window reads it',
    );
    assert.equal(identity.me(B), undefined, 'another account knows nothing of it');
    assert.deepEqual([...identity.whoIAm(A).filed], [40]);
    assert.deepEqual([...identity.whoIAm(B).filed], []);
  });

  it('learns nothing from an answer without a numeric user_id, but remembers the post as filed', async () => {
    const identity = new Identity(memoryState());
    for (const user_id of [undefined, null, 0, -3, 2.5])
      assert.equal(await identity.noteFiled(A, { id: 41, user_id: user_id as number }), undefined);
    assert.equal(identity.me(A), undefined);
    assert.deepEqual([...identity.whoIAm(A).filed], [41]);
  });

  it('a learned id never overrides one the person set, nor one learned before', async () => {
    const identity = new Identity(memoryState());
    await identity.set(A, 3, 'carla');
    assert.equal(await identity.noteFiled(A, { id: 50, user_id: 9, nick: 'bot' }), undefined);
    assert.deepEqual(identity.me(A), { id: 3, nick: 'carla', source: 'set' });
    await identity.forget(B);
    await identity.noteFiled(B, { id: 51, user_id: 4 });
    await identity.noteFiled(B, { id: 52, user_id: 5, nick: 'other' });
    assert.deepEqual(identity.me(B), { id: 4, source: 'learned' });
  });

  it('the person sets it over a learned one, and forgetting it keeps the filed posts; it is learned again then', async () => {
    const identity = new Identity(memoryState());
    await identity.noteFiled(A, { id: 60, user_id: 7 });
    await identity.set(A, 8);
    assert.deepEqual(identity.me(A), { id: 8, source: 'set' });
    await identity.forget(A);
    assert.equal(identity.me(A), undefined);
    assert.deepEqual([...identity.whoIAm(A).filed], [60]);
    await identity.noteFiled(A, { id: 62, post_id: 60, task_kind: 'comment' });
    await identity.set(A, 8);
    await identity.forget(A);
    assert.deepEqual([...identity.whoIAm(A).commented], [60], 'forgetting who I am keeps what I commented on');
    await identity.noteFiled(A, { id: 61, user_id: 7 });
    assert.equal(identity.me(A)?.id, 7);
    await assert.rejects(identity.set(A, 0), /Not a user id/);
  });

  it('keeps the newest 500 filed posts, newest first; a comment teaches who the person is but is no filed row', async () => {
    const identity = new Identity(memoryState());
    for (let id = 1; id <= FILED_KEPT + 20; id++) await identity.noteFiled(A, { id });
    const filed = [...identity.whoIAm(A).filed];
    assert.equal(filed.length, FILED_KEPT);
    assert.equal(filed[0], FILED_KEPT + 20);
    assert.equal(filed.at(-1), 21);
    await identity.noteFiled(A, { id: 9000, post_id: 5, user_id: 6, nick: 'dan' });
    assert.ok(!identity.whoIAm(A).filed.has(9000));
    assert.deepEqual([...identity.whoIAm(A).commented], [5], 'the post it is on');
    assert.equal(identity.me(A)?.id, 6);
  });

  it('tells its listeners which account changed', async () => {
    const identity = new Identity(memoryState());
    const told: string[] = [];
    const listening = identity.onDidChange((url) => told.push(url));
    await identity.noteFiled(A, { id: 1 });
    await identity.set(B, 2);
    listening.dispose();
    await identity.forget(A);
    assert.deepEqual(told, [A, B]);
  });

  it('reads past what is not an identity (a hand-edited or broken state), and cuts a long nick', async () => {
    const state = memoryState();
    await state.update(`helpdesk.identity:${A}`, { me: { id: '7', source: 'set' }, filed: [3, 'x', null, -1, 4] });
    const identity = new Identity(state);
    assert.equal(identity.me(A), undefined);
    assert.deepEqual([...identity.whoIAm(A).filed], [3, 4]);
    await state.update(`helpdesk.identity:${B}`, { me: { id: 7, source: 'guessed' } });
    assert.equal(identity.me(B), undefined);
    await identity.set(B, 7, `${'x'.repeat(300)}`);
    assert.equal(identity.me(B)?.nick?.length, 200);
    assert.ok(!JSON.stringify(state.keys()).includes('token'));
  });
});

describe('usersSeen', () => {
  it('lists the authors and assignees of the loaded posts by id, with the nick of their newest post', () => {
    const posts: Post[] = [
      { id: 1, user_id: 7, nick: 'ann', responsible_id: 8 },
      { id: 3, user_id: 7, nick: 'anna', responsible_id: 7 },
      { id: 2, user_id: 7, nick: ' ' },
      { id: 4, responsible_id: 9, nick: 'a client' },
      { id: 5, user_id: null, responsible_id: null },
    ];
    assert.deepEqual(usersSeen(posts), [
      { id: 7, nick: 'anna', wrote: 3, assigned: 1 },
      { id: 8, wrote: 0, assigned: 1 },
      { id: 9, wrote: 0, assigned: 1 },
    ]);
    // One user's nick, found as usersSeen finds it; none for one who wrote no post with a nick.
    assert.deepEqual(
      [7, 8, 9].map((id) => nickSeen(posts, id)),
      ['anna', undefined, undefined],
    );
  });
});
