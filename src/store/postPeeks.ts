import { isApiError, type Post } from '../api';

/** A post as a hover shows it, or the fact that it is gone (deleted, or not visible to this token). */
export type Peek = { post: Post } | { gone: true };

const FRESH_MS = 3 * 60_000;
/** A failure other than "gone" is not kept as long: the next hover after this may try again. */
const FAILED_MS = 30_000;
const MOST = 200;

/**
 * Single posts looked up by id for hovers: one request per post per few minutes at most, and one
 * at a time (hovers that come while it runs share it). The store clears it when bound to another account, or on sign-out.
 */
export class PostPeeks {
  private readonly entries = new Map<number, { at: number; ms: number; peek: Promise<Peek> }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(id: number, load: (id: number) => Promise<Post>): Promise<Peek> {
    const held = this.entries.get(id);
    if (held && this.now() - held.at < held.ms) return held.peek;
    const entry = { at: this.now(), ms: FRESH_MS, peek: Promise.resolve<Peek>({ gone: true }) };
    entry.peek = load(id).then(
      (post): Peek => ({ post }),
      (error: unknown): Peek => {
        if (isApiError(error, 'notFound')) return { gone: true };
        entry.ms = FAILED_MS;
        throw error;
      },
    );
    this.entries.delete(id);
    this.entries.set(id, entry);
    // A Map keeps insertion order: the first key is the oldest.
    if (this.entries.size > MOST) this.entries.delete(this.entries.keys().next().value!);
    return entry.peek;
  }

  /** A post as it is now (the answer to a write of this extension): the next hover shows it without asking. */
  set(post: Post): void {
    this.entries.delete(post.id);
    this.entries.set(post.id, { at: this.now(), ms: FRESH_MS, peek: Promise.resolve<Peek>({ post }) });
    if (this.entries.size > MOST) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}
