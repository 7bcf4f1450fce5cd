// The news files over an account's life and across windows: forgotten at every sign-out, never
// found half written, and never written again by a turn that an account change cut short.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { HeldNews } from '../../../src/watch/news';
import { NewsFolder, type NewsFile } from '../../../src/watch/newsFiles';
import { extensionApi, outputLog, signInToStandIn, standIn, standInOf, useCleanSlate, waitFor } from './helpers';
import { config, elsewhere, freshStart, newsFile, newsFilesOf, toldSince, useWatcher } from './newsHelpers';

const contrary = standInOf('contrary');

/** Signed in to the other stand-in too, and polled there once (its news files written); this window back on the usual one. */
async function withOtherAccountPolled(api: TestApi): Promise<void> {
  assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
  await api.watcher.pollNow();
  await waitFor("the other account's news files", async () => (await newsFilesOf(api, contrary.url)).includes('news'));
  await signInToStandIn();
}

/** A folder of news files apart from the extension's, for a watcher of a test's own. */
function folderApart(api: TestApi, name: string): vscode.Uri {
  return vscode.Uri.joinPath(api.context.globalStorageUri, name);
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

  it('a news file found half written starts a baseline above what was told and seen: the news after it is told, and unseen', async () => {
    const api = await freshStart();
    await vscode.commands.executeCommand('helpdesk.setWhoIAm', 7);
    const before = await elsewhere('POST', 'posts', { title: `Before the tear ${Date.now()}`, task_kind: 'task', user_id: 99 });
    let logged = outputLog(api).length;
    await api.watcher.pollNow();
    await waitFor('the notification', () => toldSince(api, logged).some((line) => line.includes(`#${before.id}`)));
    await api.watcher.markSeen(undefined);
    // As a read in the middle of another window's write would find it: its first half.
    const file = newsFile(api, standIn.url, 'news');
    const whole = await vscode.workspace.fs.readFile(file);
    await vscode.workspace.fs.writeFile(file, whole.slice(0, whole.length >> 1));
    await api.watcher.pollNow();
    await elsewhere('PATCH', `posts/${before.id}`, { responsible_id: 7 });
    const after = await elsewhere('POST', 'posts', { title: `After the tear ${Date.now()}`, task_kind: 'task', user_id: 99 });
    logged = outputLog(api).length;
    await api.watcher.pollNow();
    assert.deepEqual(api.watcher.items.map((n) => n.id).sort(), [before.id, after.id].sort(), 'the news after the baseline');
    assert.deepEqual([before.id, after.id].map((id) => api.watcher.isSeen(id)), [false, false], 'news after the baseline is not seen, not even on a post seen before');
    await waitFor('the notification of the news after the baseline', () => toldSince(api, logged).some((line) => line.includes(`#${after.id}`)));
  });

  it('a window reading an account\'s news file while another writes it never finds it half written', async () => {
    const api = await extensionApi();
    const storage = folderApart(api, 'torn-news');
    const folder = new NewsFolder(storage);
    const url = 'https://torn.example.com';
    // As large as a news file gets: NEWS_KEPT items and a snapshot of 2,000 posts.
    const items: HeldNews[] = Array.from({ length: 200 }, (_, i) => ({ id: 5000 - i, title: `A long enough title for post ${i} `.repeat(4), changes: ['new'], latest: ['new'], assignedToMe: false, mine: false, at: i, seq: 1 }));
    const posts = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [String(3000 + i), { title: `Post ${i} `.repeat(6), closed: false, mine: false, comments: i }]));
    const news: NewsFile = { snapshot: { newest: 5000, posts }, items, seq: 1, polledAt: 1, nextAt: 2 };
    try {
      await folder.writeNews(url, news);
      let writing = true;
      const writes = (async () => {
        for (let i = 0; i < 25; i++) await folder.writeNews(url, { ...news, polledAt: i });
        writing = false;
      })();
      let reads = 0;
      let torn = 0;
      while (writing) {
        reads += 1;
        const read = await folder.news(url);
        if (!read || read.items.length !== items.length) torn += 1;
      }
      await writes;
      assert.equal(torn, 0, `${torn} of ${reads} reads found the file half written`);
    } finally {
      folder.dispose();
      await vscode.workspace.fs.delete(storage, { recursive: true });
    }
  });
});
