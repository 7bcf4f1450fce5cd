import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { inScope, POSTS_SCOPES, scopeNeedsMe } from '../../src/accounts/scopes';
import { matchingPosts } from '../../src/search/matching';
import { matchesFilter } from '../../src/views/postFilter';
import { whoIs } from './whoIs';

const posts: Post[] = [
  { id: 1, user_id: 7, responsible_id: 8 },
  { id: 2, user_id: 8, responsible_id: 7 },
  { id: 3, user_id: null, responsible_id: null },
  { id: 4, user_id: 9 },
];
const ids = (kept: Post[]) => kept.map((p) => p.id);

describe('quick filters of the posts view', () => {
  it('Assigned to Me: the posts whose responsible_id is me; none while me is not known', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'assignedToMe', whoIs(7, { filed: new Set() })))), [2]);
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'assignedToMe', whoIs(undefined, { filed: new Set([1, 2, 3]) })))), []);
    assert.equal(scopeNeedsMe('assignedToMe'), true);
  });

  it('Filed by Me: the posts whose user_id is me, and those this extension filed, even before me is known', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'filedByMe', whoIs(7, { filed: new Set([4]) })))), [1, 4]);
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'filedByMe', whoIs(undefined, { filed: new Set([3]) })))), [3]);
    assert.equal(scopeNeedsMe('filedByMe'), false);
  });

  it('Everything: every post; the quick filter adds to Filter Posts… and the closed posts choice, never replaces them', () => {
    assert.deepEqual(ids(posts.filter((p) => inScope(p, 'everything', whoIs(undefined, { filed: new Set() })))), [1, 2, 3, 4]);
    const closed: Post = { id: 5, user_id: 7, closed: true, kind: 'error', title: 'Crash' };
    const facts = whoIs(7);
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, {}, false), false, 'closed posts stay hidden');
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, { kind: 'error' }, true), true);
    assert.equal(inScope(closed, 'filedByMe', facts) && matchesFilter(closed, { text: 'nothing' }, true), false);
  });

  it("the agent's search keeps the posts the view's quick filter keeps, for every scope and person (one rule)", async () => {
    const people = [whoIs(undefined), whoIs(undefined, { filed: new Set([3]) }), whoIs(7), whoIs(7, { filed: new Set([4]) }), whoIs(9)];
    for (const scope of POSTS_SCOPES) {
      for (const who of people) {
        const found = await matchingPosts(posts, { words: [], state: 'all', scope }, () => undefined, who);
        assert.deepEqual([...found.keys()], ids(posts.filter((p) => inScope(p, scope, who))), `${scope}, ${JSON.stringify(who.me)}`);
      }
    }
    const unassigned = await matchingPosts(
      [{ id: 6 }],
      { words: [], state: 'all', scope: 'assignedToMe' },
      () => undefined,
      whoIs(undefined),
    );
    assert.equal(unassigned.size, 0, 'an unassigned post is not "assigned to" a person not known yet');
  });
});
