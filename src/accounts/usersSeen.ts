import type { Post } from '../api';

/** A user of the account as the loaded posts show them. */
export interface SeenUser {
  readonly id: number;
  /** The nick of a post they wrote (the newest such post's); undefined when none gave one. */
  readonly nick?: string;
  /** How many loaded posts they wrote (`user_id`). */
  readonly wrote: number;
  /** How many loaded posts are assigned to them (`responsible_id`). */
  readonly assigned: number;
}

/**
 * The users the loaded posts name, as authors (`user_id`, with the post's `nick`) or as the
 * person assigned (`responsible_id`), by id. Only what the posts say: no nick is made up.
 */
export function usersSeen(posts: readonly Post[]): SeenUser[] {
  const users = new Map<number, { id: number; nick?: string; nickFrom: number; wrote: number; assigned: number }>();
  const user = (id: number) => {
    let found = users.get(id);
    if (!found) users.set(id, (found = { id, nickFrom: 0, wrote: 0, assigned: 0 }));
    return found;
  };
  for (const post of posts) {
    if (typeof post.user_id === 'number') {
      const author = user(post.user_id);
      author.wrote += 1;
      const nick = typeof post.nick === 'string' ? post.nick.trim() : '';
      if (nick && post.id > author.nickFrom) {
        author.nick = nick;
        author.nickFrom = post.id;
      }
    }
    if (typeof post.responsible_id === 'number') user(post.responsible_id).assigned += 1;
  }
  return [...users.values()]
    .sort((a, b) => a.id - b.id)
    .map(({ id, nick, wrote, assigned }) => (nick === undefined ? { id, wrote, assigned } : { id, nick, wrote, assigned }));
}

/** The nick the loaded posts give user `id`, as `usersSeen` takes it (their newest post's that has one); undefined where none does. */
export function nickSeen(posts: readonly Post[], id: number): string | undefined {
  let nick: string | undefined;
  let from = 0;
  for (const post of posts) {
    if (post.user_id !== id || post.id <= from || typeof post.nick !== 'string' || !post.nick.trim()) continue;
    nick = post.nick.trim();
    from = post.id;
  }
  return nick;
}
