import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import { extensionApi, forEachProfile, serverPosts, standIn, useCleanSlate, waitFor } from './helpers';

/* A pick of posts (Comment on Task from the palette) finds a post far below the rows loaded, by
 * its title and by its number, on every stand-in profile: 25 posts a page, and the post sought
 * on page 10 or later. The extension host cannot type, so the pick the command makes is taken
 * as it is made (window.createQuickPick, which this suite shares with the extension) and given
 * its value as typing would. */

const PAGE = 25;
/** Newer posts made for the tests, so that the oldest of the demo is on page 10 or later. */
const NEWER = 9 * PAGE;

const config = () => vscode.workspace.getConfiguration('helpdesk');

/** Made in the web app, by someone else. */
async function madeElsewhere(title: string): Promise<number> {
  const response = await fetch(`${standIn.url}/__standin/records/posts`, {
    method: 'POST',
    body: JSON.stringify({ title, content: 'x', task_kind: 'task', user_id: 99 }),
  });
  const text = await response.text();
  assert.ok(response.ok, text);
  return (JSON.parse(text) as Post).id;
}

type Pick = vscode.QuickPick<vscode.QuickPickItem>;

/** Runs Comment on Task from the palette (no post given) and answers the pick it shows. */
async function commentOnTaskPick(): Promise<{ pick: Pick; done: Thenable<unknown> }> {
  const { window } = vscode;
  const original = window.createQuickPick;
  let made: Pick | undefined;
  (window as { createQuickPick: typeof original }).createQuickPick = <T extends vscode.QuickPickItem>() => {
    const pick = original<T>();
    made ??= pick as unknown as Pick;
    return pick;
  };
  try {
    const done = vscode.commands.executeCommand('helpdesk.commentOnTask');
    const pick = await waitFor('the pick of posts', () => made, 'postSearch');
    return { pick, done };
  } finally {
    (window as { createQuickPick: typeof original }).createQuickPick = original;
  }
}

/** Types `text` into the pick and waits for an item whose description names post `id`. */
async function find(pick: Pick, text: string, id: number): Promise<vscode.QuickPickItem> {
  pick.value = text;
  return waitFor(
    `#${id} among the items for "${text}"`,
    () => pick.items.find((item) => item.description?.startsWith(`#${id}`)),
    'postSearch',
  );
}

forEachProfile(() =>
  describe('a pick of posts beyond the rows loaded', () => {
    useCleanSlate();
    const made: number[] = [];
    let sought: Post;

    before(async function () {
      await config().update('pageSize', PAGE, vscode.ConfigurationTarget.Global);
      for (let i = 1; i <= NEWER; i++) made.push(await madeElsewhere(`Routine check ${i}`));
      // The newest open post of the demo with a title, below every post made here: on the tenth
      // page from the newest, which is where the views begin whatever order the service lists in.
      const listed = (await serverPosts<Post>()).sort((a, b) => b.id - a.id);
      sought = listed.find(
        (p) => !made.includes(p.id) && p.closed !== true && !p.post_id && typeof p.title === 'string' && p.title.length > 3,
      )!;
      const position = listed.findIndex((p) => p.id === sought.id);
      assert.ok(position >= 9 * PAGE, `the post sought is on page 10 or later (at ${position + 1})`);
      const api = await extensionApi();
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.store.posts.ensureStarted();
    });
    after(async function () {
      for (const id of made.splice(0)) await standIn.deleteRecord('posts', id);
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
    });

    it('by its title: read further, page after page, while the pick stays open', async () => {
      const api = await extensionApi();
      assert.ok(!api.store.posts.find(sought.id), 'the post is not among the rows loaded');
      const { pick, done } = await commentOnTaskPick();
      try {
        const item = await find(pick, String(sought.title), sought.id);
        assert.ok(item.label.includes(String(sought.title).slice(0, 40)), item.label);
        const pages = (await standIn.requests()).filter((r) => r.path === '/app.json').map((r) => Number(r.query.page));
        assert.ok(api.store.posts.state.items.length > 9 * PAGE, `ten pages read or more (pages ${pages.join(', ')})`);
      } finally {
        pick.hide();
        await done;
      }
    });

    it('by its number: read directly, not page by page', async () => {
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await standIn.clearRequests();
      const { pick, done } = await commentOnTaskPick();
      try {
        const item = await find(pick, `#${sought.id}`, sought.id);
        assert.ok(item.label.includes(String(sought.title).slice(0, 40)), item.label);
        const requests = await standIn.requests();
        assert.ok(
          requests.some((r) => r.path === `/app/posts/${sought.id}.json`),
          'the post read by its number',
        );
        assert.ok(!requests.some((r) => r.path === '/app.json' && Number(r.query.page) > 2), 'no list read further for it');
      } finally {
        pick.hide();
        await done;
      }
    });
  }),
);
