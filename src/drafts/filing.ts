/**
 * Filing a draft exactly once: the protocol a send follows, from the draft to an outcome, with no
 * editor and no notification in it (no vscode import; unit-tested alone). The shell that shows
 * what happens is `DraftSender` (sendDraft.ts).
 *
 * The promise: a draft's post is filed at most once however answers are lost, and a draft is
 * never reported filed without its post. Before the first attempt goes out, a marker (draftRef.ts)
 * is written into the draft, and the attempt puts it at the head of the content; while the draft
 * holds it, the service may have the post, so a later send looks for the post that carries it
 * before it sends again. The marker is forgotten only on a clear "not stored".
 */
import { isApiError, type NewComment, type NewErrorReport, type NewTask, type Post } from '../api';
import type { FiledSought, FindOutcome } from '../api/filedSearch';
import type { FiledKind } from '../api/listKnowledge';
import type { Draft, UnconfirmedSend } from './draft';
import { parseDraftDocument } from './draftDocument';
import { newDraftRef, withDraftRef } from './draftRef';

/** What filing needs of the draft's account (`Account` is one). */
export interface FilingAccount {
  /**
   * Where a search after a lost answer may stop, written with the first attempt's marker (a later
   * attempt keeps the first's): an id below that of every post filed from now on. Known only where
   * the account saw the head of its list sorted newest first by the service; otherwise undefined,
   * and a search reads the list to its end.
   */
  readonly newestListed: number | undefined;
  findFiled(sought: FiledSought, signal?: AbortSignal): Promise<Post | FindOutcome>;
  noteFiled(kind: FiledKind, id: number, ref: string): Promise<void>;
  createTask(task: NewTask, signal?: AbortSignal): Promise<Post>;
  reportError(report: NewErrorReport, signal?: AbortSignal): Promise<Post>;
  addComment(parentId: number, comment: NewComment, signal?: AbortSignal): Promise<Post>;
}

/** Where a draft's marker is kept (`DraftStore` is one). */
export interface MarkerStore {
  setUnconfirmed(id: string, unconfirmed: UnconfirmedSend | undefined): Promise<void>;
  /** Forgets the attempt and its marker (see `endAttempt`). */
  endAttempt(id: string): Promise<void>;
}

/** What filing is given besides the draft and its account. */
export interface FilingContext {
  /** Whether any account is signed in: without one, the person is signed out (else only not to the draft's). */
  signedIn: boolean;
  markers: MarkerStore;
  /** The person was told that an earlier attempt may have been filed (`maybeFiled`) and chose to send anyway. */
  resendAnyway?: boolean;
  /**
   * The draft's `unconfirmed` is its first attempt's, written with the draft as it was saved (see
   * `firstAttempt`), and that attempt has not gone out: there is no earlier one to look for.
   */
  marked?: boolean;
  /** Runs one call to the service (the search, then the create), with the signal that cancels it: the shell shows its progress. */
  step: <T>(call: (signal: AbortSignal) => Promise<T>) => PromiseLike<T>;
  /** For what fails without changing the outcome. */
  log: (message: string, error: unknown) => void;
}

/** Why a draft is not sent at all. */
export type Refusal = 'signedOut' | 'accountSignedOut' | 'emptyTitle' | 'emptyComment';

/** Why an earlier attempt may have been filed though its post was not found (see `searchFiled`). */
export type Doubt = Exclude<FindOutcome, 'absent'>;

/**
 * How a send ended. `filed` and `filedEarlier` name the text the post was filed with (undefined:
 * an attempt of an earlier version, which did not keep it): a draft that holds other text now was
 * edited since. `filed` comes as soon as the service answers, while the post is being remembered
 * (`noted`). `failed` says whether the service may hold the post all the same (the draft then
 * keeps its marker, and the next send looks first).
 */
export type Filing<A extends FilingAccount = FilingAccount> =
  | {
      outcome: 'filed';
      post: Post;
      account: A;
      sentText: string;
      ref: string;
      /** The post remembered for later searches (it never fails). */ noted: Promise<void>;
    }
  | {
      outcome: 'filedEarlier';
      post: Post;
      account: A;
      sentText: string | undefined;
      ref: string;
      /** The post remembered for later searches (it never fails). */ noted: Promise<void>;
    }
  | { outcome: 'maybeFiled'; doubt: Doubt; account: A }
  | { outcome: 'failed'; error: unknown; mayBeStored: boolean }
  | { outcome: 'refused'; why: Refusal };

/** An attempt about to go out: its marker is known. */
type Attempt = UnconfirmedSend & { ref: string };

/**
 * Sends the draft, unless an earlier attempt whose answer was lost filed it already. After such an
 * attempt, the post that carries its marker is looked for first: found, it is `filedEarlier`; where
 * its absence cannot be proven, `maybeFiled` (the person decides; a second call with
 * `resendAnyway` sends, with the same marker). The marker is written before the attempt goes out.
 */
export async function fileDraft<A extends FilingAccount>(draft: Draft, account: A | undefined, context: FilingContext): Promise<Filing<A>> {
  if (!account) return { outcome: 'refused', why: context.signedIn ? 'accountSignedOut' : 'signedOut' };
  const empty = emptyPart(draft);
  if (empty) return { outcome: 'refused', why: empty };
  const { markers, step, log } = context;
  const before = context.marked ? undefined : draft.unconfirmed;
  try {
    if (before && !context.resendAnyway) {
      const earlier = await step((signal) => findEarlier(account, draft, before, signal));
      if (typeof earlier === 'object') {
        const noted = laterNoteFiled(account, draft, earlier, before.ref ?? '', log);
        return { outcome: 'filedEarlier', post: earlier, account, sentText: before.sentText, ref: before.ref ?? '', noted };
      }
      if (earlier !== 'absent') return { outcome: 'maybeFiled', doubt: earlier, account };
    }
    const attempt =
      (context.marked && markedAlready(draft)) || (await mark(markers, marking(draft, context), before, account.newestListed));
    const post = await step((signal) => create(account, draft, attempt.ref, signal));
    // Not waited for: the post is filed, and the person is told so, whether or not this is written.
    const noted = laterNoteFiled(account, draft, post, attempt.ref, log);
    return { outcome: 'filed', post, account, sentText: draft.text, ref: attempt.ref, noted };
  } catch (error) {
    // Before the first attempt there was no marker: a clear "not stored" leaves none.
    const mayBe = before !== undefined || mayBeStored(error);
    if (!mayBe) await markers.setUnconfirmed(draft.id, undefined);
    return { outcome: 'failed', error, mayBeStored: mayBe };
  }
}

/**
 * The post is filed, and the draft was edited since: it stays, as a new draft that waits on no
 * attempt (sending it files what it holds now, with a marker of its own: the old one is the post's).
 */
export function endAttempt(markers: MarkerStore, draft: Draft): Promise<void> {
  return markers.endAttempt(draft.id);
}

/**
 * The first attempt of a draft that holds `draft.text`: a new marker (or the one chosen when the
 * write was composed, and shown to the person), with the baseline. Written before it goes out.
 */
export function firstAttempt(draft: Pick<Draft, 'ref' | 'text'>, baseline: number | undefined): Attempt {
  return { ref: draft.ref ?? newDraftRef(), sentText: draft.text, newestPostId: baseline, markerAtHead: true };
}

/** Whether the draft has what a send needs of it: a title, and a comment its words. */
export function fileable(draft: Pick<Draft, 'kind' | 'text' | 'titled' | 'postId'>): boolean {
  return emptyPart(draft) === undefined;
}

/** The attempt written with the draft (`marked`), where the draft still holds the text it is for. */
function markedAlready(draft: Draft): Attempt | undefined {
  const { unconfirmed } = draft;
  return unconfirmed?.ref && unconfirmed.markerAtHead && unconfirmed.sentText === draft.text
    ? { ...unconfirmed, ref: unconfirmed.ref }
    : undefined;
}

/** A draft marked as saved and edited since: its attempt is a first one still, with that marker. */
function marking(draft: Draft, context: FilingContext): Draft {
  return context.marked ? { ...draft, ref: draft.unconfirmed?.ref ?? draft.ref } : draft;
}

function emptyPart(draft: Pick<Draft, 'kind' | 'text' | 'titled' | 'postId'>): Refusal | undefined {
  const { title, description } = draftContent(draft);
  if (!title) return 'emptyTitle';
  if (draft.kind === 'comment' && !description) return 'emptyComment';
  return undefined;
}

/**
 * Writes the marker this attempt goes with, before it goes. The first attempt's is new, with the
 * baseline; a later one keeps the marker before it (one from before markers gets one), now at the
 * head of the content, with the text this attempt sends.
 */
async function mark(
  markers: MarkerStore,
  draft: Draft,
  before: UnconfirmedSend | undefined,
  baseline: number | undefined,
): Promise<Attempt> {
  if (!before) {
    // A marker chosen when the write was composed (and shown to the person) is the one it files with.
    const attempt = firstAttempt(draft, baseline);
    await markers.setUnconfirmed(draft.id, attempt);
    return attempt;
  }
  const attempt = { ...before, ref: before.ref ?? newDraftRef(), sentText: draft.text, markerAtHead: true };
  if (attempt.ref !== before.ref || attempt.sentText !== before.sentText || !before.markerAtHead)
    await markers.setUnconfirmed(draft.id, attempt);
  return attempt;
}

/**
 * After an attempt whose answer never came, the post may be on the service already: the one that
 * carries the attempt's marker is it. Its absence from the list proves it was not filed only where
 * the search saw the list show that kind of post with its marker (see `searchFiled`); an attempt
 * from before markers cannot be looked for. A comment count is no proof either way (a colleague's
 * comment, one deleted, a counter that lags), so it is not read.
 */
async function findEarlier(
  account: FilingAccount,
  draft: Draft,
  before: UnconfirmedSend,
  signal: AbortSignal,
): Promise<Post | FindOutcome> {
  const { ref } = before;
  if (!ref) return 'unsure';
  const sought = { kind: draft.kind, ref, after: before.newestPostId, parentId: draft.postId, markerAtHead: before.markerAtHead === true };
  return account.findFiled(sought, signal);
}

function create(account: FilingAccount, draft: Draft, ref: string, signal: AbortSignal): Promise<Post> {
  const owner = { client_id: draft.clientId, responsible_id: draft.responsibleId };
  const { title, content } = filedText(draft, ref);
  if (draft.kind === 'comment') {
    if (draft.postId === undefined) throw new Error(`Comment draft ${draft.id} names no post.`);
    return account.addComment(draft.postId, { title, content, ...owner }, signal);
  }
  if (draft.kind === 'bug') return account.reportError({ title, content }, signal);
  return account.createTask({ title, content, task_kind: 'task', ...owner }, signal);
}

/**
 * `noteFiled` in the next turn: once the person is told (the shell announces as the answer is in),
 * not before. Remembering the post only teaches later searches after lost answers; a window gone
 * before it is written leaves those searches less sure (the person is asked), never sending twice.
 */
function laterNoteFiled(account: FilingAccount, draft: Draft, post: Post, ref: string, log: FilingContext['log']): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => noteFiled(account, draft, post, ref, log));
}

/** Remembered to learn from later (see `searchFiled`); the post is filed whether or not this is. */
async function noteFiled(account: FilingAccount, draft: Draft, post: Post, ref: string, log: FilingContext['log']): Promise<void> {
  await account.noteFiled(draft.kind, post.id, ref).catch((error: unknown) => log(`Could not remember post #${post.id} as filed`, error));
}

/**
 * Failures after which the post may be stored all the same: no answer, a garbled one, a
 * cancel while it was on its way, a 2xx answer whose body is an error, or a server error
 * other than "unavailable" (503).
 */
function mayBeStored(error: unknown): boolean {
  if (isApiError(error) && error.status !== undefined && error.status < 300) return true;
  if (isApiError(error, 'server')) return error.status !== 503;
  return (
    !isApiError(error) ||
    isApiError(error, 'network') ||
    isApiError(error, 'timeout') ||
    isApiError(error, 'cancelled') ||
    isApiError(error, 'badResponse')
  );
}

/** The title and content, byte for byte, that a draft files with the marker `ref`. */
export function filedText(draft: Pick<Draft, 'kind' | 'text' | 'titled' | 'postId'>, ref: string): { title: string; content: string } {
  const { title, description } = draftContent(draft);
  return { title, content: withDraftRef(description, ref) };
}

/** The title and content a draft files. A comment draft from before comments had titles gets one. */
function draftContent(draft: Pick<Draft, 'kind' | 'text' | 'titled' | 'postId'>): { title: string; description: string } {
  if (draft.kind !== 'comment' || draft.titled) return parseDraftDocument(draft.text);
  return { title: `Re: #${draft.postId ?? ''}`, description: draft.text.trim() };
}
