import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { PostNode } from '../../src/views/nodes';
import { fake, type ThemeIcon, TreeItemCollapsibleState } from './fakeVscode';

describe('PostNode', () => {
  beforeEach(() => fake.reset());

  it('gives VS Code a TreeItem made when asked, saying what the row says', () => {
    const post: Post = { id: 7, title: 'Printer jams', kind: 'error', status_id: 2, closed: true, client_id: 3 };
    const node = new PostNode(post, { statuses: new Map([[2, 'Waiting']]) }, 2, { changes: ['closed'], seen: false });
    const item = node.treeItem();
    assert.deepEqual(
      {
        label: item.label,
        id: item.id,
        description: item.description,
        contextValue: item.contextValue,
        collapsibleState: item.collapsibleState,
      },
      {
        label: 'Printer jams',
        id: 'post:7',
        description: '#7 · Waiting · closed',
        contextValue: 'post.closed.client.unseen',
        collapsibleState: TreeItemCollapsibleState.Collapsed,
      },
    );
    assert.equal((item.iconPath as ThemeIcon).id, 'bug');
    assert.equal(String(item.resourceUri), 'helpdesk-row:/post/7');
    assert.deepEqual(item.command, { command: 'helpdesk.openPost', title: 'Open Post', arguments: [node] });
    assert.deepEqual(item.accessibilityInformation, { label: 'Printer jams, #7 · Waiting · closed' });
    assert.notEqual(node.treeItem(), item, 'made anew each time it is asked for');
  });

  it('a row without comments does not fold', () => {
    assert.equal(new PostNode({ id: 8, title: 'x' }).treeItem().collapsibleState, undefined);
  });
});
