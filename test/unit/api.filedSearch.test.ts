import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type Page, type Post } from '../../src/api';
import { withDraftRef } from '../../src/drafts/draftRef';
import { searchFiled, SEARCH_PAGES, type FiledSought, type PostList } from '../../src/api/filedSearch';
import type { FiledPost } from '../../src/api/listKnowledge';

/* The search after a lost answer, against lists that behave in ways no document rules out. Each
 * case here is one an adversarial review found concluding "not filed" (and so filing twice) or
 * taking another post for the one filed. */

const task = (id: number, content: unknown = `c${id}`): Post => ({ id, title: `t${id}`, content, task_kind: 'task' }) as Post;
const bug = (id: number, content: unknown): Post => ({ id, title: `b${id}`, content, kind: 'error', task_kind: null }) as Post;
const comment = (id: number, parentId: number, content: unknown): Post =>
  ({ id, content, post_id: parentId, task_kind: 'comment' }) as Post;

/** A list newest first, `perPage` a page, that sorts by id; `listed` is what it shows of a post (undefined: not listed). */
function listOf(posts: () => Post[], { perPage = 100, listed = (post: Post): Post | undefined => post, emptyOnce = 0 } = {}) {
  const asked: number[] = [];
  let empties = emptyOnce;
  const list: PostList = {
    page: async (page) => {
      asked.push(page);
      const rows = posts()
        .flatMap((post) => listed(post) ?? [])
        .sort((a, b) => b.id - a.id);
      if (page === empties) {
        empties = 0;
        return { items: [], received: 0 };
      }
      const items = rows.slice((page - 1) * perPage, page * perPage);
      return { items, received: items.length } satisfies Page<Post>;
    },
    sortsById: async () => true,
  };
  return { list, asked };
}

const ours = (id: number, kind: FiledPost['kind'] = 'task'): FiledPost => ({ id, ref: `hb-known${String(id).padStart(6, '0')}`, kind });
const sought = (kind: FiledSought['kind'], ref: string, after: number | undefined, more: Partial<FiledSought> = {}): FiledSought => ({
  kind,
  ref,
  after,
  markerAtHead: true,
  ...more,
});
const tasks = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => task(from + i));

describe('searchFiled', () => {
  it('"absent" only where this search saw a task of ours listed with its marker first, and read back past the first try', async () => {
    const posts = [...tasks(1, 8), task(9, withDraftRef('ours', ours(9).ref)), task(10), task(11)];
    const { list } = listOf(() => posts);
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 10), list, [ours(9)]), 'absent');
    assert.equal(
      await searchFiled(sought('task', 'hb-0000000000', 10), list, []),
      'unproven',
      'nothing of ours to see: no proof the list shows markers',
    );
    assert.equal(
      await searchFiled(sought('task', 'hb-0000000000', 10), list, [ours(9, 'bug')]),
      'unproven',
      'a bug report of ours proves nothing of tasks',
    );
    assert.equal(
      await searchFiled(sought('task', 'hb-0000000000', 10, { markerAtHead: false }), list, [ours(9)]),
      'unproven',
      'an earlier version put the marker at the end: a list may cut or strip it where it keeps a first line',
    );
  });

  it('knowledge is of this search only: our post listed now without its marker (content left out, or an abstract before it) proves nothing', async () => {
    let shown: 'full' | 'omitted' | 'abstract' = 'full';
    const posts = [...tasks(1, 8), task(9, withDraftRef('ours', ours(9).ref)), task(10)];
    const listed = (post: Post) =>
      shown === 'full'
        ? post
        : shown === 'omitted'
          ? { ...post, content: undefined }
          : { ...post, content: 'An abstract the service wrote' };
    const { list } = listOf(() => posts, { listed });
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 9), list, [ours(9)]), 'absent');
    shown = 'abstract';
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 9), list, [ours(9)]), 'unproven');
    shown = 'omitted';
    posts.push(task(11, withDraftRef('lost', 'hb-lostlost00')));
    assert.equal(
      await searchFiled(sought('task', 'hb-lostlost00', 10), list, [ours(9)]),
      'unsure',
      'a post that may be the one, listed without its content',
    );
  });

  it('a list that leaves the content of long posts out: the long one may be ours, so "unsure"', async () => {
    const posts = [
      ...tasks(1, 8),
      task(9, withDraftRef('short', ours(9).ref)),
      task(10, withDraftRef('x'.repeat(20_000), 'hb-longlong00')),
    ];
    const listed = (post: Post) => (String(post.content).length > 10_000 ? { ...post, content: undefined } : post);
    const { list } = listOf(() => posts, { listed });
    assert.equal(await searchFiled(sought('task', 'hb-longlong00', 9), list, [ours(9)]), 'unsure');
  });

  it('a post that quotes the marker (a reply to the mailed report) is not the one filed, and is reason to ask', async () => {
    const ref = 'hb-aaaaaaaaaa';
    const reply = {
      id: 11,
      title: 'Re: Crash',
      content: `Thanks!\n\n> Sent from VS Code · ${ref}\n> it crashes`,
      task_kind: 'email',
    } as Post;
    const { list } = listOf(() => [...tasks(1, 9), bug(8, withDraftRef('old', ours(8).ref)), reply]);
    assert.equal(await searchFiled(sought('bug', ref, 9), list, [ours(8, 'bug')]), 'unsure');
  });

  it('the marker first, on a post of another kind: not taken for the one filed (a copy pasted into a task)', async () => {
    const ref = 'hb-bbbbbbbbbb';
    const { list } = listOf(() => [...tasks(1, 9), task(10, withDraftRef('pasted', ref))]);
    assert.equal(await searchFiled(sought('bug', ref, 9), list, []), 'unsure');
    const found = await searchFiled(sought('task', ref, 9), list, []);
    assert.equal(typeof found === 'object' && found.id, 10);
  });

  it('a bug report is a post of kind error (with no task kind, or task kind error); a comment is one on its post', async () => {
    const ref = 'hb-cccccccccc';
    for (const taskKind of [null, undefined, 'error'] as const) {
      const { list } = listOf(() => [...tasks(1, 9), { ...bug(10, withDraftRef('crash', ref)), task_kind: taskKind }]);
      const found = await searchFiled(sought('bug', ref, 9), list, []);
      assert.equal(typeof found === 'object' && found.id, 10, String(taskKind));
    }
    const { list } = listOf(() => [...tasks(1, 9), comment(10, 3, withDraftRef('said', ref))]);
    assert.equal(await searchFiled(sought('comment', ref, 9, { parentId: 4 }), list, []), 'unsure', 'on another post');
    const found = await searchFiled(sought('comment', ref, 9, { parentId: 3 }), list, []);
    assert.equal(typeof found === 'object' && found.id, 10);
  });

  it("an earlier version's draft: its marker at the end is found there", async () => {
    const ref = 'hb-dddddddddd';
    const { list } = listOf(() => [...tasks(1, 9), task(10, `text\n\nSent from VS Code · ${ref}`)]);
    const found = await searchFiled(sought('task', ref, 9, { markerAtHead: false }), list, []);
    assert.equal(typeof found === 'object' && found.id, 10);
  });

  it('an empty first page where posts are known to exist (a cache, a view picked by order): "unsure"', async () => {
    const { list } = listOf(() => [...tasks(1, 8), task(9, withDraftRef('ours', ours(9).ref))], { emptyOnce: 1 });
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 9), list, [ours(9)]), 'unsure');
  });

  it('an empty page once, mid-list, on a service that does not sort: the end is read twice, and a second look that is not empty is "unsure"', async () => {
    const posts = [task(250, withDraftRef('ours', ours(250).ref)), ...tasks(1, 249)];
    const { list, asked } = listOf(() => posts, { emptyOnce: 2 });
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', undefined), list, [ours(250)]), 'unsure');
    assert.deepEqual(asked, [1, 2, 2]);
    const steady = listOf(() => posts);
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', undefined), steady.list, [ours(250)]), 'absent');
    assert.deepEqual(steady.asked, [1, 2, 3, 4, 4], 'to the empty page, twice');
  });

  it('a 404 for the first page: "unsure", not an error that stops the person', async () => {
    const list: PostList = {
      page: async () => {
        throw new ApiError({ kind: 'notFound', status: 404, method: 'GET', path: '/app.json', host: 'acme.example.com' } as never);
      },
      sortsById: async () => true,
    };
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 5), list, []), 'unsure');
  });

  it(`reads at most ${SEARCH_PAGES} pages, however far back the first try was ("unsure"), or past it without our post ("unproven")`, async () => {
    const posts = tasks(1, 3000);
    const far = listOf(() => posts, { perPage: 25 });
    assert.equal(await searchFiled(sought('task', 'hb-0000000000', 100), far.list, []), 'unsure');
    assert.equal(far.asked.length, SEARCH_PAGES);
    posts[0] = task(1, withDraftRef('ours', ours(1).ref));
    const near = listOf(() => posts, { perPage: 25 });
    assert.equal(
      await searchFiled(sought('task', 'hb-0000000000', 2990), near.list, [ours(1)]),
      'unproven',
      'past the first try, but our task is further back than the search reads',
    );
    assert.equal(near.asked.length, SEARCH_PAGES);
  });
});
