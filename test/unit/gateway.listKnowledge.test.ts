import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { ListKnowledge } from '../../src/gateway/listKnowledge';
import { memoryState } from './memoryState';

const listed = (id: number, content?: string) => ({ id, ...(content === undefined ? {} : { content }) }) as Post;

describe('ListKnowledge', () => {
  it('knows nothing until the list shows a post of that kind filed here, with its marker', async () => {
    const knowledge = new ListKnowledge(memoryState(), 'https://a.example.com');
    assert.equal(knowledge.showsMarkers('bug'), false);
    await knowledge.notePage([listed(7, 'Sent from VS Code · hb-aaaaaaaaaa')]);
    assert.equal(knowledge.showsMarkers('bug'), false, 'a marker on a post not filed here teaches nothing');
    await knowledge.noteFiled('bug', 7, 'hb-aaaaaaaaaa');
    await knowledge.notePage([listed(6), listed(8)]);
    assert.equal(knowledge.showsMarkers('bug'), false, 'not listed: nothing learned');
    await knowledge.notePage([listed(7, 'Sent from VS Code · hb-aaaaaaaaaa\n\nIt crashed')]);
    assert.equal(knowledge.showsMarkers('bug'), true);
    assert.equal(knowledge.showsMarkers('task'), false, 'per kind');
  });

  it('a listed post of ours without its marker (content left out, or cut before it) unlearns it', async () => {
    const knowledge = new ListKnowledge(memoryState(), 'https://a.example.com');
    await knowledge.noteFiled('task', 3, 'hb-bbbbbbbbbb');
    await knowledge.notePage([listed(3, 'Sent from VS Code · hb-bbbbbbbbbb')]);
    await knowledge.notePage([listed(3)]);
    assert.equal(knowledge.showsMarkers('task'), false);
  });

  it('is kept per account, in the state, across windows; remembers the newest filed of each kind', async () => {
    const state = memoryState();
    const one = new ListKnowledge(state, 'https://a.example.com');
    for (let id = 1; id <= 15; id++) await one.noteFiled(id % 2 ? 'task' : 'comment', id, `hb-${String(id).padStart(10, '0')}`);
    const other = new ListKnowledge(state, 'https://a.example.com');
    assert.equal(other.newestFiled('task')?.ref, 'hb-0000000015');
    assert.equal(other.newestFiled('comment')?.id, 14);
    assert.equal(new ListKnowledge(state, 'https://b.example.com').newestFiled('task'), undefined);
    await other.noteOrderRefused();
    assert.equal(one.orderRefused, true);
    assert.ok(!JSON.stringify(state.keys()).includes('token'));
  });
});
