import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { Identity } from '../../src/accounts/identity';
import { SerialState, type StateStore } from '../../src/globalStorage/serialState';
import { EchoingState } from './echoingState';

const A = 'https://acme.example.com';
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A post just filed, as the sender notes it: the list knowledge first (not waited for), and a
 * moment later the identity; the window's answer to the first write comes in between.
 */
async function fileOne(echoing: EchoingState, state: StateStore, id: number): Promise<Identity> {
  const knowledge = new ListKnowledge(state, A);
  const identity = new Identity(state);
  const noted = knowledge.noteFiled('task', id, `hb-${id}`);
  await tick(); // its flush: the whole state goes to the window
  echoing.toWindow();
  const filed = identity.noteFiled(A, { id, user_id: 3 });
  echoing.toHost(); // the stored state comes back, then the answer
  for (let i = 0; i < 5; i++) {
    await tick();
    echoing.toWindow();
    echoing.toHost();
  }
  await Promise.all([noted, filed]);
  return identity;
}

describe('the global state, written one update at a time', () => {
  it("VS Code's state alone: the identity's note of a post filed is lost when the answer to the write before it comes back in between", async () => {
    // What this test stands on: the fake keeps VS Code's order (see echoingState.ts).
    const echoing = new EchoingState();
    const identity = await fileOne(echoing, echoing, 78);
    assert.deepEqual([...identity.whoIAm(A).filed], [], "VS Code's own state loses it");
  });

  it('a post filed is remembered as filed by the person, and its marker too, through the answer of the write before', async () => {
    const echoing = new EchoingState();
    const state = new SerialState(echoing);
    const identity = await fileOne(echoing, state, 78);
    assert.deepEqual([...identity.whoIAm(A).filed], [78]);
    assert.deepEqual(identity.me(A), { id: 3, source: 'learned' });
    assert.deepEqual(
      new ListKnowledge(state, A).filed('task').map((p) => p.id),
      [78],
    );
    const stored = JSON.parse(echoing.stored) as Record<string, unknown>;
    assert.ok(JSON.stringify(stored['helpdesk.identity:' + A]).includes('78'), 'stored, not only held');
  });

  it('reads what is waiting: two notes of one key a moment apart keep both', async () => {
    const echoing = new EchoingState();
    const identity = new Identity(new SerialState(echoing));
    const first = identity.noteFiled(A, { id: 5 });
    const second = identity.noteFiled(A, { id: 6 });
    for (let i = 0; i < 6; i++) {
      await tick();
      echoing.toWindow();
      echoing.toHost();
    }
    await Promise.all([first, second]);
    assert.deepEqual([...identity.whoIAm(A).filed], [6, 5]);
  });

  it('keys and values as the state gives them: a key set to undefined is gone, a value read is a copy', async () => {
    const echoing = new EchoingState();
    const state = new SerialState(echoing);
    const written = state.update('a', { n: 1 });
    const removed = state.update('b', undefined);
    assert.deepEqual(state.keys(), ['a']);
    const read = state.get<{ n: number }>('a')!;
    read.n = 2;
    assert.deepEqual(state.get('a'), { n: 1 });
    assert.equal(state.get('b', 'none'), 'none');
    for (let i = 0; i < 4; i++) {
      await tick();
      echoing.toWindow();
      echoing.toHost();
    }
    await Promise.all([written, removed]);
    assert.deepEqual(state.get('a'), { n: 1 });
  });
});
