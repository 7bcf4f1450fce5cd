import type { Post, PostKind, TaskKind } from '../api';
import { contentText } from '../text/contentText';

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
    const haystack = `${typeof post.title === 'string' ? post.title : ''}\n${contentText(post).text}\n#${post.id}`;
    if (!haystack.toLowerCase().includes(needle)) return false;
  }
  return true;
}

export function describeFilter(filter: PostFilter): string | undefined {
  const parts = [filter.client?.label, filter.kind, filter.text ? `“${filter.text}”` : undefined].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}
