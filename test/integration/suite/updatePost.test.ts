import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import { PROFILES } from '../../server';
import { extensionApi, forEachProfile, outputLog, standIn, useCleanSlate, waitFor } from './helpers';

/* Close Post and the others, run as the row's context menu runs them (the command on the row's
 * node), on every stand-in profile: where the service accepts updating posts the row and the
 * open document show the answer; where it refuses (sparse: 404) the person is told and the
 * actions are no longer offered; a change made by someone else since is asked about. */

async function serverPost(id: number): Promise<Post> {
  const response = await fetch(`${standIn.url}/app/posts/${id}.json?api_token=${encodeURIComponent(standIn.token)}`);
  assert.equal(response.status, 200);
  return (await response.json()) as Post;
}

/** As if someone changed it in the web app. */
const changeOnServer = (id: number, fields: Record<string, unknown>) => standIn.changeRecord<Post>('posts', id, fields);

/** An open post's row in the posts view (its node, as the context menu hands it to the command). */
async function openRow(): Promise<vscode.TreeItem & { post: Post }> {
  const api = await extensionApi();
  await api.store.posts.ensureStarted();
  const rows = (await api.posts.getChildren()) as (vscode.TreeItem & { post?: Post })[];
  const row = rows.find((node) => node.contextValue === 'post' && node.post && node.post.closed === false);
  assert.ok(row?.post, 'an open post row');
  return row as vscode.TreeItem & { post: Post };
}

/** The hover on a reference to post `id` in a file, as its Markdown (our links in it). */
async function hoverOn(id: number): Promise<string> {
  const document = await vscode.workspace.openTextDocument({ content: `// HD-${id}`, language: 'typescript' });
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    document.uri,
    new vscode.Position(0, 5),
  );
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.ok(text, `a hover on HD-${id}`);
  return text;
}

/** What the hover's facts (the lines after its title) say of the post: open or closed (escapes undone, as it reads). */
const stateIn = (hover: string) =>
  /(?:^| · )(open|closed)(?: · |$)/m.exec(
    hover
      .slice(hover.indexOf('\n\n'))
      .replace(/&nbsp;/g, ' ')
      .replace(
        /\\(.)|&#(\d+);/g,
        (_, escaped: string | undefined, code: string | undefined) => escaped ?? String.fromCharCode(Number(code)),
      ),
  )?.[1];

const puts = async () => (await standIn.requests()).filter((request) => request.method === 'PUT');

forEachProfile((profile) =>
  describe('updating posts', () => {
    useCleanSlate();
    const accepts = PROFILES[profile].postUpdates === 'accepted';
    // References as HD-<id> (for the hover), as in the code tests.
    before(() => vscode.workspace.getConfiguration('helpdesk').update('referencePrefix', 'HD-', vscode.ConfigurationTarget.Global));
    after(() => vscode.workspace.getConfiguration('helpdesk').update('referencePrefix', undefined, vscode.ConfigurationTarget.Global));

    beforeEach(async () => {
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      const api = await extensionApi();
      await waitFor('a refresh to offer the actions again', () => api.gateway.current?.account?.postUpdatesRefused === false);
    });

    it(
      accepts
        ? 'Close Post on a row: the row and the open document show it closed'
        : 'Close Post on a row: refused (404), said, and not offered again until a refresh',
      async () => {
        const api = await extensionApi();
        const row = await openRow();
        const id = row.post.id;
        await vscode.commands.executeCommand('helpdesk.openPostAsText', row);
        // Of this account: the same number's document of another profile's stand-in may still be held.
        const ofThisAccount = (uri: vscode.Uri) =>
          uri.scheme === 'helpdesk-post' &&
          uri.path === `/${id}.md` &&
          new URLSearchParams(uri.query).get('account') === api.gateway.current?.account?.url;
        const document = await waitFor('the post document', () => vscode.workspace.textDocuments.find((d) => ofThisAccount(d.uri)));
        const hoverBefore = await hoverOn(id);
        assert.equal(stateIn(hoverBefore), 'open', hoverBefore);
        assert.match(hoverBefore, /command:helpdesk\.closePost\?/, 'the hover offers Close');
        const logged = outputLog(api).length;
        await vscode.commands.executeCommand('helpdesk.closePost', row);
        if (accepts) {
          assert.deepEqual(
            (await puts()).map((request) => (request.body as { post: unknown }).post),
            [{ closed: true }],
          );
          assert.equal((await serverPost(id)).closed, true);
          await waitFor(
            'the row to show it closed',
            async () =>
              api.store.posts.find(id)?.closed === true &&
              (await api.posts.getChildren()).every((node) => (node as { post?: Post }).post?.id !== id),
          );
          await waitFor('the document to show it closed', () => /- State: closed/.test(document.getText()));
          const hoverAfter = await hoverOn(id);
          assert.equal(stateIn(hoverAfter), 'closed', hoverAfter);
          assert.match(hoverAfter, /command:helpdesk\.reopenPost\?/, 'the hover offers Reopen now');
          await vscode.commands.executeCommand('helpdesk.reopenPost', row);
          await waitFor('reopened', async () => (await serverPost(id)).closed === false);
        } else {
          assert.equal((await serverPost(id)).closed, false);
          assert.equal(api.gateway.current?.account?.postUpdatesRefused, true);
          await waitFor('the refusal said in words', () =>
            outputLog(api).slice(logged).includes('does not let posts be closed, reopened, assigned or given a status'),
          );
          const hoverAfter = await hoverOn(id);
          assert.equal(stateIn(hoverAfter), 'open', hoverAfter);
          assert.doesNotMatch(
            hoverAfter,
            /command:helpdesk\.(closePost|reopenPost|assignToMe)\?/,
            'the hover offers no update after the refusal',
          );
          const before = (await standIn.requests()).length;
          await vscode.commands.executeCommand('helpdesk.closePost', row);
          assert.equal((await standIn.requests()).length, before, 'not tried again');
        }
      },
    );

    it('changed by someone else since the row was read: asked, and nothing is written on No', async () => {
      const api = await extensionApi();
      const row = await openRow();
      const title = row.post.title;
      await changeOnServer(row.post.id, { title: `${String(title)} (edited in the web app)` });
      try {
        api.ui.answerNextQuestion(undefined);
        await vscode.commands.executeCommand('helpdesk.closePost', row);
        assert.deepEqual(await puts(), []);
        assert.equal((await serverPost(row.post.id)).closed, false);
      } finally {
        await changeOnServer(row.post.id, { title });
      }
    });
  }),
);
