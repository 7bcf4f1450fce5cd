import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/* The menus of Close Post, Reopen Post, Assign to Me, Assign…, Set Status… as package.json
 * declares them: on which rows, documents and palettes each is offered, and never where the
 * account refuses updating posts. (The manifest is ours: its patterns are compiled here.) */

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuItem[]> };
};
const menus = manifest.contributes.menus;
const COMMANDS = ['helpdesk.closePost', 'helpdesk.reopenPost', 'helpdesk.assignToMe', 'helpdesk.assignPost', 'helpdesk.setPostStatus'];
/** The context values a post's row has (see PostNode): open or closed, with or without news. */
const ROWS = [
  'post',
  'post.seen',
  'post.unseen',
  'post.client',
  'post.client.unseen',
  'post.closed',
  'post.closed.seen',
  'post.closed.unseen',
  'post.closed.client',
  'comment',
  'comment.unseen',
  'client',
  'deal',
];

/** The rows an item of `view/item/context` is offered on, from its `viewItem =~ /…/`. */
function rowsOf(item: MenuItem): string[] {
  const match = /viewItem =~ \/(.+?)\/(?: |$)/.exec(item.when ?? '');
  assert.ok(match, `${item.command}: a viewItem pattern in "${item.when}"`);
  const pattern = new RegExp(match[1]!);
  return ROWS.filter((row) => pattern.test(row));
}

describe('the menus of the post updates', () => {
  it("each is on the posts view's rows, the post document's title bar and the palette, and every entry hides where updates are refused", () => {
    for (const command of COMMANDS) {
      for (const menu of ['view/item/context', 'editor/title', 'commandPalette']) {
        const items = menus[menu]!.filter((item) => item.command === command);
        assert.equal(items.length, 1, `${command} in ${menu}`);
        assert.match(items[0]!.when ?? '', /(^| )!helpdesk\.postUpdatesRefused( |$)/, `${command} in ${menu}`);
      }
      assert.match(menus['editor/title']!.find((item) => item.command === command)!.when!, /resourceScheme == helpdesk-post/);
      assert.match(menus['view/item/context']!.find((item) => item.command === command)!.when!, /view == helpdesk\.posts/);
    }
  });

  it("Close Post on open posts' rows only, Reopen Post on closed ones only; the others on every post row; none on comments", () => {
    const rows = (command: string) => rowsOf(menus['view/item/context']!.find((item) => item.command === command)!);
    assert.deepEqual(rows('helpdesk.closePost'), ['post', 'post.seen', 'post.unseen', 'post.client', 'post.client.unseen']);
    assert.deepEqual(rows('helpdesk.reopenPost'), ['post.closed', 'post.closed.seen', 'post.closed.unseen', 'post.closed.client']);
    for (const command of ['helpdesk.assignToMe', 'helpdesk.assignPost', 'helpdesk.setPostStatus']) {
      assert.deepEqual(
        rows(command),
        [
          'post',
          'post.seen',
          'post.unseen',
          'post.client',
          'post.client.unseen',
          'post.closed',
          'post.closed.seen',
          'post.closed.unseen',
          'post.closed.client',
        ],
        command,
      );
    }
  });
});
