/**
 * What an update of a post would change, and what changed in a post since the person saw it.
 * Plain TypeScript (no vscode import): unit-tested alone.
 */
import type { Post, PostChanges } from './types';

/** A fact of a post the person acts on, as it was and as it is now. */
export type PostDifference =
  | { readonly field: 'title'; readonly before: string; readonly now: string }
  | { readonly field: 'closed'; readonly before: boolean; readonly now: boolean }
  | { readonly field: 'status'; readonly before: number | null; readonly now: number | null }
  | { readonly field: 'assignee'; readonly before: number | null; readonly now: number | null };

/** Only the fields of `wanted` whose value differs from the post's now: what an update sends. */
export function changedFields(post: Post, wanted: PostChanges): PostChanges {
  const changes: PostChanges = {};
  if (wanted.closed !== undefined && wanted.closed !== (post.closed === true)) changes.closed = wanted.closed;
  if (wanted.status_id !== undefined && wanted.status_id !== idOrNull(post.status_id)) changes.status_id = wanted.status_id;
  if (wanted.responsible_id !== undefined && wanted.responsible_id !== idOrNull(post.responsible_id))
    changes.responsible_id = wanted.responsible_id;
  return changes;
}

export function isEmpty(changes: PostChanges): boolean {
  return Object.values(changes).every((value) => value === undefined);
}

/** How the title, state, status and assignee of a post differ between two reads of it. */
export function differences(seen: Post, now: Post): PostDifference[] {
  const found: PostDifference[] = [];
  const title = (post: Post) => (typeof post.title === 'string' ? post.title : '');
  if (title(seen) !== title(now)) found.push({ field: 'title', before: title(seen), now: title(now) });
  if ((seen.closed === true) !== (now.closed === true))
    found.push({ field: 'closed', before: seen.closed === true, now: now.closed === true });
  if (idOrNull(seen.status_id) !== idOrNull(now.status_id))
    found.push({ field: 'status', before: idOrNull(seen.status_id), now: idOrNull(now.status_id) });
  if (idOrNull(seen.responsible_id) !== idOrNull(now.responsible_id))
    found.push({ field: 'assignee', before: idOrNull(seen.responsible_id), now: idOrNull(now.responsible_id) });
  return found;
}

/**
 * Whether someone changed the post since the person saw it: its `updated_at` moved; where either
 * read has none, whether a fact the person acts on differs.
 */
export function changedSince(seen: Post, now: Post): boolean {
  const stamp = (post: Post) => (typeof post.updated_at === 'string' && post.updated_at ? post.updated_at : undefined);
  const before = stamp(seen);
  const after = stamp(now);
  if (before !== undefined && after !== undefined) return before !== after;
  return differences(seen, now).length > 0;
}

function idOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/** A post's `updated_at` in ms (the server's clock), or undefined when it has none that parses. */
export function updatedAt(post: Pick<Post, 'updated_at'>): number | undefined {
  const ms = typeof post.updated_at === 'string' ? Date.parse(post.updated_at) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Whether `other` is a later copy of the post than `shown`: updated after it. A read answered late
 * (a list asked before the post was read) brings an earlier one. Where either has no time that
 * parses, whether the two differ in it: which is later cannot be told.
 */
export function laterCopy(shown: Pick<Post, 'updated_at'>, other: Pick<Post, 'updated_at'>): boolean {
  const [before, after] = [updatedAt(shown), updatedAt(other)];
  return before !== undefined && after !== undefined ? after > before : shown.updated_at !== other.updated_at;
}
