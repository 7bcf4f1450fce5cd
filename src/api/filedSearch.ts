import { isApiError } from './errors';
import { isLastPage, type Page } from './paging';
import type { Post } from './types';
import { draftRefPlace } from '../drafts/draftRef';
import type { FiledKind, FiledPost } from './listKnowledge';

/** How many pages of posts one search reads at most, whatever it could still learn. */
export const SEARCH_PAGES = 30;

/** What a search for a filed post concluded when it did not find it. */
export type FindOutcome = 'absent' | 'unproven' | 'unsure';

/** The post a draft's attempt may have filed. */
export interface FiledSought {
  kind: FiledKind;
  /** The marker the attempt put into the content. */
  ref: string;
  /** The newest post id known before the first try, where the service sorted by id then. */
  after?: number;
  /** The post a comment was for. */
  parentId?: number;
  /** The attempt put the marker in the content's first line (this version; earlier ones put it at the end). */
  markerAtHead: boolean;
}

/** The list of posts as the search reads it (see `Account.findFiled`). */
export interface PostList {
  /** A page, newest first where the service sorts; a 404 past page 1 is the empty page. */
  page(page: number): Promise<Page<Post>>;
  /** Whether the service really sorts by id, given the ids it listed newest first. */
  sortsById(newestFirst: ReadonlySet<number>): Promise<boolean>;
}

/**
 * Looks for the post that carries `sought.ref`, and concludes its absence only from what this
 * search saw: which posts a list shows, and how much of their content, is not documented and may
 * change. So "not filed" (`absent`) needs all of:
 * - the list read to its end (an end read twice: a one-off empty page is not one), or, where the
 *   service is seen to sort by id, back past `after` (and a post at or below it seen at all);
 * - every post that may be the one listed with its content, and every record readable;
 * - a post of that kind this extension filed here (`filed`) seen in this very search, of its
 *   kind and with its marker intact in its first line, as this attempt put its own;
 * - no other post carrying the marker (one that quotes it: the post may be out there).
 * Short of the reading, `unsure`; short of the proof that the list shows markers, `unproven`.
 * A post carrying the marker is the one only when it is of the kind filed (a comment: on its post).
 */
export async function searchFiled(sought: FiledSought, list: PostList, filed: readonly FiledPost[]): Promise<Post | FindOutcome> {
  const { kind, ref, after, parentId, markerAtHead } = sought;
  const known = new Map(filed.filter((post) => post.kind === kind).map((post) => [post.id, post.ref]));
  const newestKnown = known.size > 0 ? Math.max(...known.keys()) : undefined;
  const seen = new Set<number>();
  let newestFirst = true;
  let last = Infinity;
  let sorted: boolean | undefined;
  let doubt = false;
  let reachedAfter = false;
  let shownIntact = false;

  const conclude = (): FindOutcome => {
    if (doubt || (after !== undefined && !reachedAfter)) return 'unsure';
    return markerAtHead && shownIntact ? 'absent' : 'unproven';
  };

  for (let page = 1; page <= SEARCH_PAGES; page++) {
    let result: Page<Post>;
    try {
      result = await list.page(page);
    } catch (error) {
      if (page === 1 && isApiError(error, 'notFound')) return 'unsure';
      throw error;
    }
    if (result.received > result.items.length) doubt = true;
    if (isLastPage(result, seen)) {
      if (result.received > 0) return 'unsure';
      if (page > 1 && (await list.page(page)).received > 0) return 'unsure';
      return conclude();
    }
    for (const post of result.items) {
      if (seen.has(post.id)) continue;
      seen.add(post.id);
      newestFirst &&= post.id < last;
      last = post.id;
      if (after !== undefined && post.id <= after) reachedAfter = true;
      const place = draftRefPlace(post.content, ref);
      if (place === 'head' || (place === 'body' && !markerAtHead)) {
        if (isOfKind(post, kind, parentId)) return post;
        doubt = true;
      } else if (place === 'body') doubt = true;
      const mayBeIt = after === undefined || post.id > after;
      if (mayBeIt && typeof post.content !== 'string') doubt = true;
      const knownRef = known.get(post.id);
      if (knownRef !== undefined && isOfKind(post, kind, undefined) && draftRefPlace(post.content, knownRef) === 'head') shownIntact = true;
    }
    if (!newestFirst || after === undefined || last > after) continue;
    sorted ??= await list.sortsById(seen);
    if (sorted && (shownIntact || newestKnown === undefined || last <= newestKnown)) return conclude();
  }
  return sorted && reachedAfter ? conclude() : 'unsure';
}

/** Whether a listed post is of the kind the extension filed: a bug report, a task, a comment (on `parentId`). */
function isOfKind(post: Post, kind: FiledKind, parentId: number | undefined): boolean {
  const comment = typeof post.post_id === 'number' || post.task_kind === 'comment';
  if (kind === 'comment') return parentId === undefined ? comment : post.post_id === parentId;
  if (comment) return false;
  if (kind === 'task') return post.task_kind === 'task';
  return post.kind === 'error' && (post.task_kind === null || post.task_kind === undefined || post.task_kind === 'error');
}
