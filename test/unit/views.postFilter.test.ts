import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { inScope, matchesFilter, scopeNeedsMe } from '../../src/views/postFilter';

const posts: Post[] = [
  { id: 1, user_id: 7, responsible_id: 8 },
  { id: 2, user_id: 8, responsible_id: 7 },
  { id: 3, user_id: null, responsible_id: null },
  { id: 4, user_id: 9 },
];
const ids = (kept: Post[]) => kept.map((p) => p.id);

describe('quick filters of the posts view', () => {
  it('Assigned to Me: the posts whose responsible_id is me; none while me is not known', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'assignedToMe', { me: 7, filed: new Set() }))), [2]);
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'assignedToMe', { me: undefined, filed: new Set([1, 2, 3]) }))), []);
    assert.equal(scopeNeedsMe('assignedToMe'), true);
  });

  it('Filed by Me: the posts whose user_id is me, and those this extension filed, even before me is known', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'filedByMe', { me: 7, filed: new Set([4]) }))), [1, 4]);
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'filedByMe', { me: undefined, filed: new Set([3]) }))), [3]);
    assert.equal(scopeNeedsMe('filedByMe'), false);
  });

  it('Everything: every post; the quick filter adds to Filter Posts… and the closed posts choice, never replaces them', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'everything', { me: undefined, filed: new Set() }))), [1, 2, 3, 4]);
    const closed: Post = { id: 5, user_id: 7, closed: true, kind: 'error', title: 'Crash' };
    const facts = { me: 7, filed: new Set<number>() };
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, {}, false), false, 'closed posts stay hidden');
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, { kind: 'error' }, true), true);
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, { text: 'nothing' }, true), false);
  });
});
