/**
 * Who the signed-in person is in an account, and which posts this extension filed there.
 * Plain TypeScript (no vscode import): unit-tested alone.
 */
import { isComment, type Post } from '../api/types';

/** The signed-in person as a user of the account. */
export interface Me {
  /** Their user id: what posts carry in `user_id` (author) and `responsible_id` (assigned). */
  readonly id: number;
  /** Their nick as a post of theirs gave it; server text, never markup. */
  readonly nick?: string;
  /** Learned from the answer to a post this extension filed, or set by the person (Set Who I Am…). */
  readonly source: 'learned' | 'set';
}

/** The part of VS Code's `Memento` this needs. */
export interface IdentityState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** The parts of a post this reads. */
export type FiledAnswer = Pick<Post, 'id' | 'user_id' | 'nick' | 'post_id' | 'task_kind'>;

interface Stored {
  me?: Me;
  /** The ids of the posts this extension filed here, newest first. */
  filed: number[];
  /** The ids of the posts this extension commented on here, newest first. */
  commented: number[];
  /** For a post of `commented`, how many comments this extension filed on it (none kept: one). */
  comments?: Record<string, number>;
}

/** How many filed post ids (and how many commented on) are kept per account. */
export const FILED_KEPT = 500;
/** The longest nick kept (longer ones are cut; it is shown cut shorter still). */
const NICK_KEPT = 200;
const PREFIX = 'helpdesk.identity:';

/**
 * Per account address, in the extension's global state (outside the token's secret storage,
 * never synced, never sent): who the person is (`me`), and the ids of the last posts this
 * extension filed there. `me` is learned only from a post this extension filed itself (the
 * answer to its create, or the post found by its marker after a lost answer), and only while
 * unknown: it never overrides what the person set, and is never guessed from other posts.
 */
export class Identity {
  private readonly listeners = new Set<(accountUrl: string) => void>();

  constructor(private readonly state: IdentityState) {}

  me(accountUrl: string): Me | undefined {
    return this.read(accountUrl).me;
  }

  /** The ids of the posts this extension filed in the account (the last `FILED_KEPT`). */
  filedByMe(accountUrl: string): ReadonlySet<number> {
    return new Set(this.read(accountUrl).filed);
  }

  /** Set by the person: it stands until they set another or forget it. */
  async set(accountUrl: string, id: number, nick?: string): Promise<void> {
    if (!isUserId(id)) throw new Error(`Not a user id: ${String(id)}`);
    const stored = this.read(accountUrl);
    await this.write(accountUrl, { ...stored, me: withNick({ id, source: 'set' }, nick) });
  }

  /** The ids of the posts this extension commented on in the account (the last `FILED_KEPT`): the person's too, for news. */
  commentedOnByMe(accountUrl: string): ReadonlySet<number> {
    return new Set(this.read(accountUrl).commented);
  }

  /** For each post this extension commented on in the account, how many comments it filed there: the person's own comments are no news to them. */
  commentsByMe(accountUrl: string): ReadonlyMap<number, number> {
    const { commented, comments } = this.read(accountUrl);
    return new Map(commented.map((id) => [id, comments?.[id] ?? 1]));
  }

  /** Not known any more: learned again from the next post filed, or set again. */
  async forget(accountUrl: string): Promise<void> {
    const { filed, commented, comments } = this.read(accountUrl);
    await this.write(accountUrl, { filed, commented, ...(comments ? { comments } : {}) });
  }

  /**
   * A post this extension filed: its id is remembered (for a comment, the post it is on: comments
   * are no rows of their own), and where `me` is not known and the post names its author (a
   * numeric `user_id`), that is who the person is. Answers what was learned.
   */
  async noteFiled(accountUrl: string, post: FiledAnswer): Promise<Me | undefined> {
    const stored = this.read(accountUrl);
    const comment = isComment(post);
    const filed = comment ? stored.filed : newestFirst(stored.filed, post.id);
    const onPost = comment && isUserId(post.post_id) ? post.post_id : undefined;
    const commented = onPost ? newestFirst(stored.commented, onPost) : stored.commented;
    const counts = onPost ? { ...stored.comments, [onPost]: (stored.comments?.[onPost] ?? 0) + 1 } : stored.comments;
    const comments = counts && Object.fromEntries(commented.filter((id) => counts[id] !== undefined).map((id) => [id, counts[id]!]));
    const learned = stored.me === undefined && isUserId(post.user_id) ? withNick({ id: post.user_id, source: 'learned' }, post.nick) : undefined;
    await this.write(accountUrl, { me: stored.me ?? learned, filed, commented, ...(comments ? { comments } : {}) });
    return learned;
  }

  /** Told the account address whose identity or filed posts changed (in this window). */
  onDidChange(listener: (accountUrl: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private read(accountUrl: string): Stored {
    const value = this.state.get<Partial<Stored>>(PREFIX + accountUrl);
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter(isUserId) : []);
    const filed = ids(value?.filed);
    const commented = ids(value?.commented);
    const raw: unknown = value?.comments;
    const counts = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const comments = Object.fromEntries(commented.map((id) => [id, counts[id]] as const).filter((entry): entry is [number, number] => isUserId(entry[1])));
    const me = value?.me;
    const valid = me && isUserId(me.id) && (me.source === 'learned' || me.source === 'set') ? withNick({ id: me.id, source: me.source }, me.nick) : undefined;
    return valid ? { me: valid, filed, commented, comments } : { filed, commented, comments };
  }

  private async write(accountUrl: string, stored: Stored): Promise<void> {
    await this.state.update(PREFIX + accountUrl, stored);
    for (const listener of [...this.listeners]) listener(accountUrl);
  }
}

/** `ids` with `id` added, newest first, the last `FILED_KEPT`. */
function newestFirst(ids: readonly number[], id: number): number[] {
  return [id, ...ids.filter((other) => other !== id)].sort((a, b) => b - a).slice(0, FILED_KEPT);
}

/** A positive whole number, as ids are (see parse.ts). */
function isUserId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function withNick(me: Me, nick: unknown): Me {
  const text = typeof nick === 'string' ? [...nick.trim()].slice(0, NICK_KEPT).join('') : '';
  return text ? { ...me, nick: text } : me;
}
