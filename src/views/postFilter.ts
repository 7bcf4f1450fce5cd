import type { Post, PostKind, TaskKind } from '../api';

export interface PostFilter {
  text?: string;
  /** A post kind or a task kind. */
  kind?: PostKind | TaskKind;
  /** Posts of one client (Show Posts of This Client); `label` names it in the view's title. */
  client?: { readonly id: number; readonly label: string };
}

export function matchesFilter(post: Post, filter: PostFilter, showClosed: boolean): boolean {
  if (!showClosed && post.closed === true) return false;
  if (filter.kind && post.kind !== filter.kind && post.task_kind !== filter.kind) return false;
  if (filter.client && post.client_id !== filter.client.id) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    const haystack = `${typeof post.title === 'string' ? post.title : ''}\n${typeof post.content === 'string' ? post.content : ''}\n#${post.id}`;
    if (!haystack.toLowerCase().includes(needle)) return false;
  }
  return true;
}

export function describeFilter(filter: PostFilter): string | undefined {
  const parts = [filter.client?.label, filter.kind, filter.text ? `“${filter.text}”` : undefined].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}

/** The quick filters of the Helpdesk view: every post, the ones assigned to the person, the ones they filed. */
export const POSTS_SCOPES = ['everything', 'assignedToMe', 'filedByMe'] as const;
export type PostsScope = (typeof POSTS_SCOPES)[number];

/** What the quick filters know of the person in the account. */
export interface ScopeFacts {
  /** Their user id; undefined while not known. */
  readonly me: number | undefined;
  /** The posts this extension filed there (known even before `me` is). */
  readonly filed: ReadonlySet<number>;
}

/**
 * Whether a post is in a quick filter: assigned to me (`responsible_id`), filed by me (`user_id`,
 * or one this extension filed), or anything. Nothing is assigned to a person not known yet.
 */
export function inScope(post: Post, scope: PostsScope, { me, filed }: ScopeFacts): boolean {
  if (scope === 'assignedToMe') return me !== undefined && post.responsible_id === me;
  if (scope === 'filedByMe') return (me !== undefined && post.user_id === me) || filed.has(post.id);
  return true;
}

/** Whether a quick filter needs to know who the person is to show anything at all. */
export function scopeNeedsMe(scope: PostsScope): boolean {
  return scope === 'assignedToMe';
}
