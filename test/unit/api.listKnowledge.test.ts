import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { memoryState } from './memoryState';

describe('ListKnowledge', () => {
  it('is kept per account, in the state, across windows; remembers the newest ten filed of each kind, newest first', async () => {
    const state = memoryState();
    const one = new ListKnowledge(state, 'https://a.example.com');
    for (let id = 1; id <= 25; id++) await one.noteFiled(id % 2 ? 'task' : 'comment', id, `hb-${String(id).padStart(10, '0')}`);
    const other = new ListKnowledge(state, 'https://a.example.com');
    assert.deepEqual(
      other.filed('task').map((post) => post.id),
      [25, 23, 21, 19, 17, 15, 13, 11, 9, 7],
    );
    assert.equal(other.filed('task')[0]?.ref, 'hb-0000000025');
    assert.equal(other.filed('comment')[0]?.id, 24);
    assert.deepEqual(other.filed('bug'), []);
    assert.deepEqual(new ListKnowledge(state, 'https://b.example.com').filed('task'), []);
    await other.noteOrderRefused();
    assert.equal(one.orderRefused, true);
    assert.ok(!JSON.stringify(state.keys()).includes('token'));
  });

  it('reads past what is not a filed post (a hand-edited or older state)', async () => {
    const state = memoryState();
    await state.update('helpdesk.listKnowledge:https://a.example.com', {
      filed: [{ id: 'x', ref: 1, kind: 'task' }, { id: 4, ref: 'hb-0000000004', kind: 'task' }, null],
      shows: { task: true },
    });
    const knowledge = new ListKnowledge(state, 'https://a.example.com');
    assert.deepEqual(knowledge.filed('task'), [{ id: 4, ref: 'hb-0000000004', kind: 'task' }]);
    assert.equal(knowledge.orderRefused, false);
  });
});
