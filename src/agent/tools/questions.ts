/**
 * The questions a door asked the person before a write, kept for the yes that answers them: the
 * yes sends exactly what its question showed, for the account it was asked for, or nothing. VS
 * Code asks (prepareInvocation) and answers (invoke) in two calls that share only the tool's
 * input, so questions are kept by call (tool and input); where two questions of one call are
 * open at once and showed different things, a yes cannot be told apart and sends nothing.
 * No vscode import.
 */
import { createHash } from 'node:crypto';

/** What a question showed: `shown` is compared byte for byte between questions of one call. */
export interface Asked<W, A> {
  readonly what: W;
  /** The account it was asked for (the very object: signed out and in again, it is another). */
  readonly account: A;
  readonly shown: string;
}

/** The yes answered this question; or why nothing may be sent. */
export type Answered<W, A> =
  { readonly asked: Asked<W, A> } | { readonly refused: 'notAsked' | 'ambiguous' | 'otherAccount'; readonly asked?: Asked<W, A> };

/**
 * A call, by its tool and the fields it reads, hashed: linear in the input's size whatever its
 * shape or depth (a field of another type counts by its type alone: the tool refuses it anyway).
 */
export function callKey(tool: string, input: Readonly<Record<string, unknown>>, fields: readonly string[]): string {
  const hash = createHash('sha256').update(tool);
  for (const field of fields) {
    const value = input[field];
    const kind = value === null ? 'null' : typeof value;
    hash.update(`\0${field}\0${kind}\0${kind === 'string' || kind === 'number' || kind === 'boolean' ? String(value) : ''}`);
  }
  return hash.digest('hex');
}

/** Questions kept at most (a refused one is never answered: the oldest go first). */
const KEPT = 20;

export class Questions<W, A> {
  private readonly open = new Map<string, Asked<W, A>[]>();

  /** Keeps what a question for the call `key` shows. */
  asked(key: string, asked: Asked<W, A>): void {
    const list = this.open.get(key) ?? [];
    this.open.delete(key);
    this.open.set(key, [...list, asked]);
    // The call asked least lately goes whole: a part of its questions left would make one of two look like the only one.
    while (this.count() > KEPT) this.open.delete(this.open.keys().next().value!);
  }

  /** A call for which nothing was shown (signed out, or nothing to ask): a yes that comes for it answers no question. */
  notAsked(key: string): void {
    this.open.delete(key);
  }

  /** An earlier question of the call `key` that showed `shown` for this account: asking again shows the same (its marker too). */
  same(key: string, account: A, shown: (what: W) => boolean): W | undefined {
    return this.open.get(key)?.find((asked) => asked.account === account && shown(asked.what))?.what;
  }

  /** The question the yes for call `key` answers, taken with those alike; `account` is the one in use now. */
  answer(key: string, account: A): Answered<W, A> {
    const list = this.open.get(key);
    if (!list?.length) return { refused: 'notAsked' };
    // One yes answers every question of the call, all alike: a second yes to the same is not a second write.
    this.open.delete(key);
    const [first, ...rest] = list;
    if (rest.some((other) => other.shown !== first!.shown || other.account !== first!.account)) return { refused: 'ambiguous' };
    if (first!.account !== account) return { refused: 'otherAccount', asked: first };
    return { asked: first! };
  }

  private count(): number {
    let count = 0;
    for (const list of this.open.values()) count += list.length;
    return count;
  }
}
