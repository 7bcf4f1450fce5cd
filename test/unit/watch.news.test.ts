import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page, Post } from '../../src/api';
import { compare, heldNews, isSeen, newsPosts, SNAPSHOT_MAX, wanted, type Snapshot } from '../../src/watch/news';
import type { WhoIAm } from '../../src/accounts/identity';
import { whoIs } from './whoIs';
import { readNewest } from '../../src/watch/newestPosts';
import { parseSnapshot } from '../../src/watch/newsShapes';

const ME = 7;
const me = whoIs(ME, { commented: new Set([30]) });
const post = (id: number, fields: Partial<Post> = {}): Post => ({
  id,
  title: `Post ${id}`,
  user_id: 2,
  responsible_id: null,
  comments_cache: 0,
  closed: false,
  ...fields,
});
const poll = (before: Snapshot | undefined, posts: Post[], who: WhoIAm = me) => compare(before, posts, who, 1000);

describe('watch: news between two polls', () => {
  it('the first poll is a silent baseline, however much it holds', () => {
    const { news, snapshot } = poll(undefined, [post(12, { responsible_id: ME, comments_cache: 4 }), post(11), post(10, { closed: true })]);
    assert.deepEqual(news, []);
    assert.equal(snapshot.newest, 12);
  });

  it("the person's own update from VS Code (closed, reopened, assigned to them) is no news to them, as long as nothing came after it", () => {
    const before = poll(undefined, [
      post(31, { user_id: ME, updated_at: '2026-11-26T10:00:00Z' }),
      post(30, { updated_at: '2026-11-26T10:00:00Z' }),
    ]).snapshot;
    const own: WhoIAm = {
      ...me,
      updated: new Map([
        [31, '2026-11-26T11:00:00Z'],
        [30, '2026-11-26T11:00:00Z'],
      ]),
    };
    const closedByMe = post(31, { user_id: ME, closed: true, updated_at: '2026-11-26T11:00:00Z' });
    const assignedByMe = post(30, { responsible_id: ME, updated_at: '2026-11-26T11:00:00Z' });
    const { news, snapshot } = poll(before, [closedByMe, assignedByMe], own);
    assert.deepEqual(news, [], 'their own changes');
    // Someone reopens it after them: that is news again.
    const { news: later } = poll(
      snapshot,
      [post(31, { user_id: ME, closed: false, updated_at: '2026-11-26T12:00:00Z' }), assignedByMe],
      own,
    );
    assert.deepEqual(
      later.map(({ id, changes }) => ({ id, changes })),
      [{ id: 31, changes: ['reopened'] }],
    );
  });

  it('a post above the newest seen is new, and assigned when it is assigned to me; an older one coming into view is not news', () => {
    const { snapshot } = poll(undefined, [post(12), post(11)]);
    const { news } = poll(snapshot, [post(14, { responsible_id: ME }), post(13), post(12), post(11), post(5)]);
    assert.deepEqual(
      news.map(({ id, changes, assignedToMe }) => ({ id, changes, assignedToMe })),
      [
        { id: 14, changes: ['new', 'assigned'], assignedToMe: true },
        { id: 13, changes: ['new'], assignedToMe: false },
      ],
    );
  });

  it("assigned to me since, comments on my posts, closed and reopened: each is news; the same on another person's post is not", () => {
    const before = poll(undefined, [
      post(40, { user_id: 2 }),
      post(31, { user_id: ME }),
      post(30),
      post(20, { responsible_id: ME, closed: true }),
      post(19, { comments_cache: 1 }),
    ]).snapshot;
    const { news } = poll(before, [
      post(40, { user_id: 2, responsible_id: ME }),
      post(31, { user_id: ME, comments_cache: 2 }),
      post(30, { closed: true }),
      post(20, { responsible_id: ME, closed: false }),
      post(19, { comments_cache: 5, closed: true }),
    ]);
    assert.deepEqual(
      news.map(({ id, changes, mine }) => ({ id, changes, mine })),
      [
        { id: 40, changes: ['assigned'], mine: true },
        { id: 31, changes: ['commented'], mine: true },
        { id: 30, changes: ['closed'], mine: true },
        { id: 20, changes: ['reopened'], mine: true },
      ],
    );
  });

  it('with no id known, posts filed from VS Code are still mine; nothing is "assigned"', () => {
    const who = whoIs(undefined, { commented: new Set([30]) });
    const before = poll(undefined, [post(30), post(29, { responsible_id: ME })], who).snapshot;
    const { news } = poll(
      before,
      [post(31, { responsible_id: ME }), post(30, { comments_cache: 1 }), post(29, { responsible_id: ME, comments_cache: 3 })],
      who,
    );
    assert.deepEqual(
      news.map(({ id, changes }) => ({ id, changes })),
      [
        { id: 31, changes: ['new'] },
        { id: 30, changes: ['commented'] },
      ],
    );
  });

  it('a new post the person wrote (from VS Code, or as their user), or replied to before a poll saw it, is not news to them', () => {
    const who = whoIs(ME, { filed: new Set([31]), commented: new Set([33]) });
    const before = poll(undefined, [post(30)], who).snapshot;
    const { news, snapshot } = poll(
      before,
      [post(33), post(32, { user_id: ME, responsible_id: ME }), post(31, { responsible_id: ME }), post(30)],
      who,
    );
    assert.deepEqual(
      news.map(({ id, changes }) => ({ id, changes })),
      [],
    );
    assert.equal(snapshot.newest, 33, 'seen all the same');
    assert.equal(snapshot.posts[33]?.mine, true, 'followed as theirs from now on');
  });

  it('a new post the person replied to before a poll saw it is not new to them; assigned to them, it is told as assigned', () => {
    const before = poll(undefined, [post(30)]).snapshot;
    const replied = whoIs(ME, {
      commented: new Set([31, 32]),
      comments: new Map([
        [31, 1],
        [32, 1],
      ]),
    });
    const { news } = poll(
      before,
      [post(32, { user_id: null, comments_cache: 1, responsible_id: ME }), post(31, { user_id: null, comments_cache: 1 }), post(30)],
      replied,
    );
    assert.deepEqual(
      news.map(({ id, changes }) => ({ id, changes })),
      [{ id: 32, changes: ['assigned'] }],
    );
  });

  it("a reply filed while the list was read: counted from the poll whose count shows it, never as someone else's; comments past it are news", () => {
    const before = poll(undefined, [post(31, { user_id: ME, comments_cache: 5 }), post(30, { user_id: ME, comments_cache: 5 })]).snapshot;
    const none = whoIs(ME);
    const replied = whoIs(ME, {
      commented: new Set([30, 31]),
      comments: new Map([
        [30, 1],
        [31, 1],
      ]),
    });
    // On #31 the list was answered before the reply came in; on #30 after.
    const during = compare(
      before,
      [post(31, { user_id: ME, comments_cache: 5 }), post(30, { user_id: ME, comments_cache: 6 })],
      replied,
      2000,
      undefined,
      none.comments,
    );
    assert.deepEqual(during.news, []);
    const next = compare(
      during.snapshot,
      [post(31, { user_id: ME, comments_cache: 6 }), post(30, { user_id: ME, comments_cache: 6 })],
      replied,
      3000,
    );
    assert.deepEqual(next.news, [], 'the reply is counted once, on either side of the read');
    const answered = compare(
      next.snapshot,
      [post(31, { user_id: ME, comments_cache: 7 }), post(30, { user_id: ME, comments_cache: 7 })],
      replied,
      4000,
    );
    assert.deepEqual(
      answered.news.map(({ id, changes }) => ({ id, changes })),
      [
        { id: 31, changes: ['commented'] },
        { id: 30, changes: ['commented'] },
      ],
    );
  });

  it("replies filed before the read and during it, with the count falling meanwhile: each counted once, a colleague's comment told", () => {
    const mine = (count: number) => [post(30, { user_id: ME, comments_cache: count })];
    const own = (atRead: number, filed: number) =>
      [whoIs(ME, { commented: new Set([30]), comments: new Map([[30, filed]]) }), new Map([[30, atRead]])] as const;
    const at = (before: Snapshot, count: number, [who, atRead]: ReturnType<typeof own>) =>
      compare(before, mine(count), who, 2000, undefined, atRead);
    const before = poll(undefined, mine(5)).snapshot;
    // One reply between the polls (in the count), one during the read (not yet).
    const first = at(before, 6, own(1, 2));
    assert.deepEqual(first.news, []);
    const second = at(first.snapshot, 7, own(2, 2));
    assert.deepEqual(second.news, [], 'the reply filed during the read, counted by the next poll');
    assert.deepEqual(
      at(second.snapshot, 8, own(2, 2)).news.map(({ changes }) => changes),
      [['commented']],
    );
    // Two replies before the read, one during it, and a comment deleted meanwhile: the count falls.
    const falling = at(before, 4, own(2, 3));
    assert.deepEqual(falling.news, []);
    assert.deepEqual(
      at(falling.snapshot, 6, own(3, 3)).news.map(({ changes }) => changes),
      [['commented']],
      "the reply filed during the read, and a colleague's comment",
    );
  });

  it("a reply the list never counts (deleted first) does not hide a colleague's comment after it; the count is whole whatever the service sends", () => {
    const before = poll(undefined, [post(30, { user_id: ME, comments_cache: 5 })]).snapshot;
    const replied = whoIs(ME, { commented: new Set([30]), comments: new Map([[30, 1]]) });
    const first = poll(before, [post(30, { user_id: ME, comments_cache: 5 })], replied);
    const second = poll(first.snapshot, [post(30, { user_id: ME, comments_cache: 6 })], replied);
    assert.deepEqual(
      second.news.map(({ id, changes }) => ({ id, changes })),
      [{ id: 30, changes: ['commented'] }],
    );
    for (const count of [0.5, 5.5, 1e308, -3]) {
      const { snapshot } = compare(before, [post(30, { user_id: ME, comments_cache: count })], replied, 2000, undefined, new Map());
      const own = snapshot.posts[30]?.own ?? 0;
      assert.ok(Number.isSafeInteger(own) && own >= 0 && own <= 1, `${count}: ${own}`);
    }
  });

  it('a count of own comments past any that could be filed (a hand-edited state) still makes a snapshot the news file can read back', () => {
    const before = poll(undefined, [post(30, { user_id: ME, comments_cache: 5 })]).snapshot;
    for (const filed of [2 ** 31 + 1, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const who = whoIs(ME, { commented: new Set([30]), comments: new Map([[30, filed]]) });
      for (const atRead of [new Map([[30, filed]]), new Map<number, number>()]) {
        const { snapshot } = compare(before, [post(30, { user_id: ME, comments_cache: 2 ** 40 })], who, 2000, undefined, atRead);
        assert.ok(
          parseSnapshot(snapshot),
          `${filed}, ${atRead.size ? 'before the read' : 'during the read'}: ${JSON.stringify(snapshot.posts[30])}`,
        );
      }
    }
  });

  it("a comment the list holds among posts is not a post of its own: its post's count tells it", () => {
    const before = poll(undefined, [post(30, { user_id: ME })]).snapshot;
    const { news } = poll(before, [post(31, { post_id: 30, task_kind: 'comment' }), post(30, { user_id: ME, comments_cache: 1 })]);
    assert.deepEqual(
      news.map(({ id, changes }) => ({ id, changes })),
      [{ id: 30, changes: ['commented'] }],
    );
  });

  it('my posts stay known after they leave the newest page, others do not; the snapshot is bounded', () => {
    const before = poll(undefined, [post(31, { user_id: ME }), post(12)]).snapshot;
    const { snapshot } = poll(before, [post(33), post(32)]);
    assert.deepEqual(
      Object.keys(snapshot.posts)
        .map(Number)
        .sort((a, b) => b - a),
      [33, 32, 31],
    );
    const { news } = poll(snapshot, [post(33), post(31, { user_id: ME, comments_cache: 1 })]);
    assert.deepEqual(
      news.map((n) => n.changes),
      [['commented']],
      'seen again later: compared with what it was',
    );
    const many = Array.from({ length: SNAPSHOT_MAX + 50 }, (_, i) => post(i + 1, { user_id: ME }));
    assert.equal(Object.keys(poll(undefined, many).snapshot.posts).length, SNAPSHOT_MAX);
  });

  it('records without a usable id, or with wrong types, are skipped or read as nothing', () => {
    const before = poll(undefined, [post(5)]).snapshot;
    const odd = [
      { id: -1 },
      { id: 1.5 },
      { id: '9' },
      post(6, { title: 42 as never, comments_cache: 'x' as never, responsible_id: '7' as never }),
    ] as Post[];
    const { news } = poll(before, odd);
    assert.deepEqual(
      news.map(({ id, title, changes }) => ({ id, title, changes })),
      [{ id: 6, title: '', changes: ['new'] }],
    );
  });

  it('a new post with no title, or a title of nothing readable (bidi marks, zero-width spaces), is named by its text, as its row is', () => {
    const before = poll(undefined, [post(1)]).snapshot;
    const untitled = (p: Post) => `The text of ${p.id}`;
    const posts = [post(4, { title: '\u200f \u200b' }), post(3, { title: '' }), post(2, { title: ' Kept \u200f' }), post(1)];
    const { news } = compare(before, posts, me, 1000, untitled);
    assert.deepEqual(Object.fromEntries(news.map(({ id, title }) => [id, title])), {
      4: 'The text of 4',
      3: 'The text of 3',
      2: ' Kept \u200f',
    });
  });

  it('the snapshot keeps the latest updated_at seen (server clock), whatever order the posts came in; it never moves back', () => {
    const at = (minute: number) => `2025-05-19T10:${String(minute).padStart(2, '0')}:00.000+01:00`;
    const { snapshot } = poll(undefined, [
      post(12, { updated_at: at(5) }),
      post(11, { updated_at: at(30) }),
      post(10, { updated_at: 'not a time' }),
      post(9),
    ]);
    assert.equal(snapshot.updatedUpTo, Date.parse(at(30)));
    assert.equal(poll(snapshot, [post(12, { updated_at: at(1) })]).snapshot.updatedUpTo, Date.parse(at(30)));
    assert.equal(poll(undefined, [post(3)]).snapshot.updatedUpTo, undefined, 'no time seen: none kept');
  });

  it('an old post seen for the first time, assigned to me and changed since the last read, is news "assigned"; unchanged since, or another\'s, it is not', () => {
    const at = (minute: number) => `2025-05-19T10:${String(minute).padStart(2, '0')}:00.000+01:00`;
    const before = poll(undefined, [post(100, { updated_at: at(10) }), post(99, { updated_at: at(9) })]).snapshot;
    const { news, snapshot } = poll(before, [
      post(5, { responsible_id: ME, updated_at: at(20) }),
      post(4, { responsible_id: 3, updated_at: at(19) }),
      post(100, { updated_at: at(10) }),
      post(3, { responsible_id: ME, updated_at: at(10) }),
      post(2, { responsible_id: ME }),
    ]);
    assert.deepEqual(
      news.map(({ id, changes, assignedToMe, mine }) => ({ id, changes, assignedToMe, mine })),
      [{ id: 5, changes: ['assigned'], assignedToMe: true, mine: true }],
    );
    assert.equal(snapshot.updatedUpTo, Date.parse(at(20)));
    assert.ok(snapshot.posts[5]?.mine, 'kept from now on, compared by its facts');
    const older = { ...before, updatedUpTo: undefined };
    assert.deepEqual(
      poll(older, [post(5, { responsible_id: ME, updated_at: at(20) })]).news,
      [],
      'a snapshot with no time (written before): nothing to tell it changed since',
    );
  });

  it('what is told, by the notify setting', () => {
    const item = (changes: ('new' | 'assigned' | 'commented')[], mine: boolean) => ({
      id: 1,
      title: '',
      changes,
      mine,
      assignedToMe: changes.includes('assigned'),
      at: 0,
    });
    const cases = [item(['new', 'assigned'], true), item(['commented'], true), item(['new'], false)];
    assert.deepEqual(
      cases.map((c) => wanted(c, 'assignedToMe')),
      [true, false, false],
    );
    assert.deepEqual(
      cases.map((c) => wanted(c, 'mine')),
      [true, true, false],
    );
    assert.deepEqual(
      cases.map((c) => wanted(c, 'all')),
      [true, true, true],
    );
    assert.deepEqual(
      cases.map((c) => wanted(c, 'off')),
      [false, false, false],
    );
  });

  it('a post with news again is one row holding all its changes; what is told is what this poll found', () => {
    const first = poll(undefined, [post(11)]);
    const second = poll(first.snapshot, [post(12), post(11)]);
    let held = heldNews([], second.news, 1, 200);
    const third = poll(second.snapshot, [post(12, { responsible_id: ME }), post(11)]);
    held = heldNews(held, third.news, 2, 200, 1);
    assert.deepEqual(
      held.map(({ id, changes, latest, seq }) => ({ id, changes, latest, seq })),
      [{ id: 12, changes: ['new', 'assigned'], latest: ['assigned'], seq: 2 }],
    );
    assert.equal(wanted(held[0]!, 'assignedToMe'), true);
    // Assigned to me once, commented on since: the comment is not an assignment to tell again.
    const fourth = poll(third.snapshot, [post(12, { responsible_id: ME, comments_cache: 3 }), post(11)]);
    held = heldNews(held, fourth.news, 3, 200, 2);
    assert.deepEqual(held[0]?.latest, ['commented']);
    assert.equal(wanted(held[0], 'assignedToMe'), false);
    assert.equal(wanted(held[0], 'mine'), true);
    assert.equal(heldNews(held, poll(fourth.snapshot, [post(13), post(12)]).news, 4, 1).length, 1, 'bounded');
  });

  it('an assignment not told yet is still told when a later poll finds a comment on that post first', () => {
    const first = poll(undefined, [post(12)]);
    const assigned = poll(first.snapshot, [post(12, { responsible_id: ME })]);
    let held = heldNews([], assigned.news, 6, 200, 5);
    const commented = poll(assigned.snapshot, [post(12, { responsible_id: ME, comments_cache: 1 })]);
    // Nothing told since poll 5 (the window was not focused): poll 7's news adds to poll 6's.
    held = heldNews(held, commented.news, 7, 200, 5);
    assert.deepEqual(held[0]?.latest, ['assigned', 'commented']);
    assert.equal(wanted(held[0], 'assignedToMe'), true);
    // Told up to poll 6 already: poll 7 tells only its own.
    assert.deepEqual(heldNews(heldNews([], assigned.news, 6, 200, 5), commented.news, 7, 200, 6)[0]?.latest, ['commented']);
  });

  it('seen marks: news seen stays seen; news found on the post by a later poll is not seen', () => {
    const before = poll(undefined, [post(30)]).snapshot;
    const first = poll(before, [post(31), post(30, { comments_cache: 1 })]);
    let held = heldNews([], first.news, 1, 200);
    const seen = new Map(held.map((item) => [item.id, item.seq]));
    assert.deepEqual(
      held.map((item) => isSeen(item, seen)),
      [true, true],
    );
    held = heldNews(held, poll(first.snapshot, [post(31), post(30, { comments_cache: 2 })]).news, 2, 200);
    assert.deepEqual(
      held.map((item) => [item.id, isSeen(item, seen)]),
      [
        [30, false],
        [31, true],
      ],
    );
    assert.equal(isSeen(held[1]!, new Map()), false, 'nothing seen yet');
  });

  it('rows of the news: the post the view loaded where it has, else the post as the poll saw it', () => {
    const before = poll(undefined, [post(30, { user_id: ME })]).snapshot;
    const after = poll(before, [post(31), post(30, { user_id: ME, comments_cache: 2, closed: true })]);
    const loaded = new Map([[31, post(31, { title: 'Loaded, newer', status_id: 4 })]]);
    const rows = newsPosts(after.news, loaded, after.snapshot);
    assert.deepEqual(
      rows.map((p) => p.id),
      [31, 30],
    );
    assert.equal(rows[0], loaded.get(31));
    assert.deepEqual(rows[1], { id: 30, title: 'Post 30', user_id: ME, responsible_id: null, comments_cache: 2, closed: true });
    assert.deepEqual(
      newsPosts([{ id: 9, title: 'Only the news', changes: ['new'], assignedToMe: false, mine: false, at: 0 }], new Map(), undefined),
      [{ id: 9, title: 'Only the news', user_id: null, responsible_id: null, comments_cache: null, closed: false }],
    );
  });
});

/** A service holding posts 1…count, `perPage` a page, newest first or oldest first whatever it is asked. */
function service(count: number, perPage: number, newestFirst: boolean) {
  const reads: number[] = [];
  const ids = Array.from({ length: count }, (_, i) => (newestFirst ? count - i : i + 1));
  const read = async (page: number, asked?: number): Promise<Page<Post>> => {
    reads.push(page);
    const size = Math.min(asked ?? perPage, perPage);
    const items = ids.slice((page - 1) * size, page * size).map((id) => post(id));
    return { items, received: items.length };
  };
  return { reads, read };
}

describe('watch: the newest posts', () => {
  it('newest first: page 1, one request', async () => {
    const { reads, read } = service(250, 100, true);
    const { posts, newestPage } = await readNewest(read, undefined);
    assert.equal(posts[0]?.id, 250);
    assert.deepEqual(reads, [1]);
    assert.equal(newestPage, undefined);
  });

  it('oldest first: the last page, found once; then one request while it is short, more only once it fills', async () => {
    const first = service(250, 100, false);
    const found = await readNewest(first.read, undefined);
    assert.deepEqual(found.newestPage, { page: 3, full: 100 });
    assert.ok(found.posts.some((p) => p.id === 250));
    const again = service(251, 100, false);
    const next = await readNewest(again.read, found.newestPage);
    assert.deepEqual(again.reads, [3], 'one request');
    assert.ok(next.posts.some((p) => p.id === 251));
    const filled = service(301, 100, false);
    const after = await readNewest(filled.read, { page: 3, full: 100 });
    assert.ok(
      after.posts.some((p) => p.id === 301),
      'the post on the page after the one that filled',
    );
    assert.deepEqual(after.newestPage, { page: 4, full: 100 });
    assert.deepEqual(filled.reads, [3, 4], 'two requests');
    const exactly = service(300, 100, false);
    const short = (await readNewest(exactly.read, { page: 3, full: 100 })).newestPage;
    assert.deepEqual(exactly.reads, [3, 4], 'a full page and an empty one after it');
    assert.deepEqual(short, { page: 4, full: 99, perPage: 99, most: 100 }, 'read 99 a page from now on: the last page holds 3');
    const idle = service(300, 100, false);
    assert.deepEqual(
      (await readNewest(idle.read, short)).posts.map((p) => p.id),
      [298, 299, 300],
    );
    assert.deepEqual(idle.reads, [4], 'an idle poll is one request again');
    const grown = service(301, 100, false);
    assert.ok((await readNewest(grown.read, short)).posts.some((p) => p.id === 301));
    assert.deepEqual(grown.reads, [4]);
    const fresh = service(300, 100, false);
    assert.deepEqual((await readNewest(fresh.read, undefined)).newestPage, short, 'found exactly full the first time: the same');
    const grew = service(520, 100, false);
    const far = await readNewest(grew.read, { page: 3, full: 100 });
    assert.deepEqual(far.newestPage, { page: 6, full: 100 });
    assert.ok(
      far.posts.some((p) => p.id === 520),
      'grown by more than a page: searched again',
    );
  });

  it('oldest first, after posts were deleted: the last page is found again below', async () => {
    const shrunk = service(120, 100, false);
    const { posts, newestPage } = await readNewest(shrunk.read, { page: 3, full: 100 });
    assert.deepEqual(newestPage, { page: 2, full: 100 });
    assert.ok(posts.some((p) => p.id === 120));
  });
});
