import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import type { TestApi } from '../../../src/extension';
import { NOBODY } from '../../../src/accounts/identity';
import type { Notifier } from '../../../src/ui/notifier';
import type { PostNode } from '../../../src/views/nodes';
import { NewsFolder } from '../../../src/watch/newsFiles';
import { NewsWatcher, type WatchedAccount } from '../../../src/watch/watcher';
import type { RecordedRequest } from '../../server';
import {
  extensionApi,
  forEachProfile,
  outputLog,
  serverPosts,
  signInToStandIn,
  standIn,
  standInOf,
  useCleanSlate,
  waitFor,
} from './helpers';
import { config, elsewhere, freshStart, memoryLog, toldSince, useWatcher } from './newsHelpers';

const contrary = standInOf('contrary');

forEachProfile(() =>
  describe('news', () => {
    useCleanSlate();
    useWatcher();
    before(async () => {
      await config().update('watch.notify', 'all', vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await config().update('watch.notify', undefined, vscode.ConfigurationTarget.Global);
    });

    it('the first poll after sign-in is a silent baseline; a post made since is news, told once, and read in one request', async () => {
      const api = await freshStart();
      assert.equal(api.watcher.items.length, 0, 'what was there before is not news');
      const made = await elsewhere('POST', 'posts', { title: `Made in the web app ${Date.now()}`, task_kind: 'task', user_id: 99 });
      await standIn.clearRequests();
      const logged = outputLog(api).length;
      await api.watcher.pollNow();
      const item = api.watcher.items.find((n) => n.id === made.id);
      assert.deepEqual(item?.changes, ['new']);
      await waitFor('the notification', () => toldSince(api, logged).some((line) => line.includes(`#${made.id}`)));
      const reads = (await standIn.requests()).filter((r) => r.method === 'GET');
      assert.ok(reads.length <= 2, `at most two reads for a poll with news (${reads.map((r) => r.path).join(', ')})`);
      await standIn.clearRequests();
      await api.watcher.pollNow();
      assert.equal((await standIn.requests()).filter((r) => r.method === 'GET').length, 1, 'nothing changed: one request');
      assert.equal(toldSince(api, logged).filter((line) => line.includes(`#${made.id}`)).length, 1, 'told once');
    });

    it('a post assigned to me between polls is news for me, and the default setting tells it (and not a post for someone else)', async () => {
      const api = await freshStart();
      await config().update('watch.notify', undefined, vscode.ConfigurationTarget.Global);
      try {
        await vscode.commands.executeCommand('helpdesk.setWhoIAm', 7);
        const logged = outputLog(api).length;
        const post = await elsewhere('POST', 'posts', { title: `For someone ${Date.now()}`, task_kind: 'task', user_id: 99 });
        await api.watcher.pollNow();
        assert.deepEqual(api.watcher.items.find((n) => n.id === post.id)?.changes, ['new']);
        await elsewhere('PATCH', `posts/${post.id}`, { responsible_id: 7 });
        await api.watcher.pollNow();
        const item = api.watcher.items.find((n) => n.id === post.id);
        assert.deepEqual(item?.changes, ['new', 'assigned']);
        assert.ok(
          api.watcher.unseenForMe.some((n) => n.id === post.id),
          'counted for me',
        );
        await waitFor('the notification', () =>
          toldSince(api, logged).some((line) => /Assigned to you/.test(line) && line.includes(`#${post.id}`)),
        );
        assert.equal(toldSince(api, logged).length, 1, 'only the assignment was told');
      } finally {
        await config().update('watch.notify', 'all', vscode.ConfigurationTarget.Global);
      }
    });

    it('comments on a post filed from VS Code, and its closing, are news on it; the count and the badge say so, until seen', async () => {
      const api = await freshStart();
      const mine = await api.actions.createTask({ title: `Mine ${Date.now()}`, content: 'Filed here' });
      assert.ok(mine);
      await api.watcher.pollNow();
      await elsewhere('POST', 'posts', {
        post_id: mine.id,
        task_kind: 'comment',
        title: 'Re',
        content: 'A colleague answers',
        user_id: 99,
      });
      await elsewhere('PATCH', `posts/${mine.id}`, { closed: true });
      await api.watcher.pollNow();
      const item = api.watcher.items.find((n) => n.id === mine.id);
      assert.deepEqual(item?.changes.filter((c) => c !== 'new').sort(), ['closed', 'commented']);
      assert.ok(
        api.watcher.unseenForMe.some((n) => n.id === mine.id),
        'counted for me',
      );
      await vscode.commands.executeCommand('helpdesk.markNewsSeen');
      assert.equal(api.watcher.unseenForMe.length, 0, 'seen');
      assert.ok(
        api.watcher.items.some((n) => n.id === mine.id),
        'and still listed',
      );
    });
  }),
);

/**
 * Beyond the newest page: changes on old posts of mine, and more new posts than a page holds.
 * On the likely service only, which sorts by `updated_at` when asked: a service that does not
 * is read by id as before (the tests above, on every profile, keep it to one request when idle).
 */
describe('news beyond the newest page (likely service)', () => {
  useCleanSlate();
  useWatcher();
  /** Posts these tests made elsewhere, deleted after each test: other tests count the demo's posts. */
  const made: number[] = [];
  afterEach(async () => {
    for (const id of made.splice(0)) await standIn.deleteRecord('posts', id);
  });

  /** `count` posts made in the web app by someone else, oldest first. */
  async function madeElsewhere(count: number, title: string): Promise<Post[]> {
    const posts: Post[] = [];
    for (let i = 1; i <= count; i++) {
      const post = await elsewhere('POST', 'posts', { title: `${title} ${i}`, task_kind: 'task', user_id: 99 });
      made.push(post.id);
      posts.push(post);
    }
    return posts;
  }

  it('a comment on, and then the closing of, a post of mine beyond the newest 100 posts are news', async () => {
    const api = await freshStart();
    const mine = await api.actions.createTask({ title: `Mine, soon old ${Date.now()}`, content: 'Filed here' });
    assert.ok(mine);
    made.push(mine.id);
    await api.watcher.pollNow();
    await madeElsewhere(101, 'Newer than mine');
    await api.watcher.pollNow();
    const comment = await elsewhere('POST', 'posts', {
      post_id: mine.id,
      task_kind: 'comment',
      title: 'Re',
      content: 'An answer on an old post',
      user_id: 99,
    });
    made.unshift(comment.id);
    await api.watcher.pollNow();
    assert.deepEqual(api.watcher.items.find((n) => n.id === mine.id)?.changes, ['commented'], 'the comment is news');
    await elsewhere('PATCH', `posts/${mine.id}`, { closed: true });
    await api.watcher.pollNow();
    assert.deepEqual(api.watcher.items.find((n) => n.id === mine.id)?.changes, ['commented', 'closed'], 'the closing is news');
  });

  it('an old post, beyond the newest 100, newly assigned to me is news', async () => {
    await madeElsewhere(101, 'Newer than the old one');
    const api = await freshStart();
    await vscode.commands.executeCommand('helpdesk.setWhoIAm', 7);
    const old = (await serverPosts<Post>()).find((p) => !p.post_id && p.responsible_id !== 7);
    assert.ok(old, 'an old post of the demo, not a comment');
    const before = old.responsible_id;
    try {
      await elsewhere('PATCH', `posts/${old.id}`, { responsible_id: 7 });
      await api.watcher.pollNow();
      const item = api.watcher.items.find((n) => n.id === old.id);
      assert.deepEqual(item?.changes, ['assigned']);
      assert.ok(
        api.watcher.unseenForMe.some((n) => n.id === old.id),
        'counted for me',
      );
    } finally {
      await elsewhere('PATCH', `posts/${old.id}`, { responsible_id: before ?? null });
    }
  });

  it('150 new posts between two polls are all news; then an idle poll is one request', async () => {
    const api = await freshStart();
    const posts = await madeElsewhere(150, 'One of many');
    await api.watcher.pollNow();
    const news = new Set(api.watcher.items.filter((n) => n.changes.includes('new')).map((n) => n.id));
    assert.deepEqual(
      posts.filter((p) => !news.has(p.id)).map((p) => p.id),
      [],
      'none lost',
    );
    await standIn.clearRequests();
    await api.watcher.pollNow();
    assert.equal((await standIn.requests()).filter((r) => r.method === 'GET').length, 1, 'nothing changed: one request');
  });
});

describe('news: costs and failures', () => {
  useCleanSlate();
  useWatcher();

  it('a 429 waits as long as it asks, and longer after each failure; said in the status, not in a notification', async () => {
    const api = await freshStart();
    await standIn.addFault({ method: 'GET', path: '/app.json', status: 429, headers: { 'Retry-After': '1200' }, times: 5 });
    const logged = outputLog(api).length;
    await api.watcher.pollNow();
    const { problem, nextAt } = api.watcher.status;
    assert.match(problem ?? '', /slow down|429|too many/i);
    assert.ok(
      nextAt !== undefined && nextAt - Date.now() > 1100_000,
      `the next poll waits at least 1,200 s (${nextAt && Math.round((nextAt - Date.now()) / 1000)} s)`,
    );
    assert.deepEqual(toldSince(api, logged), [], 'no notification of it');
  });

  it('two windows of one account: the one holding the lease reads, the other shows the same news, and it is told once, in one window', async () => {
    const api = await freshStart();
    await config().update('watch.notify', 'all', vscode.ConfigurationTarget.Global);
    const told: string[] = [];
    const ui = { info: async (message: string) => void told.push(message) } as unknown as Notifier;
    // Another window of this VS Code: a watcher of its own over the same storage folder.
    const folder = new NewsFolder(api.context.globalStorageUri);
    const { log, lines } = memoryLog();
    const other = new NewsWatcher(
      () => api.gateway.current?.account,
      api.session.onDidChange,
      () => NOBODY,
      folder,
      'another-window',
      ui,
      log,
    );
    other.start();
    try {
      await standIn.clearRequests();
      await other.pollNow();
      assert.equal((await standIn.requests()).length, 0, 'the other window leaves the reading to the one that holds the lease');
      const made = await elsewhere('POST', 'posts', { title: `Seen in two windows ${Date.now()}`, task_kind: 'task', user_id: 99 });
      const logged = outputLog(api).length;
      const tellings = () => [...toldSince(api, logged), ...told].filter((line) => line.includes(`#${made.id}`));
      await api.watcher.pollNow();
      await waitFor('the other window to show the news', () => other.items.some((n) => n.id === made.id));
      await waitFor('the notification', () => tellings().length > 0);
      // Check for News Now in the other window reads there, and this one then leaves the reading to it.
      await standIn.clearRequests();
      await other.pollNow({ takeOver: true });
      assert.ok((await standIn.requests()).length > 0, 'asked for in the other window, read there');
      assert.ok(
        lines.some((line) => line.startsWith('News: the service')),
        'its first poll checked the order of the list',
      );
      await standIn.clearRequests();
      await api.watcher.pollNow();
      assert.equal((await standIn.requests()).length, 0, 'this window no longer reads');
      assert.equal(tellings().length, 1, `told once, in one window: ${tellings().join(' | ')}`);
    } finally {
      other.dispose();
      folder.dispose();
      await config().update('watch.notify', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('signed out, or disposed: no request, and no timer that reads (watched over several polls at a short interval)', async () => {
    const api = await extensionApi();
    await api.session.signOut();
    await standIn.clearRequests();
    await api.watcher.pollNow();
    assert.equal((await standIn.requests()).length, 0);
    assert.ok(api.watcher.status.off);
    await signInToStandIn();

    // A watcher as another window has, on an account no other watcher reads (this window is back
    // on its own), over files of its own, with a minute of 20 ms: it reads every 100 ms, after
    // each turn's wait for the lease to settle (300 ms).
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn();
    const account = await api.gateway.accountFor(contrary.url);
    assert.ok(account);
    let current: WatchedAccount | undefined = account;
    const changed = new vscode.EventEmitter<void>();
    const storage = vscode.Uri.joinPath(api.context.globalStorageUri, 'timer-test');
    const folder = new NewsFolder(storage);
    const { log } = memoryLog();
    const ui = { info: () => Promise.resolve(undefined) } as unknown as Notifier;
    const watcher = new NewsWatcher(
      () => current,
      changed.event,
      () => NOBODY,
      folder,
      'timer-window',
      ui,
      log,
      20,
    );
    watcher.start();
    const control = (init?: RequestInit) => fetch(`${contrary.url}/__standin/requests`, init);
    const reads = async () => ((await (await control()).json()) as RecordedRequest[]).filter((r) => r.method === 'GET').length;
    /** What is read over the time of some four turns. */
    const readsAfterwards = async () => {
      // A read the turn had sent before it was aborted may still land: the stand-in records a
      // request once its body is read, so it could come after the list is cleared. A timer that
      // reads (every 100 ms here) still shows over the time counted.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await control({ method: 'DELETE' });
      await new Promise((resolve) => setTimeout(resolve, 1600));
      return reads();
    };
    try {
      await control({ method: 'DELETE' });
      await waitFor('the timer to read, again and again', async () => (await reads()) >= 3);
      current = undefined; // signed out, as the session tells it
      changed.fire();
      await watcher.pollNow(); // after the turn under way, if any
      assert.equal(await readsAfterwards(), 0, 'signed out: nothing read');
      current = account;
      changed.fire();
      await control({ method: 'DELETE' });
      await waitFor('the timer to read again once signed in', async () => (await reads()) >= 3);
      watcher.dispose();
      await watcher.pollNow(); // after the turn under way, if any
      assert.equal(await readsAfterwards(), 0, 'disposed: nothing read');
    } finally {
      watcher.dispose();
      changed.dispose();
      folder.dispose();
      await vscode.workspace.fs.delete(storage, { recursive: true });
      await api.session.signOut(contrary.url);
    }
  });
});

describe('news in the Helpdesk view', () => {
  useCleanSlate();
  useWatcher();
  afterEach(async () => {
    await vscode.commands.executeCommand('helpdesk.showAllPosts');
    (await extensionApi()).posts.setFilter({});
  });

  const rowsOf = async (api: TestApi) =>
    (await api.posts.getChildren()).filter((n): n is PostNode => n.contextValue?.startsWith('post') === true);
  const rowOf = async (api: TestApi, id: number) => (await rowsOf(api)).find((n) => n.post.id === id);
  const markOf = async (api: TestApi, id: number) => {
    const row = await rowOf(api, id);
    return row?.resourceUri && api.rowDecorations.provideFileDecoration(row.resourceUri)?.badge;
  };

  it('Changed Only lists the news, marked N until seen; opening keeps it listed; Mark as Seen and Unseen; news again is unseen again', async () => {
    const api = await freshStart();
    const mine = await api.actions.createTask({ title: `Filed here ${Date.now()}`, content: 'Mine' });
    assert.ok(mine);
    const theirs = await elsewhere('POST', 'posts', { title: `Someone else's ${Date.now()}`, task_kind: 'task', user_id: 99 });
    await api.watcher.pollNow();
    assert.ok(!api.watcher.items.some((n) => n.id === mine.id), 'a post filed here is not news to the one who filed it');
    await elsewhere('POST', 'posts', { post_id: mine.id, task_kind: 'comment', title: 'Re', content: 'First answer', user_id: 99 });
    await api.watcher.pollNow();
    await vscode.commands.executeCommand('helpdesk.showChangedOnly');
    assert.match(api.postsView.description ?? '', /Changed Only/);
    assert.deepEqual(
      (await rowsOf(api)).map((n) => n.post.id),
      [mine.id, theirs.id],
      'the news, the latest found first, and nothing else',
    );
    assert.equal(await markOf(api, mine.id), 'N');
    assert.match((await rowOf(api, mine.id))?.contextValue ?? '', /\.unseen$/);

    await api.postDocuments.open(mine.id);
    assert.ok(await rowOf(api, mine.id), 'opened, still listed');

    await vscode.commands.executeCommand('helpdesk.markPostSeen', await rowOf(api, mine.id));
    assert.equal(await markOf(api, mine.id), undefined, 'seen: no mark');
    assert.match((await rowOf(api, mine.id))?.contextValue ?? '', /\.seen$/);
    assert.ok(!api.watcher.unseenForMe.some((n) => n.id === mine.id), 'not counted');
    await vscode.commands.executeCommand('helpdesk.markPostUnseen', await rowOf(api, mine.id));
    assert.equal(await markOf(api, mine.id), 'N', 'unseen again');
    await vscode.commands.executeCommand('helpdesk.markPostSeen', await rowOf(api, mine.id));

    await elsewhere('POST', 'posts', { post_id: mine.id, task_kind: 'comment', title: 'Re', content: 'An answer', user_id: 99 });
    await api.watcher.pollNow();
    assert.equal(await markOf(api, mine.id), 'N', 'a comment since it was seen is news again');

    api.posts.setFilter({ text: "Someone else's" });
    assert.deepEqual(
      (await rowsOf(api)).map((n) => n.post.id),
      [theirs.id],
      'the filter applies',
    );
    await vscode.commands.executeCommand('helpdesk.showAllPosts');
    assert.ok(!/Changed Only/.test(api.postsView.description ?? ''));
  });

  it('Mark All News as Seen says how many, and its Undo takes back exactly those marks', async () => {
    const api = await freshStart();
    const a = await elsewhere('POST', 'posts', { title: `One ${Date.now()}`, task_kind: 'task', user_id: 99 });
    const b = await elsewhere('POST', 'posts', { title: `Two ${Date.now()}`, task_kind: 'task', user_id: 99 });
    await api.watcher.pollNow();
    await vscode.commands.executeCommand('helpdesk.markPostSeen', a.id);
    const logged = outputLog(api).length;
    const marked = await vscode.commands.executeCommand<number[]>('helpdesk.markNewsSeen');
    assert.deepEqual(marked, [b.id], 'only what was not seen already');
    assert.ok(toldSince(api, logged).some((line) => /Marked the news on 1 post as seen/.test(line)));
    await api.watcher.markSeen(marked, false); // what Undo does
    assert.deepEqual(
      [a.id, b.id].map((id) => api.watcher.isSeen(id)),
      [true, false],
    );
  });

  it('Show News opens Changed Only over every post; the bell in the status bar opens Assigned to Me', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('helpdesk.showNews');
    assert.deepEqual([api.posts.showsChangedOnly, api.posts.currentScope], [true, 'everything']);
    await vscode.commands.executeCommand('helpdesk.showNews', 'assignedToMe');
    assert.deepEqual([api.posts.showsChangedOnly, api.posts.currentScope], [false, 'assignedToMe']);
    await api.posts.setScope('everything');
  });

  it('a post the helpdesk says is unread is marked U, news or not', async () => {
    const api = await freshStart();
    const post = await elsewhere('POST', 'posts', { title: `Unread ${Date.now()}`, task_kind: 'task', user_id: 99, unread: true });
    await api.store.posts.refresh();
    assert.equal(await markOf(api, post.id), 'U');
    await api.watcher.pollNow();
    await api.watcher.markSeen([post.id]);
    await vscode.commands.executeCommand('helpdesk.showChangedOnly');
    assert.equal(await markOf(api, post.id), 'U', 'news seen, still unread in the helpdesk');
  });
});
