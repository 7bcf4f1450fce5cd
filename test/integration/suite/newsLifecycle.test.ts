// The news files over an account's life and across windows: forgotten at every sign-out, never
// found half written, and never written again by a turn that an account change cut short.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { NOBODY } from '../../../src/accounts/identity';
import type { Notifier } from '../../../src/ui/notifier';
import type { HeldNews } from '../../../src/watch/news';
import { NewsFolder, type NewsFile, type Lease } from '../../../src/watch/newsFiles';
import { NewsWatcher, type WatchedAccount } from '../../../src/watch/watcher';
import { extensionApi, outputLog, setWatchInterval, signInToStandIn, standIn, standInOf, useCleanSlate, waitFor } from './helpers';
import { config, elsewhere, freshStart, memoryLog, newsFile, newsFilesOf, toldSince, useWatcher } from './newsHelpers';

const contrary = standInOf('contrary');

/** Signed in to the other stand-in too, and polled there once (its news files written); this window back on the usual one. */
async function withOtherAccountPolled(api: TestApi): Promise<void> {
  assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
  await api.watcher.pollNow();
  await waitFor("the other account's news files", async () => (await newsFilesOf(api, contrary.url)).includes('news'));
  await signInToStandIn();
}

/** A watcher as another window has, over news files of its own (in another folder), with a "me" that knows no one. */
function watcherOf(account: () => WatchedAccount | undefined, onDidChangeAccount: vscode.Event<unknown>, folder: NewsFolder) {
  const ui = { info: () => Promise.resolve(undefined) } as unknown as Notifier;
  const watcher = new NewsWatcher(account, onDidChangeAccount, () => NOBODY, folder, 'a-test-window', ui, memoryLog().log);
  watcher.start();
  return { watcher, dispose: () => watcher.dispose() };
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
    const response = await fetch(`${contrary.url}/__standin/records/posts`, {
      method: 'POST',
      body: JSON.stringify({ title: `While signed out ${Date.now()}`, task_kind: 'task', user_id: 99 }),
    });
    const made = (await response.json()) as { id: number };
    await vscode.commands.executeCommand('helpdesk.signOut', contrary.url);
    assert.equal(api.session.accountUrl, standIn.url, "still this window's account");
    await waitFor("the other account's news files to be deleted", async () => (await newsFilesOf(api, contrary.url)).length === 0);
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await api.watcher.pollNow();
    assert.ok(!api.watcher.items.some((n) => n.id === made.id), 'a post made while signed out is not news: the first poll is a baseline');
  });

  it("a sign-out another window announces forgets that account's news here too", async () => {
    const api = await extensionApi();
    await withOtherAccountPolled(api);
    // What another window's sign-out writes (see SignOutSignal): the address, the window, one id a sign-out.
    const announcement = { accountUrl: contrary.url, window: 'another-window', id: `another-window.${Date.now()}` };
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(api.context.globalStorageUri, 'signed-out.json'),
      new TextEncoder().encode(JSON.stringify(announcement)),
    );
    await waitFor("the other account's news files to be deleted", async () => (await newsFilesOf(api, contrary.url)).length === 0);
    await api.session.signOut(contrary.url); // as the other window did
  });

  it('signed out and in again, the first news is told again, though its poll has the same number as one told before', async () => {
    for (const round of [1, 2]) {
      const api = await freshStart();
      const made = await elsewhere('POST', 'posts', { title: `Round ${round} ${Date.now()}`, task_kind: 'task', user_id: 99 });
      const logged = outputLog(api).length;
      await api.watcher.pollNow();
      await waitFor(`the notification, round ${round}`, () => toldSince(api, logged).some((line) => line.includes(`#${made.id}`)));
    }
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
    assert.deepEqual(
      [before.id, after.id].map((id) => api.watcher.isSeen(id)),
      [false, false],
      'news after the baseline is not seen, not even on a post seen before',
    );
    await waitFor('the notification of the news after the baseline', () =>
      toldSince(api, logged).some((line) => line.includes(`#${after.id}`)),
    );
  });

  it('the seen marks of posts no longer in the news are dropped when marks are written', async () => {
    const api = await freshStart();
    const gone = await elsewhere('POST', 'posts', { title: `Seen, then gone from the news ${Date.now()}`, task_kind: 'task', user_id: 99 });
    await api.watcher.pollNow();
    await api.watcher.markSeen([gone.id]);
    // A baseline (the news file found unreadable) empties the news; the marks stay.
    await vscode.workspace.fs.writeFile(newsFile(api, standIn.url, 'news'), new TextEncoder().encode('{"items": ['));
    await api.watcher.pollNow();
    const kept = await elsewhere('POST', 'posts', { title: `Seen, still news ${Date.now()}`, task_kind: 'task', user_id: 99 });
    await api.watcher.pollNow();
    await api.watcher.markSeen([kept.id]);
    const folder = new NewsFolder(api.context.globalStorageUri);
    try {
      assert.deepEqual([...(await folder.seen(standIn.url)).keys()], [kept.id]);
    } finally {
      folder.dispose();
    }
  });

  it('a shorter interval counts from the last poll, not from when the longer one said', async () => {
    const api = await freshStart();
    const { polledAt, nextAt } = api.watcher.status;
    assert.ok(polledAt && nextAt && nextAt - polledAt >= 5 * 60_000, 'the default: every 5 minutes');
    try {
      await setWatchInterval(1);
      await waitFor('the next poll a minute after the last', () => api.watcher.status.nextAt === polledAt + 60_000);
    } finally {
      await setWatchInterval(undefined);
    }
  });

  it("a window reading an account's news file while another writes it never finds it half written", async () => {
    const api = await extensionApi();
    const storage = folderApart(api, 'torn-news');
    const folder = new NewsFolder(storage);
    const url = 'https://torn.example.com';
    // As large as a news file gets: NEWS_KEPT items and a snapshot of 2,000 posts.
    const items: HeldNews[] = Array.from({ length: 200 }, (_, i) => ({
      id: 5000 - i,
      title: `A long enough title for post ${i} `.repeat(4),
      changes: ['new'],
      latest: ['new'],
      assignedToMe: false,
      mine: false,
      at: i,
      seq: 1,
    }));
    const posts = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [
        String(3000 + i),
        { title: `Post ${i} `.repeat(6), closed: false, mine: false, comments: i },
      ]),
    );
    const news: NewsFile = { snapshot: { newest: 5000, posts }, items, seq: 1, polledAt: 1, triedAt: 1, failures: 0, nextAt: 2 };
    try {
      await folder.writeNews(url, news, () => true);
      let writing = true;
      const writes = (async () => {
        for (let i = 0; i < 25; i++) await folder.writeNews(url, { ...news, polledAt: i }, () => true);
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

  /**
   * A watcher whose turn, once it has read the lease, finds the account changed (as a sign-out
   * or a switch in the middle of a turn would): `change` runs then.
   */
  async function turnCutShort(
    api: TestApi,
    name: string,
    change: (state: { account: WatchedAccount | undefined; folder: NewsFolder; changed: vscode.EventEmitter<void> }) => Promise<void>,
  ) {
    const storage = folderApart(api, name);
    let cut = false;
    const state = {
      account: api.gateway.current?.account as WatchedAccount | undefined,
      changed: new vscode.EventEmitter<void>(),
      folder: undefined as unknown as NewsFolder,
    };
    class CutFolder extends NewsFolder {
      override async lease(accountUrl: string): Promise<Lease | undefined> {
        const lease = await super.lease(accountUrl);
        if (!cut) {
          cut = true;
          await change(state);
        }
        return lease;
      }
    }
    state.folder = new CutFolder(storage);
    await standIn.clearRequests();
    const { watcher, dispose } = watcherOf(() => state.account, state.changed.event, state.folder);
    // The turn started at once (no news files yet); this one comes after it.
    await watcher.pollNow();
    return {
      watcher,
      async dispose() {
        dispose();
        state.folder.dispose();
        await vscode.workspace.fs.delete(storage, { recursive: true });
      },
    };
  }

  it('signed out in the middle of a turn: the turn stops, reads nothing, and writes none of the files forgotten', async () => {
    const api = await extensionApi();
    const url = standIn.url;
    const test = await turnCutShort(api, 'cut-by-sign-out', async (state) => {
      state.account = undefined;
      state.changed.fire();
      await state.folder.forget(url);
    });
    try {
      const reads = (await standIn.requests()).filter((r) => r.method === 'GET');
      assert.deepEqual(
        reads.map((r) => r.path),
        [],
        'nothing read after the sign-out',
      );
      const folder = new NewsFolder(folderApart(api, 'cut-by-sign-out'));
      try {
        assert.deepEqual([await folder.news(url), await folder.lease(url)], [undefined, undefined], 'the files stay forgotten');
      } finally {
        folder.dispose();
      }
    } finally {
      await test.dispose();
    }
  });

  it('switched to another account in the middle of a turn: the turn stops, and the account left is not read', async () => {
    const api = await extensionApi();
    const none = () => Promise.resolve({ items: [], received: 0 });
    const other: WatchedAccount = { url: 'https://other.example.com', postsPage: none, changedPostsPage: none, orderRefused: false };
    const test = await turnCutShort(api, 'cut-by-switch', async (state) => {
      state.account = other;
      state.changed.fire();
    });
    try {
      const reads = (await standIn.requests()).filter((r) => r.method === 'GET');
      assert.deepEqual(
        reads.map((r) => r.path),
        [],
        'the account left is not read',
      );
    } finally {
      await test.dispose();
    }
  });
});
