/**
 * The reply box's text, kept as today's drafts are (src/drafts/): a comment draft of the page's
 * account on the page's post, saved as the person types, so that a window closed or reloaded
 * mid-reply loses nothing and Send Draft, Discard Draft and the unsent-drafts offer know it.
 * Sent through the one sender (DraftSender): once, however many presses or Retries; a failed
 * send keeps the draft, for Retry or Edit. A draft changed elsewhere (another window, its own
 * editor) since the page last wrote it is not written over or removed: it stays as it is, and
 * what the page types goes into a draft of its own.
 */
import type { Post } from '../api';
import type { Account } from '../api/account';
import { commentDraft, commentTitle } from '../commands/commentOnTask';
import { formatDraftDocument, parseDraftDocument } from '../drafts/draftDocument';
import type { Draft } from '../drafts/drafts';
import type { WriteServices } from '../services';
import { MAX_REPLY_CHARS } from './pageMessages';

/** Where the reply is: being written, on its way, or not sent (why, in words). */
export type ReplyState = { readonly kind: 'writing' } | { readonly kind: 'sending' } | { readonly kind: 'failed'; readonly why: string };

/** A draft the page takes as its reply: the person's comment on this post, for this account, not an agent's. */
export function isReplyDraft(draft: Draft, accountUrl: string, postId: number): boolean {
  return draft.kind === 'comment' && draft.accountUrl === accountUrl && draft.postId === postId && !draft.byAgent && !draft.todo;
}

/** A draft's text as the reply box holds it: its description when it is titled. */
function replyText(draft: Draft): string {
  return draft.titled === false || draft.titled === undefined ? draft.text : parseDraftDocument(draft.text).description;
}

/**
 * A reply draft the page does not write into, which stays a draft of its own (the page says so
 * and opens it): one longer than the box takes (written in an editor: see Comment on Task), which
 * the page could send none of back; or one changed elsewhere while the page was writing into it.
 */
export interface KeptDraft {
  readonly id: string;
  /** Too long for the box; changed elsewhere while the page wrote into it; or another reply to the post, kept before the page opened. */
  readonly why: 'longer' | 'changedElsewhere' | 'another';
}

export class Reply {
  private draftId: string | undefined;
  /** The reply draft's text as this page last read or wrote it: any other text there was written elsewhere. */
  private seen: string | undefined;
  private kept: KeptDraft | undefined;
  private state: ReplyState = { kind: 'writing' };
  /**
   * A send asked and not ended: another press of Send or Retry meanwhile (a double click, a key
   * held) is the same intent, and is dropped rather than queued behind it.
   */
  private busy = false;
  /** Saves and sends, one after another, in the order the page asked. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly services: WriteServices,
    private readonly account: Pick<Account, 'url'>,
    postId: number,
    /** Told whenever the state or the kept text changes. */
    private readonly changed: () => void,
  ) {
    const drafts = services.drafts.all().filter((draft) => isReplyDraft(draft, account.url, postId));
    const fits = drafts.filter((draft) => replyText(draft).length <= MAX_REPLY_CHARS);
    this.draftId = fits.at(-1)?.id;
    this.seen = fits.at(-1)?.text;
    const longer = drafts.filter((draft) => !fits.includes(draft)).at(-1);
    const another = fits.at(-2);
    if (longer) this.kept = { id: longer.id, why: 'longer' };
    else if (another) this.kept = { id: another.id, why: 'another' };
  }

  /** The draft the page left as it is, while there is one (see KeptDraft). */
  get keptDraft(): KeptDraft | undefined {
    return this.kept;
  }

  get status(): ReplyState {
    return this.state;
  }

  /** The reply's text as its draft holds it ('' without one). */
  get text(): string {
    const draft = this.draftId === undefined ? undefined : this.services.drafts.get(this.draftId);
    return draft ? replyText(draft) : '';
  }

  /** The reply's text as the page is given it, to type on: what its next save writes over. */
  textForPage(): string {
    const draft = this.draftId === undefined ? undefined : this.services.drafts.get(this.draftId);
    if (!draft) return '';
    const text = replyText(draft);
    // Grown in its editor past what the box takes: the page could send none of it back.
    if (text.length > MAX_REPLY_CHARS) {
      this.kept = { id: draft.id, why: 'longer' };
      this.draftId = this.seen = undefined;
      return '';
    }
    this.seen = draft.text;
    return text;
  }

  /** The id of the reply's draft, while there is one. */
  get draft(): string | undefined {
    return this.draftId;
  }

  /** The text as typed, saved into the reply's draft (made at the first word; removed when emptied). Not while a send is under way. */
  save(parent: Post, text: string): Promise<void> {
    if (this.busy) return Promise.resolve();
    return this.next(async () => {
      if (this.state.kind === 'sending') return;
      await this.write(parent, text);
    });
  }

  /**
   * Saves `text`, then sends the draft; resolves with the comment once filed. Not sent when the
   * reply's draft was changed elsewhere: the page says so first, and a second Send sends it.
   */
  send(parent: Post, text: string): Promise<Post | undefined> {
    if (this.busy || !text.trim()) return Promise.resolve(undefined);
    this.busy = true;
    return this.next(async () => ((await this.write(parent, text)) ? this.sendKept() : undefined)).finally(() => (this.busy = false));
  }

  /** Sends the kept draft again (after a failure). */
  retry(): Promise<Post | undefined> {
    if (this.busy || this.state.kind !== 'failed') return Promise.resolve(undefined);
    this.busy = true;
    return this.next(() => this.sendKept()).finally(() => (this.busy = false));
  }

  /** Back to writing, with the kept text. */
  edit(): void {
    if (this.state.kind !== 'failed') return;
    this.state = { kind: 'writing' };
    this.changed();
  }

  /**
   * The text into the reply's draft, against the text the page last saw there; false when that
   * draft was changed elsewhere since, and is left as it is (the text then goes into a new one).
   */
  private async write(parent: Post, text: string): Promise<boolean> {
    const { drafts } = this.services;
    const current = this.draftId === undefined ? undefined : await drafts.read(this.draftId);
    const seen = this.seen;
    let left = false;
    if (current) {
      const wanted = text.trim()
        ? formatDraftDocument(current.titled ? parseDraftDocument(current.text).title : commentTitle(parent), text)
        : undefined;
      const done =
        seen !== undefined &&
        current.text === seen &&
        (wanted === undefined
          ? await drafts.remove(current.id, { ifText: seen })
          : wanted === seen || (await drafts.update(current.id, wanted, { ifText: seen })));
      if (done) {
        this.seen = wanted;
        if (wanted === undefined) this.draftId = undefined;
        return true;
      }
      this.leave(current.id);
      left = true;
    }
    // None yet, or gone (sent or discarded elsewhere), or left.
    this.draftId = undefined;
    this.seen = undefined;
    if (text.trim()) {
      const made = await drafts.create(commentDraft(this.account, { parent, text }));
      this.draftId = made.id;
      this.seen = made.text;
    }
    return !left;
  }

  /** The reply's draft was changed elsewhere: it stays as it is, and the page writes a draft of its own. */
  private leave(id: string): void {
    this.kept = { id, why: 'changedElsewhere' };
    this.draftId = undefined;
    this.seen = undefined;
    this.changed();
  }

  private async sendKept(): Promise<Post | undefined> {
    const id = this.draftId;
    if (id === undefined) return undefined;
    this.state = { kind: 'sending' };
    this.changed();
    const sent = await this.services.sender.sendSaying(id).catch((error: unknown) => ({ notSent: String(error) }));
    if ('post' in sent) {
      if (this.draftId === id) this.draftId = undefined;
      this.state = { kind: 'writing' };
    } else {
      // Gone meanwhile (sent or discarded in another window): nothing to retry.
      const kept = await this.services.drafts.read(id);
      if (!kept) this.draftId = undefined;
      this.state = kept ? { kind: 'failed', why: sent.notSent } : { kind: 'writing' };
    }
    this.changed();
    return 'post' in sent ? sent.post : undefined;
  }

  private next<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
