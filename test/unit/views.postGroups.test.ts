import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { PostGroups } from '../../src/views/postGroups';
import { GROUP_ROWS, TOP_ROWS } from '../../src/views/shownPosts';

const shown = (count: number): Post[] => Array.from({ length: count }, (_, i) => ({ id: count - i }));

describe('PostGroups', () => {
  it('a refresh loads again the rows of the group filling and of the full ones the person opened; not of those folded', () => {
    const groups = new PostGroups();
    const rows = shown(TOP_ROWS + 2 * GROUP_ROWS + 10);
    groups.layOut(rows.length);
    const [first, second, filling] = groups.all.map((g) => groups.node(g, rows));
    assert.equal(groups.openRows(), TOP_ROWS + 2 * GROUP_ROWS + 10, 'the group filling is open by itself');
    groups.toggled(filling!, false);
    assert.equal(groups.openRows(), 0, 'folded by the person');
    groups.toggled(first!, true);
    assert.equal(groups.openRows(), TOP_ROWS + GROUP_ROWS);
    groups.toggled(second!, true);
    groups.toggled(first!, false);
    assert.equal(groups.openRows(), TOP_ROWS + 2 * GROUP_ROWS);
    groups.forgetOpened();
    assert.equal(groups.openRows(), 0);
  });

  it('a change inside the groups names the groups from the first it touched; a change at the top, or of the groups, names none', () => {
    const groups = new PostGroups();
    let rows = shown(TOP_ROWS + GROUP_ROWS + 10);
    groups.layOut(rows.length);
    const nodes = groups.all.map((g) => groups.node(g, rows));
    const before = groups.all;
    rows = shown(TOP_ROWS + GROUP_ROWS + 20);
    groups.layOut(rows.length);
    assert.deepEqual(groups.changedFrom(TOP_ROWS + GROUP_ROWS + 10, before, rows), [nodes[1]], 'rows added to the group filling');
    assert.equal(groups.changedFrom(3, before, rows), undefined, 'a top row');
    const beforeFull = groups.all;
    rows = shown(TOP_ROWS + 2 * GROUP_ROWS + 1);
    groups.layOut(rows.length);
    assert.equal(groups.changedFrom(TOP_ROWS + GROUP_ROWS + 20, beforeFull, rows), undefined, 'a group filled and another began');
  });
});
