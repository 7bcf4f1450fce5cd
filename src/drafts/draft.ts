/** A draft as it is kept: the record, with no store around it. No vscode import. */
import type { CommentPlace } from '../code/todoComments';

export type DraftKind = 'bug' | 'task' | 'comment';

/**
 * Something the person typed that is not on the server yet. `text` is what the draft document
 * shows: the first line is the title and the rest the content (see draftDocument.ts), except in
 * a comment draft saved before comments had titles (`titled` unset), which is all content.
 */
export interface Draft {
  id: string;
  kind: DraftKind;
  text: string;
  /** The account it is for, so a draft is never sent to another one. */
  accountUrl: string;
  /** The parent post of a comment. */
  postId?: number;
  /** A comment draft whose first line is its title. */
  titled?: boolean;
  clientId?: number | null;
  responsibleId?: number | null;
  /** A short description of where it goes, for lists ("comment on #12"). */
  target?: string;
  createdAt: number;
  updatedAt: number;
  /**
   * Set when an attempt to send it started and no clear "not stored" came back: the service
   * may have it already. Before sending again, the sender looks for it.
   */
  unconfirmed?: UnconfirmedSend;
  /** The window sending it now, and since when: another window leaves it alone meanwhile. */
  sending?: { by: string; since: number };
  /** The marker it files with, chosen when it was composed: an agent's question shows the very content sent. */
  ref?: string;
  /** Written by an agent's tool (its kept draft is what the same call sends again). */
  byAgent?: boolean;
  /** A task from a TODO comment: where the comment was, so that its reference is written there once filed. */
  todo?: TodoOrigin;
}

/** Where the comment was (0-based line, its whole text) when the command read it, and in which open document at which version. */
export interface TodoOrigin extends CommentPlace {
  uri: string;
}

/** An attempt to send a draft whose outcome is not known: what a later send needs to find its post. */
export interface UnconfirmedSend {
  /** The marker the attempt put into the content (see draftRef.ts): the post that carries it is this draft's. */
  ref?: string;
  /** The text the attempt sent: a draft edited since is not the post found. */
  sentText?: string;
  /** The newest post id known before the first attempt: the search for it stops once past this. */
  newestPostId?: number;
  /** The marker is in the content's first line (earlier versions put it at the end). */
  markerAtHead?: boolean;
}

const KINDS: readonly string[] = ['bug', 'task', 'comment'] satisfies DraftKind[];
/** The longest text a draft holds (characters, about 1 MB): a longer one is refused when saved, and a file with one is not a draft. */
export const MAX_DRAFT_TEXT = 1_000_000;
/** A draft's id names its file: lower-case letters, digits and dashes only, and short. */
const ID = /^[a-z0-9-]{1,64}$/;
/** Words that are not the draft's text: addresses, window names, targets, markers. */
const MAX_WORD = 4096;

export function isDraftId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id);
}

/** Whether `value`, read from a file or the global state, is a draft of the right shape and size. */
export function isDraft(value: unknown): value is Draft {
  if (!isRecord(value)) return false;
  const d = value as Partial<Record<keyof Draft, unknown>>;
  return (
    isDraftId(d.id) &&
    typeof d.kind === 'string' &&
    KINDS.includes(d.kind) &&
    isText(d.text, MAX_DRAFT_TEXT) &&
    isText(d.accountUrl, MAX_WORD) &&
    isFinite(d.createdAt) &&
    optional(d.updatedAt, isFinite) &&
    optional(d.postId, isFinite) &&
    optional(d.titled, (v) => typeof v === 'boolean') &&
    optional(d.clientId, (v) => v === null || isFinite(v)) &&
    optional(d.responsibleId, (v) => v === null || isFinite(v)) &&
    optional(d.target, (v) => isText(v, MAX_WORD)) &&
    optional(d.unconfirmed, isUnconfirmed) &&
    optional(d.sending, (v) => isRecord(v) && isText(v.by, MAX_WORD) && isFinite(v.since)) &&
    optional(
      d.todo,
      (v) =>
        isRecord(v) &&
        isText(v.uri, MAX_WORD) &&
        isFinite(v.line) &&
        isText(v.lineText, MAX_DRAFT_TEXT) &&
        isFinite(v.version) &&
        optional(v.opened, (o) => isText(o, MAX_WORD)),
    )
  );
}

function isUnconfirmed(value: unknown): boolean {
  return (
    isRecord(value) &&
    optional(value.ref, (v) => isText(v, MAX_WORD)) &&
    optional(value.sentText, (v) => isText(v, MAX_DRAFT_TEXT)) &&
    optional(value.newestPostId, isFinite) &&
    optional(value.markerAtHead, (v) => typeof v === 'boolean')
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

function isFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function optional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || check(value);
}
