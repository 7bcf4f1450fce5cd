import type { ReadOrder } from './changedPosts';
import type { NewestPage } from './newestPosts';
import { keptTitle, SNAPSHOT_MAX, type Change, type HeldNews, type PostFacts, type Snapshot } from './news';

/**
 * What the news files hold, and their shapes checked: every value read from one is untrusted (a
 * file from an older version, another machine, a hand, a disk error). What does not have its
 * shape is dropped whole (the caller starts from a silent baseline), never kept or written back.
 * Linear in the file's size. No vscode import.
 */

/** What the window that polls an account writes for every window of this VS Code. */
export interface NewsFile {
  /** What the last poll that succeeded saw; none yet: the next poll is a silent baseline. */
  snapshot?: Snapshot;
  /** How the last poll read the list (see `readChanges`): kept so that an idle poll is one request. */
  order?: ReadOrder;
  newestPage?: NewestPage;
  /** Newest first; each with the number of the poll that found it. */
  items: HeldNews[];
  /** The number of the last poll that found news. */
  seq: number;
  /** When the last poll that succeeded ended (ms); 0: none did. */
  polledAt: number;
  /** When the last poll ended, however it ended (ms): a time after now says the clock was set back. */
  triedAt: number;
  /** Why the last poll failed, in words (no token, no address); undefined when it did not. */
  problem?: string;
  /** Polls failed in a row, in whichever window: the backoff grows on from there when another window takes the lease. */
  failures: number;
  /** When the next poll is due (ms). */
  nextAt: number;
}

/** Which window polls the account, until when (ms), at which pace (its `intervalMinutes`). */
export interface Lease {
  window: string;
  until: number;
  minutes: number;
}

/** The last poll whose news a notification told; and a window's claim to tell a later one, made at `at` (ms). */
export interface Notified {
  seq: number;
  claim?: { seq: number; window: string; at: number };
}

/** Polls are numbered up to this; a number beyond is not one this extension wrote. */
export const MAX_SEQ = 2 ** 31;
/** News items kept per account: the oldest go first. */
export const NEWS_KEPT = 200;
/** The longest interval setting (`helpdesk.watch.intervalMinutes`). */
export const MAX_INTERVAL_MINUTES = 1440;
/** A news file larger than this is not one this extension wrote (2,000 posts' facts and 200 items are far less). */
export const MAX_FILE_BYTES = 4_000_000;

const CHANGES: readonly Change[] = ['new', 'assigned', 'commented', 'closed', 'reopened'];

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_SEQ;
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
/** A time in ms (Date's range). */
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const optional = <T>(value: unknown, check: (v: unknown) => v is T): value is T | undefined => value === undefined || check(value);

function changesOf(value: unknown): Change[] | undefined {
  if (!Array.isArray(value) || value.length > CHANGES.length) return undefined;
  return value.every((change) => CHANGES.includes(change as Change)) ? (value as Change[]) : undefined;
}

function factsOf(value: unknown): PostFacts | undefined {
  if (!isObject(value) || typeof value.title !== 'string' || typeof value.closed !== 'boolean' || typeof value.mine !== 'boolean')
    return undefined;
  if (
    !optional(value.userId, isNumber) ||
    !optional(value.responsibleId, isNumber) ||
    !optional(value.comments, isNumber) ||
    !optional(value.own, isCount)
  )
    return undefined;
  const { title, closed, mine, userId, responsibleId, comments, own } = value;
  return {
    title: keptTitle(title),
    closed,
    mine,
    ...(userId === undefined ? {} : { userId }),
    ...(responsibleId === undefined ? {} : { responsibleId }),
    ...(comments === undefined ? {} : { comments }),
    ...(own === undefined ? {} : { own }),
  };
}

export function parseSnapshot(value: unknown): Snapshot | undefined {
  if (!isObject(value) || !isWhole(value.newest) || !isObject(value.posts) || !optional(value.updatedUpTo, isTime)) return undefined;
  const posts: Record<string, PostFacts> = {};
  let count = 0;
  for (const id in value.posts) {
    if (++count > SNAPSHOT_MAX || !isId(Number(id)) || String(Number(id)) !== id) return undefined;
    const facts = factsOf(value.posts[id]);
    if (!facts) return undefined;
    posts[id] = facts;
  }
  return { newest: value.newest, posts, ...(value.updatedUpTo === undefined ? {} : { updatedUpTo: value.updatedUpTo }) };
}

function itemOf(value: unknown): HeldNews | undefined {
  if (
    !isObject(value) ||
    !isId(value.id) ||
    typeof value.title !== 'string' ||
    typeof value.assignedToMe !== 'boolean' ||
    typeof value.mine !== 'boolean' ||
    !isTime(value.at) ||
    !isCount(value.seq)
  )
    return undefined;
  const changes = changesOf(value.changes);
  const latest = value.latest === undefined ? undefined : changesOf(value.latest);
  if (!changes || (value.latest !== undefined && !latest)) return undefined;
  return {
    id: value.id,
    title: keptTitle(value.title),
    changes,
    assignedToMe: value.assignedToMe,
    mine: value.mine,
    at: value.at,
    seq: value.seq,
    ...(latest ? { latest } : {}),
  };
}

function newestPageOf(value: unknown): NewestPage | undefined {
  const size = (v: unknown): v is number => isId(v) && v <= 1000;
  if (!isObject(value) || !isId(value.page) || !size(value.full) || !optional(value.perPage, size) || !optional(value.most, size))
    return undefined;
  const { page, full, perPage, most } = value;
  return { page, full, ...(perPage === undefined ? {} : { perPage }), ...(most === undefined ? {} : { most }) };
}

/** A news file, or undefined when the value is not one. */
export function parseNewsFile(value: unknown): NewsFile | undefined {
  if (!isObject(value) || !Array.isArray(value.items) || value.items.length > NEWS_KEPT) return undefined;
  if (!isCount(value.seq) || !isTime(value.polledAt) || !isTime(value.triedAt) || !isTime(value.nextAt) || !isCount(value.failures))
    return undefined;
  if (!optional(value.problem, (p): p is string => typeof p === 'string' && p.length <= 2000)) return undefined;
  if (value.order !== undefined && value.order !== 'updated' && value.order !== 'id') return undefined;
  const snapshot = value.snapshot === undefined ? undefined : parseSnapshot(value.snapshot);
  const newestPage = value.newestPage === undefined ? undefined : newestPageOf(value.newestPage);
  if ((value.snapshot !== undefined && !snapshot) || (value.newestPage !== undefined && !newestPage)) return undefined;
  const items: HeldNews[] = [];
  for (const raw of value.items as unknown[]) {
    const item = itemOf(raw);
    if (!item) return undefined;
    items.push(item);
  }
  const { seq, polledAt, triedAt, nextAt, failures, problem, order } = value;
  return {
    items,
    seq,
    polledAt,
    triedAt,
    nextAt,
    failures,
    ...(snapshot ? { snapshot } : {}),
    ...(newestPage ? { newestPage } : {}),
    ...(order ? { order } : {}),
    ...(problem === undefined ? {} : { problem }),
  };
}

export function parseLease(value: unknown): Lease | undefined {
  if (!isObject(value) || typeof value.window !== 'string' || value.window.length > 200 || !isTime(value.until)) return undefined;
  const minutes = value.minutes;
  if (!(typeof minutes === 'number' && Number.isSafeInteger(minutes) && minutes >= 1 && minutes <= MAX_INTERVAL_MINUTES)) return undefined;
  return { window: value.window, until: value.until, minutes };
}

export function parseNotified(value: unknown): Notified | undefined {
  if (!isObject(value) || !isCount(value.seq)) return undefined;
  const claim = value.claim;
  if (claim === undefined) return { seq: value.seq };
  if (!isObject(claim) || !isCount(claim.seq) || typeof claim.window !== 'string' || claim.window.length > 200 || !isTime(claim.at))
    return undefined;
  return { seq: value.seq, claim: { seq: claim.seq, window: claim.window, at: claim.at } };
}

/** Seen marks: post id → poll number; the entries of the wrong shape are left out. */
export function parseSeenMarks(value: unknown): Map<number, number> {
  const marks = isObject(value) && isObject(value.marks) ? value.marks : {};
  const kept = new Map<number, number>();
  for (const id in marks) {
    if (kept.size >= NEWS_KEPT) break;
    if (isId(Number(id)) && isCount(marks[id])) kept.set(Number(id), marks[id]);
  }
  return kept;
}
