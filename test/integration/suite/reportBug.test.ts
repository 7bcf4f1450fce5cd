import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PROFILES } from '../../server';
import { extensionApi, forEachProfile, logShows, standIn, useCleanSlate, waitFor } from './helpers';

interface GitApi {
  repositories: unknown[];
}

/** The sent post of the last Report Bug. */
async function sentBug(): Promise<Record<string, unknown>> {
  const request = (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json').at(-1);
  assert.ok(request, 'the server received a post');
  return (request.body as { post: Record<string, unknown> }).post;
}

async function openAndSelect(relativePath: string, start: number, end: number): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, relativePath));
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(start, 0, end, document.lineAt(end).text.length);
  return editor;
}

forEachProfile((profile) =>
  describe('Report Bug', () => {
    before(async () => {
      const git = await vscode.extensions.getExtension<{ getAPI(v: 1): GitApi }>('vscode.git')!.activate();
      await waitFor('the Git extension to open the workspace repository', () => git.getAPI(1).repositories.length > 0, 'gitRepository');
    });

    useCleanSlate();

    it('files a post of kind error with the snippet, path, lines, language and a permalink', async () => {
      await openAndSelect('src/greeting.ts', 1, 2);
      const post = await (
        await extensionApi()
      ).actions.reportBug({ title: 'greeting() throws on an empty name', description: 'Seen in production.' });
      assert.ok(post?.id, 'the command returns the created post');
      const sent = await sentBug();
      assert.equal(sent.kind, 'error');
      assert.equal(sent.title, 'greeting() throws on an empty name');
      const content = String(sent.content);
      assert.match(content, /^Sent from VS Code · hb-[0-9a-z]{10}\n\nSeen in production\./, 'the marker, then the description');
      assert.match(content, /src\/greeting\.ts/);
      assert.match(content, /2.3/, 'the line range');
      assert.match(content, /typescript/);
      assert.match(
        content,
        /```typescript\n {0,2}if \(!name\) throw new Error\("name is required"\);\n.*return `Hello, \$\{name\}!`;\n```/s,
      );
      assert.match(content, /https:\/\/github\.com\/example\/sample\/blob\/[0-9a-f]{40}\/src\/greeting\.ts#L2-L3/);
      assert.equal((await extensionApi()).posts.getChildren !== undefined, true);
      // The view follows the service's list: one that does not list bug reports (sparse) leaves it out at the next page.
      if (PROFILES[profile].listsKindOnly) {
        const top = (await (await extensionApi()).posts.getChildren())[0];
        assert.equal(top?.id, `post:${post.id}`, 'the tree shows the new bug first');
      }
    });

    const listsBugReports = PROFILES[profile].listsKindOnly;
    it(`an answer lost after the report was stored: ${listsBugReports ? 'found by its marker, not filed again' : 'this service does not list bug reports, so the person is asked, and nothing is filed again'}`, async () => {
      const api = await extensionApi();
      await openAndSelect('src/greeting.ts', 1, 2);
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await api.actions.reportBug({ title: `Lost report ${Date.now()}` }), undefined, 'not reported as filed');
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the report is kept as a draft');
      if (!listsBugReports) api.ui.answerNextQuestion('Keep Draft');
      assert.equal(Boolean(await api.sender.send(draft.id)), listsBugReports);
      const filed = (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
      assert.equal(filed.length, 1, 'filed once');
      if (listsBugReports) {
        assert.equal(api.drafts.all().length, 0, 'found: the draft is gone');
        await logShows(api, /was on the helpdesk already/);
      } else {
        assert.equal(api.drafts.all().length, 1, 'kept');
        await logShows(
          api,
          /may have been filed: the answer to your earlier attempt was lost, and the helpdesk's list did not show a bug report filed from VS Code/,
        );
      }
    });

    it('says the code is local when the file is not committed', async () => {
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const scratch = vscode.Uri.joinPath(folder, 'src', 'scratch.ts');
      await vscode.workspace.fs.writeFile(scratch, Buffer.from('export const answer = 42;\n'));
      try {
        await openAndSelect('src/scratch.ts', 0, 0);
        await (await extensionApi()).actions.reportBug({ title: 'Wrong answer' });
        const content = String((await sentBug()).content);
        assert.doesNotMatch(content, /github\.com/);
        assert.match(content, /not committed|uncommitted|local/i);
        assert.match(content, /export const answer = 42;/);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await vscode.workspace.fs.delete(scratch);
      }
    });

    it('says the code is local when a committed file was saved a moment ago (before Git looked again)', async () => {
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'src', 'greeting.ts'));
      const committed = document.getText();
      const saveAs = async (text: string) => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
        assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applied');
        assert.ok(await document.save(), 'saved');
      };
      await saveAs(`${committed}export const changed = true;\n`);
      try {
        await openAndSelect('src/greeting.ts', 1, 2);
        await (await extensionApi()).actions.reportBug({ title: 'Changed since the commit' });
        const content = String((await sentBug()).content);
        assert.doesNotMatch(content, /github\.com/, 'no permalink to lines the commit does not have');
        assert.match(content, /uncommitted changes/);
      } finally {
        await saveAs(committed);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
    });

    it("with no selection, reports the cursor's line", async () => {
      const editor = await openAndSelect('src/greeting.ts', 2, 2);
      editor.selection = new vscode.Selection(2, 4, 2, 4);
      await (await extensionApi()).actions.reportBug({ title: 'One line' });
      const content = String((await sentBug()).content);
      assert.match(content, /return `Hello, \$\{name\}!`;/);
      assert.doesNotMatch(content, /name is required/);
    });

    it('keeps the whole report as a draft when filing fails', async () => {
      await openAndSelect('src/greeting.ts', 0, 3);
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 500 });
      const result = await (await extensionApi()).actions.reportBug({ title: 'Kept when the server fails' });
      assert.equal(result, undefined);
      const [draft] = (await extensionApi()).drafts.all();
      assert.ok(draft);
      assert.equal(draft.kind, 'bug');
      assert.match(draft.text, /^Kept when the server fails\n\n/);
      assert.match(draft.text, /export function greeting/);
    });
  }),
);
