import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { GROUP_ROWS, groupAt, rowGroups, ShownPosts, TOP_ROWS } from '../../src/views/shownPosts';

const post = (id: number, extra: Partial<Post> = {}): Post => ({ id, ...extra });
const ids = (posts: readonly Post[]) => posts.map((p) => p.id);

describe('ShownPosts', () => {
  it('reads only the records added since, and shows those its test lets through', () => {
    let tested = 0;
    const shown = new ShownPosts((p) => (tested++, p.closed !== true));
    const page1 = [post(9), post(8, { closed: true }), post(7)];
    assert.deepEqual(ids(shown.of(page1)), [9, 7]);
    const page2 = [...page1, post(6), post(5)];
    assert.deepEqual(ids(shown.of(page2)), [9, 7, 6, 5]);
    assert.equal(tested, 5, 'the first page was not tested again');
    shown.of(page2);
    assert.equal(tested, 5);
  });

  it('forgets from where the list changed, and reads from there again', () => {
    const shown = new ShownPosts((p) => p.closed !== true);
    shown.of([post(9), post(8), post(7)]);
    const changed = [post(9), post(8, { closed: true }), post(7)];
    shown.forget(1);
    assert.deepEqual(ids(shown.of(changed)), [9, 7]);
    shown.forget();
    assert.deepEqual(ids(shown.of([post(10), ...changed])), [10, 9, 7]);
    assert.deepEqual(ids(shown.of([post(10)])), [10], 'a shorter list without a change told is read again from its end');
  });

  it("keeps each post's comments, oldest first, also when they come on a later page", () => {
    const shown = new ShownPosts((p) => typeof p.post_id !== 'number');
    const first = [post(9), post(8), post(7, { post_id: 9 })];
    assert.deepEqual(ids(shown.of(first)), [9, 8]);
    const second = [...first, post(5, { post_id: 9 }), post(4, { post_id: 8 })];
    shown.of(second);
    assert.deepEqual(ids(shown.commentsOf(9)), [5, 7]);
    assert.deepEqual(ids(shown.commentsOf(8)), [4]);
    shown.forget(3);
    shown.of(first);
    assert.deepEqual(ids(shown.commentsOf(9)), [7], 'comments past a change are forgotten');
    assert.deepEqual(ids(shown.commentsOf(8)), []);
  });
});

describe('row groups', () => {
  it('folds rows past the top ones into groups; the last, still filling, is not full', () => {
    assert.deepEqual(rowGroups(TOP_ROWS), []);
    assert.deepEqual(rowGroups(TOP_ROWS + 1), [{ index: 0, start: TOP_ROWS, end: TOP_ROWS + 1, full: false }]);
    const groups = rowGroups(TOP_ROWS + 2 * GROUP_ROWS + 3);
    assert.deepEqual(
      groups.map((g) => [g.start, g.end, g.full]),
      [
        [TOP_ROWS, TOP_ROWS + GROUP_ROWS, true],
        [TOP_ROWS + GROUP_ROWS, TOP_ROWS + 2 * GROUP_ROWS, true],
        [TOP_ROWS + 2 * GROUP_ROWS, TOP_ROWS + 2 * GROUP_ROWS + 3, false],
      ],
    );
    assert.equal(groupAt(TOP_ROWS - 1), undefined);
    assert.equal(groupAt(TOP_ROWS), 0);
    assert.equal(groupAt(TOP_ROWS + GROUP_ROWS), 1);
  });
});
