import type { Page, Post } from '../api';
import { updatedAt } from '../api/postChanges';
import type { Snapshot } from './news';
import { readNewest, type NewestPage } from './newestPosts';

/**
 * What a poll reads: every post changed since the last poll, where the service lets one request
 * find them; else the newest posts, as before. No vscode import.
 *
 * Asked `order=updated_at.desc` (the sister product's convention: likely, not confirmed), a
 * service that sorts so lists first every post changed since the last read: new ones, and old
 * ones of the person's (commented on, closed, reopened, assigned to them) however far below the
 * newest by id. Its order is never taken on trust: the answer must be seen sorted (see
 * `updatedOrder`). One that ignores the order (oldest first, or newest first by id) or refuses
 * it is read by id as before (`readNewest`): changes on a post are then seen only while it is
 * among the newest.
 *
 * A comment is seen on an old post only if the service moves the post's `updated_at` when a
 * comment is added (the stand-in does, as Rails' `touch` would; the real service: not known).
 * If it does not, a comment is seen only while its post is among the latest changed that one
 * page holds, much as before only while the post was among the newest by id.
 */

/** How the list is read: latest changed first (`updated_at`), or the newest by id. */
export type ReadOrder = 'updated' | 'id';

/** The pages a poll can ask for: functions, called unbound. */
export interface ChangesSource {
  /** Page `page` asked latest changed first (`order=updated_at.desc`): the service may ignore that, or refuse it. */
  byUpdated: (page: number) => Promise<Page<Post>>;
  /** Page `page` asked newest first (`order=id.desc`), `perPage` a page (undefined: the most the service gives). */
  byId: (page: number, perPage?: number) => Promise<Page<Post>>;
  /** Whether the service was seen to refuse `order` (422): it then lists in its own order. */
  orderRefused: () => boolean;
}

/** What the last poll chose, kept in the news file for the next one. */
export interface ReadState {
  order?: ReadOrder;
  /** Where a service that lists oldest first keeps its newest posts (see `readNewest`). */
  newestPage?: NewestPage;
}

export interface ChangesRead extends ReadState {
  /** The posts read, each once, in the order read. */
  posts: Post[];
  order: ReadOrder;
  /** More pages of changes than `MAX_CHANGED_PAGES`: those beyond were not read, and are no news. */
  beyondBound: boolean;
}

/** At most this many pages of changes a poll: beyond, the rest is not news (the baseline moves on). */
export const MAX_CHANGED_PAGES = 5;

/**
 * Reads what changed since `since` (the last poll's snapshot; none: the first poll, a silent
 * baseline of one page). `state` is what the last poll chose. `recheck` asks the service for its
 * order by `updated_at` again even where the last poll chose to read by id: the watcher asks it
 * at its first poll after it started (a window opened, a sign-in), and keeps the choice until
 * then, so that an idle poll stays one request.
 */
export async function readChanges(
  source: ChangesSource,
  state: ReadState,
  since: Pick<Snapshot, 'newest' | 'updatedUpTo'> | undefined,
  recheck: boolean,
): Promise<ChangesRead> {
  if (!source.orderRefused() && (recheck || state.order !== 'id')) {
    const first = await source.byUpdated(1);
    const order = source.orderRefused() ? 'unsorted' : updatedOrder(first.items);
    // At a check, only an answer seen sorted; after one, any answer not seen out of order.
    if (order === 'sorted' || (order === 'unproven' && !recheck && state.order === 'updated')) {
      const changed = (post: Post) => since?.updatedUpTo !== undefined && (updatedAt(post) ?? -Infinity) > since.updatedUpTo;
      return { ...(await nextPages(source.byUpdated, first.items, since ? changed : () => false)), order: 'updated' };
    }
  }
  const { posts, newestPage } = await readNewest(source.byId, state.newestPage);
  // Newest first (no last page to keep): the pages after the first, while all of one is new. A
  // service that lists oldest first is read as `readNewest` does, without them (it finds the
  // newest one or two pages: more than those lose the older new posts, as before).
  if (newestPage || !since) return { posts, newestPage, order: 'id', beyondBound: false };
  return {
    ...(await nextPages(
      (page) => source.byId(page),
      posts,
      (post) => post.id > since.newest,
    )),
    order: 'id',
  };
}

/**
 * `first`, and the pages after it while every post of the last one read is `changed`, up to
 * `MAX_CHANGED_PAGES` in all. A page with no post not read before (empty, or the same again)
 * ends the list.
 */
async function nextPages(
  read: (page: number) => Promise<Page<Post>>,
  first: readonly Post[],
  changed: (post: Post) => boolean,
): Promise<{ posts: Post[]; beyondBound: boolean }> {
  const posts = [...first];
  const ids = new Set(first.map((post) => post.id));
  let last = first;
  for (let page = 2; last.length > 0 && last.every(changed); page++) {
    if (page > MAX_CHANGED_PAGES) return { posts, beyondBound: true };
    const next = (await read(page)).items;
    const fresh = next.filter((post) => !ids.has(post.id));
    for (const post of fresh) ids.add(post.id);
    posts.push(...fresh);
    last = fresh.length > 0 ? next : [];
  }
  return { posts, beyondBound: false };
}

/**
 * Whether a page is seen sorted latest changed first: every post with an `updated_at` that
 * parses, none later than the one before it, and at least two different times ('sorted'); in
 * that order but with fewer than two times, it proves nothing ('unproven'); else 'unsorted'.
 */
export function updatedOrder(posts: readonly Post[]): 'sorted' | 'unproven' | 'unsorted' {
  const times = posts.map(updatedAt);
  if (times.some((t) => t === undefined)) return 'unsorted';
  const known = times as number[];
  if (known.some((t, i) => i > 0 && t > known[i - 1]!)) return 'unsorted';
  return new Set(known).size >= 2 ? 'sorted' : 'unproven';
}
