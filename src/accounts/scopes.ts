// Which posts are the person's: the one rule for the Helpdesk view's quick filters (Assigned to
// Me, Filed by Me), the agent's search (helpdesk_searchPosts) and the news watcher. No vscode.
import type { Post } from '../api/types';
import type { WhoIAm } from './identity';

/** The quick filters of the Helpdesk view and the scopes of the agent's search: every post, the ones assigned to the person, the ones they filed. */
export const POSTS_SCOPES = ['everything', 'assignedToMe', 'filedByMe'] as const;
export type PostsScope = (typeof POSTS_SCOPES)[number];

/** What the scopes read of a post. */
export type ScopedPost = Pick<Post, 'id' | 'user_id' | 'responsible_id'>;

/** Assigned to the person (`responsible_id`); nothing is assigned to a person not known yet. */
export function isAssignedToMe(post: ScopedPost, who: Pick<WhoIAm, 'me'>): boolean {
  return who.me !== undefined && post.responsible_id === who.me.id;
}

/** Filed by the person: from VS Code (known even before who they are is), or authored as their user (`user_id`). */
export function isFiledByMe(post: ScopedPost, who: Pick<WhoIAm, 'me' | 'filed'>): boolean {
  return who.filed.has(post.id) || (who.me !== undefined && post.user_id === who.me.id);
}

/** Whether a post is in a scope: assigned to me, filed by me, or anything. */
export function inScope(post: ScopedPost, scope: PostsScope, who: Pick<WhoIAm, 'me' | 'filed'>): boolean {
  if (scope === 'assignedToMe') return isAssignedToMe(post, who);
  if (scope === 'filedByMe') return isFiledByMe(post, who);
  return true;
}

/** Whether a scope needs to know who the person is to hold anything at all. */
export function scopeNeedsMe(scope: PostsScope): boolean {
  return scope === 'assignedToMe';
}
