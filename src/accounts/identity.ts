/**
 * Who the signed-in person is in an account, and which posts this extension filed there.
 * Plain TypeScript (no vscode import): unit-tested alone.
 */
import { Emitter } from '../api/emitter';
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

/**
 * Who the person is in an account, as far as this extension knows: their user where known, and
 * the posts they filed, commented on or updated from VS Code (known whether or not `me` is). The
 * one shape the Helpdesk view's quick filters, the agent's search and the news watcher read (see
 * scopes.ts).
 */
export interface WhoIAm {
  /** Their user; undefined until learned or set. */
  readonly me: Me | undefined;
  /** The posts they filed from VS Code (the last `FILED_KEPT`). */
  readonly filed: ReadonlySet<number>;
  /** The posts they commented on from VS Code (the last `FILED_KEPT`). */
  readonly commented: ReadonlySet<number>;
  /** For a post of `commented`, how many comments they filed on it from VS Code: their own comments are no news to them. */
  readonly comments: ReadonlyMap<number, number>;
  /** For a post they updated from VS Code (closed, reopened, assigned, a status), the `updated_at` it left: the post as they left it is no news to them. */
  readonly updated: ReadonlyMap<number, string>;
}

/** Nobody known: signed out, or an account never used from here. */
export const NOBODY: WhoIAm = { me: undefined, filed: new Set(), commented: new Set(), comments: new Map(), updated: new Map() };

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
  /** For a post the person updated from VS Code (closed, reopened, assigned, a status), the `updated_at` of the record the service answered. */
  updated?: Record<string, string>;
}

/** How many posts' own updates are kept per account (the newest). */
const UPDATED_KEPT = 100;

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
  private readonly changed = new Emitter<string>();
  /** Told the account address whose identity or filed posts changed (in this window). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: IdentityState) {}

  me(accountUrl: string): Me | undefined {
    return this.read(accountUrl).me;
  }

  /** Who the person is in the account, and what they did there from VS Code, read once. */
  whoIAm(accountUrl: string): WhoIAm {
    const { me, filed, commented, comments, updated } = this.read(accountUrl);
    return {
      me,
      filed: new Set(filed),
      commented: new Set(commented),
      comments: new Map(commented.map((id) => [id, comments?.[id] ?? 1])),
      updated: new Map(Object.entries(updated ?? {}).map(([id, at]) => [Number(id), at])),
    };
  }

  /** Set by the person: it stands until they set another or forget it. */
  async set(accountUrl: string, id: number, nick?: string): Promise<void> {
    if (!isUserId(id)) throw new Error(`Not a user id: ${String(id)}`);
    const stored = this.read(accountUrl);
    await this.write(accountUrl, { ...stored, me: withNick({ id, source: 'set' }, nick) });
  }

  /** An update the person made from VS Code, as the service answered it (see `WhoIAm.updated`). */
  async noteUpdated(accountUrl: string, post: Pick<Post, 'id' | 'updated_at'>): Promise<void> {
    if (!isUserId(post.id) || typeof post.updated_at !== 'string' || post.updated_at.length > 64) return;
    const stored = this.read(accountUrl);
    const others = Object.entries(stored.updated ?? {}).filter(([id]) => Number(id) !== post.id);
    const updated = Object.fromEntries([...others, [String(post.id), post.updated_at] as const].slice(-UPDATED_KEPT));
    await this.write(accountUrl, { ...stored, updated });
  }

  /** Not known any more: learned again from the next post filed, or set again. */
  async forget(accountUrl: string): Promise<void> {
    const { me: _forgotten, ...rest } = this.read(accountUrl);
    await this.write(accountUrl, rest);
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
    const learned =
      stored.me === undefined && isUserId(post.user_id) ? withNick({ id: post.user_id, source: 'learned' }, post.nick) : undefined;
    await this.write(accountUrl, { ...stored, me: stored.me ?? learned, filed, commented, ...(comments ? { comments } : {}) });
    return learned;
  }

  private read(accountUrl: string): Stored {
    const value = this.state.get<Partial<Stored>>(PREFIX + accountUrl);
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter(isUserId) : []);
    const filed = ids(value?.filed);
    const commented = ids(value?.commented);
    const raw: unknown = value?.comments;
    const counts = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const comments = Object.fromEntries(
      commented.map((id) => [id, counts[id]] as const).filter((entry): entry is [number, number] => isUserId(entry[1])),
    );
    const me = value?.me;
    const valid =
      me && isUserId(me.id) && (me.source === 'learned' || me.source === 'set')
        ? withNick({ id: me.id, source: me.source }, me.nick)
        : undefined;
    const rawUpdated: unknown = value?.updated;
    const updated = Object.fromEntries(
      Object.entries(rawUpdated && typeof rawUpdated === 'object' ? (rawUpdated as Record<string, unknown>) : {})
        .filter((entry): entry is [string, string] => isUserId(Number(entry[0])) && typeof entry[1] === 'string' && entry[1].length <= 64)
        .slice(-UPDATED_KEPT),
    );
    return { ...(valid ? { me: valid } : {}), filed, commented, comments, updated };
  }

  private async write(accountUrl: string, stored: Stored): Promise<void> {
    await this.state.update(PREFIX + accountUrl, stored);
    this.changed.fire(accountUrl);
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
