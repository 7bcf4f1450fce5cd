// Runs inside the extension host: `vscode` is the real API, describe/it are mocha's (bdd).
// The pattern for new files: import what you need, describe(…) at the top level, and add the
// file to TEST_FILES in ./index.ts.
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { extensionApi } from './helpers';

const EXTENSION_ID = 'helpdesk-bridge.helpdesk-bridge';

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not loaded in this extension host`);
  return found;
}

describe('activation', () => {
  it('loads the extension under development', () => {
    assert.equal(extension().packageJSON.name, 'helpdesk-bridge');
  });

  it('activates without error', async () => {
    await extension().activate();
    assert.equal(extension().isActive, true);
  });

  it('links, the light bulb and a hover on a reference answer from activation on', async () => {
    await extension().activate();
    const config = vscode.workspace.getConfiguration('helpdesk');
    await config.update('referencePrefix', 'HD-', vscode.ConfigurationTarget.Global);
    try {
      const document = await vscode.workspace.openTextDocument({ language: 'python', content: '# TODO: cache the rates\n# see HD-7\n' });
      // Shown, so that the finally below closes it: an untitled document left open can be handed to a later test.
      await vscode.window.showTextDocument(document);
      const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
      assert.deepEqual(
        links.map((l) => [l.range.start.line, l.range.start.character, l.target?.toString()]),
        [[1, 6, 'helpdesk-post:/7.md']],
      );
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        document.uri,
        new vscode.Range(0, 3, 0, 3),
      );
      assert.ok(
        actions.some((a) => a.command?.command === 'helpdesk.createTaskFromComment'),
        'the light bulb offers Create Task from Comment',
      );
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        document.uri,
        new vscode.Position(1, 8),
      );
      assert.ok(
        hovers.some((h) => h.contents.some((c) => (typeof c === 'string' ? c : c.value).includes('#7'))),
        'the hover names post #7',
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await config.update('referencePrefix', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('writes the code cache a few seconds after activation, named for this bundle and this V8', async function () {
    await extension().activate();
    // Node's fs: VS Code's logs every read of a folder not made yet.
    const folder = join((await extensionApi()).context.globalStorageUri.fsPath, 'code-cache');
    const started = Date.now();
    let names: string[] = [];
    while (Date.now() - started < 10_000) {
      names = await readdir(folder).catch(() => []);
      if (names.some((name) => name.endsWith('.v8cache'))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(names.length, 1, names.join(', '));
    assert.match(names[0]!, new RegExp(`^[0-9a-f]{32}-${process.versions.v8.replace(/[.]/g, '\\.')}\\.v8cache$`));
    assert.ok((await stat(join(folder, names[0]!))).size > 10_000, 'it holds the compiled bundle');
  });

  it('registers every contributed command, and has a handler for each one and no other', async () => {
    const contributed = (extension().packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands
      .map((c) => c.command)
      .sort();
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
      'contributed but not registered',
    );
    assert.deepEqual([...(await extensionApi()).commandIds].sort(), contributed);
  });
});

describe('editor', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('opens the test workspace and finds its files', async () => {
    assert.equal(vscode.workspace.workspaceFolders?.length, 1, 'one workspace folder should be open');
    const files = await vscode.workspace.findFiles('**/*', undefined, 10);
    assert.ok(files.length > 0, 'findFiles found nothing in the workspace');
  });

  it('edits an untitled document and reads the text back', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'hello', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(document.positionAt(5), ', world'));
    assert.equal(document.getText(), 'hello, world');
  });
});

describe('stand-in server', () => {
  it('is reachable from the extension host with the token the launcher passed', async () => {
    const url = process.env.HELPDESK_STANDIN_URL;
    const token = process.env.HELPDESK_STANDIN_TOKEN;
    assert.ok(url && token, 'the launcher passes HELPDESK_STANDIN_URL and HELPDESK_STANDIN_TOKEN');
    const response = await fetch(`${url}/app.json?per_page=5&api_token=${encodeURIComponent(token)}`);
    assert.equal(response.status, 200);
    const posts = (await response.json()) as unknown[];
    assert.equal(posts.length, 5, 'the demo data is seeded');
  });
});
