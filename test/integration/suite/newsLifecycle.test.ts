// The news files over an account's life and across windows: forgotten at every sign-out, never
// found half written, and never written again by a turn that an account change cut short.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { extensionApi, signInToStandIn, standIn, standInOf, useCleanSlate, waitFor } from './helpers';
import { config, newsFilesOf, useWatcher } from './newsHelpers';

const contrary = standInOf('contrary');

/** Signed in to the other stand-in too, and polled there once (its news files written); this window back on the usual one. */
async function withOtherAccountPolled(api: TestApi): Promise<void> {
  assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
  await api.watcher.pollNow();
  await waitFor("the other account's news files", async () => (await newsFilesOf(api, contrary.url)).includes('news'));
  await signInToStandIn();
}

describe('news files', () => {
  useCleanSlate();
  useWatcher();
  before(() => config().update('watch.notify', 'all', vscode.ConfigurationTarget.Global));
  after(() => config().update('watch.notify', undefined, vscode.ConfigurationTarget.Global));

  it('signing out of an account this window does not show forgets its news: signing in to it again is a silent baseline', async () => {
    const api = await extensionApi();
    await withOtherAccountPolled(api);
    const response = await fetch(`${contrary.url}/__standin/records/posts`, { method: 'POST', body: JSON.stringify({ title: `While signed out ${Date.now()}`, task_kind: 'task', user_id: 99 }) });
    const made = (await response.json()) as { id: number };
    await vscode.commands.executeCommand('helpdesk.signOut', contrary.url);
    assert.equal(api.session.accountUrl, standIn.url, "still this window's account");
    await waitFor("the other account's news files to be deleted", async () => (await newsFilesOf(api, contrary.url)).length === 0);
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await api.watcher.pollNow();
    assert.ok(!api.watcher.items.some((n) => n.id === made.id), 'a post made while signed out is not news: the first poll is a baseline');
  });

  it('a sign-out another window announces forgets that account\'s news here too', async () => {
    const api = await extensionApi();
    await withOtherAccountPolled(api);
    // What another window's sign-out writes (see SignOutSignal): the address, the window, one id a sign-out.
    const announcement = { accountUrl: contrary.url, window: 'another-window', id: `another-window.${Date.now()}` };
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(api.context.globalStorageUri, 'signed-out.json'), new TextEncoder().encode(JSON.stringify(announcement)));
    await waitFor("the other account's news files to be deleted", async () => (await newsFilesOf(api, contrary.url)).length === 0);
    await api.session.signOut(contrary.url); // as the other window did
  });
});
