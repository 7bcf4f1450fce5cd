import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Page, Post } from '../../src/api';
import { postOf } from '../../src/views/postUri';
import { newsFileOf } from '../../src/watch/newsFileNames';
import { diskHooks, Uri } from './fakeVscode';
import { FakeService, MINUTE, WatchRig } from './watchRig';
import { whoIs } from './whoIs';

let rig: WatchRig;
afterEach(() => rig?.close());

/** Answers the next read of the list as it stood, then runs `duringRead` (a reply filed meanwhile) before the watcher has the answer. */
class ReplyDuringRead extends FakeService {
  duringRead: (() => void) | undefined;
  override async changedPostsPage(...args: Parameters<FakeService['changedPostsPage']>): Promise<Page<Post>> {
    const answer = await super.changedPostsPage(...args);
    const reply = this.duringRead;
    this.duringRead = undefined;
    reply?.();
    return answer;
  }
}

describe('watch: the watcher, several windows on one storage folder', () => {
  it('the everyday case: one baseline, then one notification in the focused window, one request a poll', async () => {
    rig = new WatchRig();
    const acme = new FakeService('https://acme.sugester.com');
    acme.add({ id: 1 });
    acme.add({ id: 2 });
    rig.window('A', acme, { focused: true });
    rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    assert.equal(acme.requests, 1, 'one baseline');
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(5 * MINUTE);
    assert.deepEqual(
      rig.shown.map((s) => [s.window, s.text]),
      [['A', 'A new post is assigned to you: "Post 3" (#3).']],
    );
    assert.equal(acme.requests, 2);
    await rig.clock.advance(60 * MINUTE);
    assert.equal(acme.requests, 14, 'twelve an idle hour');
    assert.equal(rig.shown.length, 1);
  });
});

const ACME = 'https://acme.sugester.com';
const BETA = 'https://beta.sugester.com';

/** A rig with window A (focused) on acme, past its baseline poll; acme holds posts 1 and 2. */
async function started<S extends FakeService = FakeService>(options: { oldestFirst?: boolean; perPage?: number } = {}, service?: S) {
  rig = new WatchRig();
  const acme = (service ?? new FakeService(ACME, options)) as S;
  acme.add({ id: 1 });
  acme.add({ id: 2 });
  const a = rig.window('A', acme, { focused: true });
  await rig.clock.advance(MINUTE);
  return { acme, a };
}

/** The first time a write through workspace.fs names a file starting `prefix`, `then` runs before it (once). */
function onWrite(prefix: string, then: () => unknown): void {
  diskHooks.beforeWrite = async (uri) => {
    if (!uri.path.slice(uri.path.lastIndexOf('/') + 1).startsWith(prefix)) return;
    diskHooks.beforeWrite = undefined;
    await then();
  };
}
afterEach(() => (diskHooks.beforeWrite = undefined));

const texts = () => rig.shown.map((s) => s.text);

describe('watch: every wait is capped, every poll is due', () => {
  for (const retryAfter of [3_000_000, 1e12]) {
    it(`a 429 asking ${retryAfter} s: no timer over 2^31−1 ms, and at most one poll an hour (Retry-After capped at 1 h)`, async () => {
      const { acme } = await started();
      acme.retryAfter = retryAfter;
      await rig.clock.advance(5 * MINUTE);
      const after429 = acme.requests;
      await rig.clock.advance(3 * 60 * MINUTE);
      assert.equal(rig.clock.overflows, 0);
      assert.ok(acme.requests - after429 <= 3, `${acme.requests - after429} requests in 3 hours`);
      assert.ok(acme.requests - after429 >= 2, 'it tries again within the cap');
      // A reload schedules from the files: the same cap.
      rig.windows[0]!.close();
      rig.window('A', acme, { focused: true });
      await rig.clock.advance(60 * MINUTE);
      assert.equal(rig.clock.overflows, 0);
    });
  }

  it('a lease 30 days ahead of a window that does not exist: no timer overflows, and the account is polled within the interval', async () => {
    const { acme, a } = await started();
    a.close();
    rig.corrupt('lease', JSON.stringify({ window: 'ghost', until: rig.clock.now + 30 * 24 * 60 * MINUTE }));
    const b = rig.window('B', acme, { focused: true });
    const before = acme.requests;
    await rig.clock.advance(10 * MINUTE);
    assert.equal(rig.clock.overflows, 0);
    assert.ok(acme.requests > before, 'polled');
    assert.ok(b);
  });
});

describe('watch: what is read from a file is validated', () => {
  const bad: [string, (now: number) => unknown][] = [
    ['a snapshot without posts', (now) => ({ snapshot: { newest: 2 }, items: [], seq: 1, polledAt: now, nextAt: now })],
    ['items not a list', (now) => ({ snapshot: { newest: 2, posts: {} }, items: 'x', seq: 1, polledAt: now, nextAt: now })],
    ['an item null', (now) => ({ snapshot: { newest: 2, posts: {} }, items: [null], seq: 1, polledAt: now, nextAt: now })],
    ['seq 1e308', (now) => ({ snapshot: { newest: 2, posts: {} }, items: [], seq: 1e308, polledAt: now, nextAt: now })],
    ['a list', () => []],
  ];
  for (const [name, content] of bad) {
    it(`a news file with ${name}: dropped (a silent baseline again), never written back; news after it is told`, async () => {
      const { acme } = await started();
      rig.corrupt('news', JSON.stringify(content(rig.clock.now)));
      await rig.clock.advance(6 * MINUTE);
      acme.add({ id: 3, responsible_id: 7 });
      await rig.clock.advance(6 * MINUTE);
      assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
      const news = [...rig.files()].find(([n]) => n.startsWith('news.'))![1];
      assert.ok(!news.includes('1e+308') && !news.includes('null'), news);
    });
  }

  it('a notified file with seq 1e308 is dropped: later news is told', async () => {
    const { acme } = await started();
    rig.corrupt('notified', JSON.stringify({ seq: 1e308 }));
    await rig.clock.advance(6 * MINUTE);
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
  });

  it('a notified file of the wrong shape, and news in the next poll: that news is told (found by the property test)', async () => {
    const { acme } = await started();
    rig.corrupt('notified', '{"items":[null],"seq":1}');
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
  });

  it('failures: the backoff grows (10, 20, 40, 60 minutes), whoever polls', async () => {
    const { acme } = await started();
    acme.down = true;
    const at: number[] = [];
    const start = rig.clock.now;
    for (let minute = 0; minute < 200; minute++) {
      const before = acme.requests;
      await rig.clock.advance(MINUTE);
      if (acme.requests > before) at.push(Math.round((rig.clock.now - start) / MINUTE));
    }
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    assert.deepEqual(gaps.slice(0, 4), [10, 20, 40, 60]);
  });
});

describe('watch: notifications', () => {
  it('earned while unfocused (the baseline too): shown when the window is focused', async () => {
    rig = new WatchRig();
    const acme = new FakeService(ACME);
    acme.add({ id: 1 });
    acme.add({ id: 2 });
    const a = rig.window('A', acme, { focused: false });
    await rig.clock.advance(MINUTE);
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), []);
    a.setFocus(true);
    await rig.clock.advance(MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
  });

  it('Open after the window moved to another account opens the post of the account it was about', async () => {
    const { acme, a } = await started();
    const beta = new FakeService(BETA);
    beta.add({ id: 31 });
    let choose: (label: string) => void = () => undefined;
    a.answer = new Promise((resolve) => (choose = resolve));
    acme.add({ id: 31, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.equal(rig.shown.length, 1);
    await a.switchTo(beta);
    choose('Open');
    await rig.clock.advance(MINUTE);
    const open = a.ran.find((r) => r.command === 'helpdesk.openPost');
    assert.ok(open, 'opened');
    assert.deepEqual(postOf(open.args[0] as never), { id: 31, accountUrl: ACME });
  });

  it('Show after the window moved to another account shows nothing of that account, and says whose news it was', async () => {
    const { acme, a } = await started();
    acme.add({ id: 31, responsible_id: 7 });
    acme.add({ id: 32, responsible_id: 7 });
    let choose: (label: string) => void = () => undefined;
    a.answer = new Promise((resolve) => (choose = resolve));
    await rig.clock.advance(6 * MINUTE);
    await a.switchTo(new FakeService(BETA));
    choose('Show');
    await rig.clock.advance(MINUTE);
    assert.deepEqual(
      a.ran.filter((r) => r.command === 'helpdesk.showNews'),
      [],
    );
    assert.ok(
      texts().some((t) => t.includes('acme.sugester.com')),
      texts().join('\n'),
    );
  });

  it('a window that claimed a notification and switched away before telling it: another window tells it (found by the property test)', async () => {
    rig = new WatchRig();
    const acme = new FakeService(ACME);
    const other = new FakeService('https://acme_sugester.com');
    for (const service of [acme, other]) {
      service.add({ id: 1 });
      service.add({ id: 2 });
    }
    const a = rig.window('A', acme, { focused: true });
    const b = rig.window('B', other);
    await rig.clock.advance(MINUTE);
    other.add({ id: 61, responsible_id: 7 });
    await rig.clock.advance(5 * MINUTE);
    assert.deepEqual(texts(), [], 'B is not focused');
    await a.switchTo(other);
    await rig.clock.advance(0);
    await a.switchTo(acme);
    a.setFocus(false);
    b.setFocus(true);
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 61" (#61).']);
  });

  it('focus moving from A to B while A writes the notified file: one notification', async () => {
    const { acme, a } = await started();
    const b = rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    acme.add({ id: 3, responsible_id: 7 });
    onWrite('notified.', () => {
      a.setFocus(false);
      b.setFocus(true);
    });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
  });
});

describe('watch: the notification is shown where the person is (issue 47)', () => {
  const HOSTILE = `Login https://evil.example/x\n${'é'.repeat(80)} [click](command:workbench.action.quit)`;

  it('focus moving from B to A while B decides: A, the window focused, shows it, once; B shows nothing', async () => {
    rig = new WatchRig();
    const acme = new FakeService(ACME);
    acme.add({ id: 1, title: HOSTILE });
    acme.add({ id: 2, title: HOSTILE });
    const a = rig.window('A', acme);
    const b = rig.window('B', acme, { focused: true });
    await rig.clock.advance(MINUTE);
    acme.add({ id: 3, title: HOSTILE, responsible_id: 7 });
    // B claims the telling; once its claim is written, and while B waits to trust it, the person moves to A.
    onWrite('notified.', () =>
      rig.clock.setTimeout(() => {
        b.setFocus(false);
        a.setFocus(true);
      }, 1),
    );
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(
      rig.shown.map((s) => s.window),
      ['A'],
      `shown in the window focused: ${JSON.stringify(rig.shown)}`,
    );
    const [told] = texts();
    assert.ok(told && !/[\n\r]/.test(told) && !told.includes('](') && told.includes('…" (#3)'), `plain, one line, cut: ${told}`);
  });

  it('a notified file that cannot be written: the poll goes on at its pace, and the news is told at the next', async () => {
    const { acme } = await started();
    let failing = true;
    let failed = 0;
    diskHooks.beforeWrite = (uri) => {
      if (failing && uri.path.slice(uri.path.lastIndexOf('/') + 1).startsWith('notified.')) {
        failed += 1;
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      }
    };
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.ok(failed > 0, 'the writes failed');
    assert.deepEqual(texts(), [], 'not told: it could not be counted as told');
    failing = false;
    const polled = acme.requests;
    acme.add({ id: 4, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.ok(acme.requests > polled, 'polled again within the interval');
    assert.deepEqual(texts(), ['2 posts assigned to you: "Post 4" (#4), "Post 3" (#3).']);
  });
});

describe('watch: accounts and their files', () => {
  it('news file names are one per account: addresses that differ by "." and "_", or by case, share none', () => {
    const folder = Uri.file('/storage/news') as never;
    const pairs = [
      ['https://acme.sugester.com', 'https://acme_sugester.com'],
      ['https://x.example.com/team.a', 'https://x.example.com/team_a'],
      ['https://x.example.com/Team', 'https://x.example.com/team'],
      ['https://x.example.com/a%2Eb', 'https://x.example.com/a.b'],
    ];
    for (const [one, two] of pairs) {
      const name = (url: string) => (newsFileOf(folder, url, 'news') as unknown as Uri).path.toLowerCase();
      assert.notEqual(name(one!), name(two!), `${one} and ${two}`);
    }
  });

  it('two accounts whose addresses differ only by "." and "_": each is polled, and each window shows its own news', async () => {
    rig = new WatchRig();
    const dot = new FakeService('https://acme.sugester.com');
    const under = new FakeService('https://acme_sugester.com');
    for (const service of [dot, under]) {
      service.add({ id: 1 });
      service.add({ id: 2 });
    }
    rig.window('A', dot);
    const b = rig.window('B', under, { focused: true });
    await rig.clock.advance(MINUTE);
    under.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.ok(dot.requests >= 2 && under.requests >= 2, `${dot.requests} and ${under.requests} requests`);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
    assert.deepEqual(
      b.watcher.items.map((i) => i.id),
      [3],
    );
    assert.deepEqual(
      rig.windows[0]!.watcher.items.map((i) => i.id),
      [],
    );
  });

  it('signed out while the poll writes: no file comes back, no timer stays, and the next sign-in is a silent baseline', async () => {
    const { acme, a } = await started();
    onWrite('news.', () => a.switchTo(undefined));
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual([...rig.files().keys()], []);
    assert.equal(rig.clock.pending, 0, 'no timer');
    acme.add({ id: 4, responsible_id: 7 });
    await a.switchTo(acme);
    await rig.clock.advance(20 * MINUTE);
    assert.deepEqual(texts(), [], 'signed in again: a silent baseline');
  });

  it('a switched window gives up its lease on the account it left: another window polls that account when it is due', async () => {
    const { acme, a } = await started();
    rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    const before = acme.requests;
    await a.switchTo(new FakeService(BETA));
    await rig.clock.advance(2 * MINUTE);
    assert.equal(acme.requests, before, 'not before it is due');
    await rig.clock.advance(90_000);
    assert.equal(acme.requests, before + 1, "B polls acme when A would have (not once A's lease would have ended)");
  });

  it('a window closed while it writes gives up its lease: the other polls on time', async () => {
    const { acme, a } = await started();
    rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    onWrite('news.', () => a.close());
    await rig.clock.advance(4 * MINUTE);
    const file = [...rig.files()].find(([n]) => n.startsWith('lease.'))?.[1];
    const lease = file === undefined ? undefined : (JSON.parse(file) as { window: string; until: number });
    assert.ok(!lease || lease.window !== 'A' || lease.until <= rig.clock.now, JSON.stringify(lease));
    const before = acme.requests;
    await rig.clock.advance(6 * MINUTE);
    assert.ok(acme.requests > before, 'B polled');
  });

  it('the backoff does not start again when the lease moves to another window', async () => {
    const { acme, a } = await started();
    rig.window('B', acme, { focused: true }); // awake after an hour
    acme.down = true;
    await rig.clock.advance(5 * MINUTE + 10 * MINUTE + 20 * MINUTE + MINUTE);
    assert.equal(acme.requests, 4, 'three failures, 10 and 20 minutes apart');
    a.close();
    const before = acme.requests;
    await rig.clock.advance(37 * MINUTE);
    assert.equal(acme.requests, before, 'B waits the 40 minutes the backoff had reached');
    await rig.clock.advance(3 * MINUTE);
    assert.equal(acme.requests, before + 1);
    await rig.clock.advance(50 * MINUTE);
    assert.equal(acme.requests, before + 1, 'and then the hour it grows to, not 10 minutes');
    await rig.clock.advance(15 * MINUTE);
    assert.equal(acme.requests, before + 2);
  });
});

describe('watch: time and pace', () => {
  it('the clock set back a day, then a reload: polls go on within the interval', async () => {
    const { acme, a } = await started();
    await rig.clock.advance(2 * MINUTE);
    await rig.clock.jump(-24 * 60 * MINUTE);
    a.close();
    rig.window('A', acme, { focused: true });
    const before = acme.requests;
    await rig.clock.advance(10 * MINUTE);
    assert.ok(acme.requests >= before + 1, 'polled');
  });

  it('a window of 1,440 minutes holds the lease: a window of 5 sees news within its own interval (the smallest interval sets the pace)', async () => {
    rig = new WatchRig();
    const acme = new FakeService(ACME);
    acme.add({ id: 1 });
    acme.add({ id: 2 });
    rig.window('B', acme, { intervalMinutes: 1440 });
    await rig.clock.advance(MINUTE);
    rig.window('A', acme, { focused: true });
    await rig.clock.advance(MINUTE);
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 3" (#3).']);
    const before = acme.requests;
    await rig.clock.advance(60 * MINUTE);
    assert.ok(acme.requests - before <= 12, `${acme.requests - before} requests an hour`);
  });

  it('oldest first, 100 posts, 25 a page (the last page full): an idle hour is at most 12 requests', async () => {
    const { acme } = await started({ oldestFirst: true, perPage: 25 });
    for (let id = 3; id <= 100; id++) acme.add({ id });
    await rig.clock.advance(10 * MINUTE);
    const before = acme.requests;
    await rig.clock.advance(60 * MINUTE);
    assert.ok(acme.requests - before <= 12, `${acme.requests - before} requests an idle hour`);
    acme.add({ id: 101, responsible_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['A new post is assigned to you: "Post 101" (#101).']);
  });
});

describe('watch: what the person did is not news to them', () => {
  it("a comment filed from VS Code on a post is not news; a colleague's comment after it is", async () => {
    const { acme, a } = await started();
    a.notify = 'mine';
    acme.add({ id: 30, user_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    rig.shown.length = 0;
    acme.add({ id: 30, comments_cache: 1 });
    a.me = whoIs(7, { commented: new Set([30]), comments: new Map([[30, 1]]) });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), []);
    acme.add({ id: 30, comments_cache: 2 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['New comments on "Post 30" (#30).']);
  });

  it('a reply filed while Check for News Now reads the list: after Mark All News as Seen, the next poll does not tell it as news', async () => {
    const { acme, a } = await started({}, new ReplyDuringRead(ACME));
    a.notify = 'mine';
    acme.add({ id: 30, user_id: 7 });
    await rig.clock.advance(6 * MINUTE);
    rig.shown.length = 0;
    // The list is answered as it stood; the reply is filed, and noted, before the watcher compares.
    acme.duringRead = () => {
      acme.add({ id: 30, comments_cache: 1 });
      a.me = whoIs(7, { commented: new Set([30]), comments: new Map([[30, 1]]) });
    };
    const checked = a.watcher.pollNow({ takeOver: true });
    await rig.clock.advance(1000);
    await checked;
    await a.watcher.markSeen(undefined);
    assert.deepEqual(a.watcher.unseenForMe, [], 'all seen');
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(
      a.watcher.unseenForMe.map(({ id, latest }) => ({ id, latest })),
      [],
      "the person's own reply is not news",
    );
    assert.deepEqual(texts(), []);
    acme.add({ id: 30, comments_cache: 2 });
    await rig.clock.advance(6 * MINUTE);
    assert.deepEqual(texts(), ['New comments on "Post 30" (#30).'], "a colleague's comment after it is");
  });

  it('titles are stored as far as they are shown: 100 posts of 100 KB titles make a small news file', async () => {
    const { acme } = await started();
    for (let id = 3; id < 103; id++) acme.add({ id, title: 'x'.repeat(100_000) });
    await rig.clock.advance(6 * MINUTE);
    const size = [...rig.files()].find(([n]) => n.startsWith('news.'))![1].length;
    assert.ok(size < 200_000, `${size} characters`);
  });
});

describe('watch: no repaint for nothing', () => {
  it('polls that find nothing new tell no change of the news (the rows and their marks are not drawn again), only of the polling; news, and a mark of it seen, do', async () => {
    const { acme, a } = await started();
    const b = rig.window('B', acme);
    await rig.clock.advance(MINUTE);
    const told = { a: 0, aStatus: 0, b: 0 };
    a.watcher.onDidChange(() => told.a++);
    a.watcher.onDidChangeStatus(() => told.aStatus++);
    b.watcher.onDidChange(() => told.b++);
    await rig.clock.advance(30 * MINUTE);
    assert.ok(acme.requests >= 6, `${acme.requests} polls`);
    assert.deepEqual([told.a, told.b], [0, 0], 'six idle polls: no window is told the news changed');
    assert.ok(told.aStatus >= 6, 'the status bar hears of each poll (when it was read)');
    acme.add({ id: 3, responsible_id: 7 });
    await rig.clock.advance(5 * MINUTE);
    assert.deepEqual([told.a, told.b], [1, 1], 'new news: told once in each window');
    await a.watcher.markSeen(undefined);
    await rig.clock.advance(1000);
    assert.deepEqual([told.a, told.b], [2, 2], 'seen: told once in each window');
  });
});
