// Last in the suite, on purpose: by now the extension has signed in and out, failed in every way
// the fault matrix knows, shown its notifications and kept drafts. Everything it wrote is read
// back here and searched for the token.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { assertNoTokenIn, extensionApi, outputLog, signInToStandIn, standIn } from './helpers';

function filesUnder(dir: string): Array<{ path: string; text: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}

describe('the token never leaks', () => {
  it('is in the secret storage, and nowhere in what the extension wrote', async () => {
    const api = await signInToStandIn();
    // One more failure with the token in the request's query, for good measure.
    await standIn.addFault({ path: '/app.json', status: 500, body: `echo ${standIn.token}` });
    await vscode.commands.executeCommand('helpdesk.refreshPosts');
    await standIn.clearFaults();
    assert.equal(await api.context.secrets.get(`helpdesk.token:${standIn.url}`), standIn.token, 'the token is where it belongs');

    const log = outputLog(api);
    assert.match(log, /GET \/app\.json\?api_token=<redacted>/, 'the output channel logged requests (and redacted them)');
    assert.match(log, /Notification: Not sent:/, 'and the notifications it showed');
    assertNoTokenIn('the output channel and the notifications it recorded', log);

    const error = api.store.posts.state.error;
    assert.ok(error instanceof Error, 'the last refresh failed');
    assertNoTokenIn('the error object', `${error.message}\n${error.stack}\n${JSON.stringify(error)}`);

    const settings = vscode.workspace.getConfiguration('helpdesk');
    const keys = Object.keys(settings).filter((key) => typeof settings.get(key) !== 'function');
    assertNoTokenIn('the settings', JSON.stringify(keys.map((key) => settings.inspect(key))));

    for (const [name, memento] of [
      ['global state', api.context.globalState],
      ['workspace state', api.context.workspaceState],
    ] as const) {
      assertNoTokenIn(name, JSON.stringify(memento.keys().map((key) => [key, memento.get(key)])));
    }

    const folders = [api.context.globalStorageUri, api.context.storageUri, api.context.logUri].filter((u): u is vscode.Uri => !!u);
    const files = folders.flatMap((uri) => filesUnder(uri.fsPath));
    assert.ok(files.length > 0, 'the extension wrote files (at least its log)');
    for (const file of files) assertNoTokenIn(file.path, file.text);
  });

  it('a copied link carries no token', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('helpdesk.refreshPosts');
    const node = (await api.posts.getChildren()).find((n) => n.contextValue?.startsWith('post'));
    assert.ok(node);
    await vscode.commands.executeCommand('helpdesk.copyLink', node);
    const link = await vscode.env.clipboard.readText();
    assert.match(link, new RegExp(`^${standIn.url.replace(/[.]/g, '\\.')}/app/`));
    assertNoTokenIn('a copied link', link);
  });

  it('a link opened in the browser carries no token', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('helpdesk.refreshPosts');
    const node = (await api.posts.getChildren()).find((n) => n.contextValue?.startsWith('post'));
    assert.ok(node?.id);
    // The suite runs in the extension's own host, with the same vscode API object: what the
    // command asks the editor to open is caught here, before the browser.
    const env = vscode.env as { openExternal: (uri: vscode.Uri) => Thenable<boolean> };
    const original = env.openExternal;
    const opened: string[] = [];
    env.openExternal = (uri) => Promise.resolve(opened.push(uri.toString(true)) > 0);
    try {
      await vscode.commands.executeCommand('helpdesk.openInBrowser', node);
    } finally {
      env.openExternal = original;
    }
    assert.deepEqual(opened, [`${standIn.url}/app/posts/${node.id.split(':')[1]}`]);
    assertNoTokenIn('a link opened in the browser', opened.join('\n'));
  });
});
