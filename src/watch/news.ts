import { isComment, type Post } from '../api';
import { updatedAt } from '../api/postChanges';
import type { WhoIAm } from '../accounts/identity';
import { isAssignedToMe, isFiledByMe } from '../accounts/scopes';
import { labelText } from '../text/serverText';

/**
 * What a poll of the newest posts tells, compared with what the one before saw. The service has
 * no events: news is a difference between two reads of its list. No vscode import.
 */

/** What is compared of a post from one poll to the next. */
export interface PostFacts {
  title: string;
  userId?: number;
  responsibleId?: number;
  comments?: number;
  closed: boolean;
  /** Kept past the newest page: it is the person's (see `isMine`). */
  mine: boolean;
  /**
   * Comments the person had filed on it from VS Code when the poll read it (see `WhoIAm.comments`);
   * none: 0. One filed while the list was being read counts from the poll whose count shows it
   * (see `ownCounted`).
   */
  own?: number;
}

/** What the last poll saw. */
export interface Snapshot {
  /** The highest post id seen: a post above it is new. */
  newest: number;
  /** By post id. */
  posts: Record<string, PostFacts>;
  /**
   * The latest `updated_at` seen (ms, the server's clock; never compared with this machine's): a
   * post updated later changed since. Undefined where no post had one (or in files written before).
   */
  updatedUpTo?: number;
}

export type Change = 'new' | 'assigned' | 'commented' | 'closed' | 'reopened';

/** One post's news from one poll. */
export interface NewsItem {
  id: number;
  /** Server text: shown as text only. */
  title: string;
  changes: Change[];
  /** Assigned to the person (now). */
  assignedToMe: boolean;
  /** Assigned to, filed by, or commented on by the person. */
  mine: boolean;
  /** When the poll saw it (ms). */
  at: number;
}

/** A snapshot keeps at most this many posts: the newest page and the person's own. */
export const SNAPSHOT_MAX = 2000;

/** The most of a title kept: more than any notification or row shows. */
export const TITLE_KEPT = 200;

/** A title as far as it is kept (server text: anything may come). */
export function keptTitle(title: unknown): string {
  if (typeof title !== 'string') return '';
  return title.length <= TITLE_KEPT ? title : [...title.slice(0, TITLE_KEPT * 2)].slice(0, TITLE_KEPT).join('');
}

/** Filed by, assigned to, or commented on from VS Code by the person. */
export function isMine(post: Pick<Post, 'id' | 'user_id' | 'responsible_id'>, who: WhoIAm): boolean {
  return isFiledByMe(post, who) || isAssignedToMe(post, who) || who.commented.has(post.id);
}

/** What names a post that has no title (the watcher's: the start of its content's text); none by default. */
export type UntitledName = (post: Post) => string;

const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The most of the person's own comments on a post that is counted: more could only come from a
 * state edited by hand, and would make a snapshot its reader refuses (see newsShapes.ts).
 */
const OWN_COUNTED_MAX = 1_000_000;

/**
 * Of the person's comments on a post (`filed`, as the poll compares), those it counts as read with
 * the list. Those filed before the list was asked for (`atRead`) are in its count. One filed while
 * it was read may be or not: it counts now where the count rose by more than the others explain,
 * else from the next poll, whose list has it, so that it is not taken for someone else's there.
 * Whole numbers, whatever the service's count is.
 */
function ownCounted(before: PostFacts | undefined, comments: number | undefined, atReadAsKept: number, filedAsKept: number): number {
  const [atRead, filed] = [Math.min(atReadAsKept, OWN_COUNTED_MAX), Math.min(filedAsKept, OWN_COUNTED_MAX)];
  const during = Math.max(0, filed - atRead);
  if (during === 0 || comments === undefined) return filed;
  const [was, wasOwn] = before?.comments === undefined ? [0, 0] : [before.comments, before.own ?? 0];
  const unexplained = Math.floor(comments - was - Math.max(0, atRead - wasOwn));
  return atRead + Math.min(during, Math.max(0, unexplained));
}

function factsOf(post: Post, who: WhoIAm, atRead: WhoIAm['comments'], before: PostFacts | undefined, untitled: UntitledName): PostFacts {
  const comments = number(post.comments_cache);
  const own = ownCounted(before, comments, atRead.get(post.id) ?? 0, who.comments.get(post.id) ?? 0);
  const title = keptTitle(post.title);
  return {
    // Stored as far as it is shown: a title of 100 KB is not kept whole in every news file. An untitled
    // post, or one whose title has nothing to read (bidi marks, zero-width spaces), is named by the
    // start of its text (an e-mail's, not its markup), as its row is.
    title: (labelText(title) ? title : '') || keptTitle(untitled(post)),
    userId: number(post.user_id),
    responsibleId: number(post.responsible_id),
    comments,
    closed: post.closed === true,
    mine: isMine(post, who),
    ...(own > 0 ? { own } : {}),
  };
}

/**
 * The news in `posts` (the newest the service lists) against `before`, and what to compare the
 * next poll with. Without `before` (the first poll after sign-in or install) nothing is news: it
 * is the baseline. A post seen for the first time is new only above the newest id seen before
 * (an older one has come into view, it is not new), and only where the person neither filed it
 * nor replied to it from VS Code. One assigned to them is told as assigned where it is above the
 * newest and not filed by them, or was changed since the last read (its `updated_at` later than
 * the latest the snapshot saw): an old post newly assigned to them, found in a list read latest
 * changed first. Changes of a post already seen count where they are the person's: assigned to
 * them, or, on their posts, comments, closing, reopening. `ownAtRead`: the person's comments as
 * known before the list was asked for (see `ownCounted`).
 */
export function compare(
  before: Snapshot | undefined,
  posts: readonly Post[],
  who: WhoIAm,
  now: number,
  untitled: UntitledName = () => '',
  ownAtRead: WhoIAm['comments'] = who.comments,
): { snapshot: Snapshot; news: NewsItem[] } {
  const news: NewsItem[] = [];
  const seen: Record<string, PostFacts> = {};
  for (const post of posts) {
    // A comment listed among posts is news through its post's count, not a post of its own.
    if (!Number.isSafeInteger(post.id) || post.id <= 0 || isComment(post)) continue;
    const facts = factsOf(post, who, ownAtRead, before?.posts[post.id], untitled);
    seen[post.id] = facts;
    if (!before) continue;
    // The post as the person's own update left it (nothing after it): their change, no news to them.
    const theirs = typeof post.updated_at === 'string' && who.updated.get(post.id) === post.updated_at;
    const assignedToMe = isAssignedToMe(post, who);
    // A post the person filed is no news to them; one they replied to from VS Code before a poll saw it is not new.
    const changes = theirs
      ? []
      : changesOf(
          before.posts[post.id],
          facts,
          post.id > before.newest && !isFiledByMe(post, who) ? (who.commented.has(post.id) ? 'replied' : 'new') : undefined,
          changedSince(post, before),
          assignedToMe,
        );
    if (changes.length > 0) news.push({ id: post.id, title: facts.title, changes, assignedToMe, mine: facts.mine, at: now });
  }
  const newest = Math.max(before?.newest ?? 0, ...Object.keys(seen).map(Number));
  const updatedUpTo = latest([before?.updatedUpTo, ...posts.map(updatedAt)]);
  // The person's posts stay known past the newest page, so a later poll that sees one again compares it.
  const kept = Object.entries(before?.posts ?? {}).filter(([id, facts]) => facts.mine && !(id in seen));
  const all = [...Object.entries(seen), ...kept].sort(([a], [b]) => Number(b) - Number(a)).slice(0, SNAPSHOT_MAX);
  return { snapshot: { newest, posts: Object.fromEntries(all), ...(updatedUpTo === undefined ? {} : { updatedUpTo }) }, news };
}

/** Whether the post was updated after the latest time the snapshot saw; false when either is unknown. */
export function changedSince(post: Pick<Post, 'updated_at'>, before: Pick<Snapshot, 'updatedUpTo'>): boolean {
  const at = updatedAt(post);
  return at !== undefined && before.updatedUpTo !== undefined && at > before.updatedUpTo;
}

function latest(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined && Number.isFinite(t));
  return known.length > 0 ? Math.max(...known) : undefined;
}

/**
 * `aboveNewest`: above the newest post seen before, and not filed by the person: 'new', or
 * 'replied' where they replied to it from VS Code (not new to them). `toMe`: the post is assigned
 * to the person now.
 */
function changesOf(
  before: PostFacts | undefined,
  now: PostFacts,
  aboveNewest: 'new' | 'replied' | undefined,
  changed: boolean,
  toMe: boolean,
): Change[] {
  if (!before) {
    if (aboveNewest === 'new') return toMe ? ['new', 'assigned'] : ['new'];
    if (aboveNewest === 'replied') return toMe ? ['assigned'] : [];
    // Not seen before, and changed since the last read: if it is assigned to the person now, the
    // assignment is most likely that change. It may be an older assignment and another edit since
    // (the service says only that the post changed): told as assigned all the same, once, as its
    // facts are kept from now on.
    return toMe && changed ? ['assigned'] : [];
  }
  const changes: Change[] = [];
  if (toMe && before.responsibleId !== now.responsibleId) changes.push('assigned');
  if (now.mine) {
    // Comments the person filed from VS Code since are theirs: only more than those is news.
    const ownSince = Math.max(0, (now.own ?? 0) - (before.own ?? 0));
    if (now.comments !== undefined && before.comments !== undefined && now.comments > before.comments + ownSince) changes.push('commented');
    if (now.closed && !before.closed) changes.push('closed');
    if (!now.closed && before.closed) changes.push('reopened');
  }
  return changes;
}

/** A post's news as kept between polls: every change found on it, and what the last poll that found any found. */
export interface HeldNews extends NewsItem {
  /** The number of the poll that last found news on it. */
  seq: number;
  /** What that poll found (files written before this field hold only `changes`). */
  latest?: Change[];
}

/**
 * One row per post, newest news first: a post with news again takes its earlier changes along.
 * What is told of it is what the polls after the last one told (`told`, see the notified file)
 * found: poll `seq`'s, and an earlier poll's not told yet. At most `max` rows.
 */
export function heldNews(held: readonly HeldNews[], news: readonly NewsItem[], seq: number, max: number, told = 0): HeldNews[] {
  const earlier = new Map(held.map((item) => [item.id, item]));
  const fresh = news.map((item) => {
    const before = earlier.get(item.id);
    const untold = before && before.seq > told ? (before.latest ?? before.changes) : [];
    return {
      ...item,
      changes: [...new Set([...(before?.changes ?? []), ...item.changes])],
      latest: [...new Set([...untold, ...item.changes])],
      seq,
    };
  });
  const kept = held.filter((item) => !news.some((n) => n.id === item.id));
  return [...fresh, ...kept].slice(0, max);
}

export type NotifyScope = 'assignedToMe' | 'mine' | 'all' | 'off';

/** Whether a news item is one the person asked to be told of (by what its last poll found). */
export function wanted(item: NewsItem | HeldNews, scope: NotifyScope): boolean {
  if (scope === 'off') return false;
  if (scope === 'all') return true;
  if (scope === 'mine') return item.mine;
  return ('latest' in item && item.latest ? item.latest : item.changes).includes('assigned');
}

/**
 * The posts of the news, in its order, for rows: the one the view has loaded where it has (it is
 * as new as the poll's or newer), else the post as the last poll saw it (its facts only).
 */
export function newsPosts(items: readonly NewsItem[], loaded: ReadonlyMap<number, Post>, snapshot: Snapshot | undefined): Post[] {
  return items.map((item) => {
    const post = loaded.get(item.id);
    if (post) return post;
    const facts = snapshot?.posts[item.id];
    return {
      id: item.id,
      title: facts?.title ?? item.title,
      user_id: facts?.userId ?? null,
      responsible_id: facts?.responsibleId ?? null,
      comments_cache: facts?.comments ?? null,
      closed: facts?.closed ?? false,
    };
  });
}

/** Seen marks: for a post, the number of the last poll whose news on it was seen. */
export type SeenMarks = ReadonlyMap<number, number>;

/** Whether the news on a post was seen: news found by a later poll than the one seen is not. */
export function isSeen(item: HeldNews, seen: SeenMarks): boolean {
  return (seen.get(item.id) ?? 0) >= item.seq;
}
