import vscode = require('vscode');
import { isApiError, type Post } from '../api';
import type { Account } from '../gateway/account';
import type { FindOutcome } from '../gateway/filedSearch';
import type { Gateway } from '../gateway/gateway';
import type { Log } from '../log';
import type { Notifier } from '../ui/notifier';
import { withCancellableProgress } from '../ui/progress';
import { labelText } from '../text/serverText';
import { parseDraftDocument } from './draftDocument';
import { newDraftRef, withDraftRef } from './draftRef';
import { draftUri } from './draftUri';
import type { Draft, DraftStore, UnconfirmedSend } from './drafts';

const { l10n } = vscode;

/** Why an earlier attempt may have been filed though its post was not found (see `Account.findFiled`). */
type Doubt = Exclude<FindOutcome, 'absent'>;

const WHAT = {
  bug: () => l10n.t('Filing the bug…'),
  task: () => l10n.t('Creating the task…'),
  comment: () => l10n.t('Adding the comment…'),
};

/**
 * Sends drafts. A draft is saved before it is sent and removed only once the server has
 * answered with the record, so a failure (or a window closed mid-way) loses nothing.
 */
export class DraftSender {
  constructor(
    private readonly gateway: Gateway,
    private readonly drafts: DraftStore,
    private readonly ui: Notifier,
    private readonly log: Log,
    /** Runs once a draft's post is on the service, whichever attempt put it there (e.g. to write a TODO's reference). */
    private readonly onFiled: (draft: Draft, post: Post, account: Account) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Sends under way, by draft id. */
  private readonly sending = new Map<string, Promise<Post | undefined>>();

  /**
   * Sends the draft `id`. Resolves with the created post, or undefined when it was not sent (the
   * draft is kept). One send of a draft at a time: a second press while one is under way (a
   * double click, Retry while Send runs) joins it, and its progress is the one shown.
   */
  send(id: string): Promise<Post | undefined> {
    const under = this.sending.get(id);
    if (under) return under;
    const sent = this.sendSaved(id).finally(() => this.sending.delete(id));
    this.sending.set(id, sent);
    return sent;
  }

  /** What the person sees is what is sent: the draft's own editor, edited and open, is saved first. */
  private async sendSaved(id: string): Promise<Post | undefined> {
    const open = draftDocument(id);
    if (open?.isDirty && !(await open.save())) {
      void this.ui.warn(l10n.t('Not sent: the draft\'s editor could not be saved. Your draft is kept.'));
      return undefined;
    }
    // Taken fresh: the text just saved, or nothing when another window sent or discarded it.
    if (!this.drafts.get(id)) return undefined;
    if (!(await this.drafts.claim(id))) {
      const again = l10n.t('Try Again');
      const within = await this.drafts.claimFreeWithin(id);
      const message =
        within <= 30_000
          ? l10n.t('This draft is being sent from another window. If that window was closed, the draft is free again within half a minute.')
          : l10n.t('This draft is being sent from another window. If that window was closed, the draft is free again within {0} minutes.', Math.ceil(within / 60_000));
      void this.ui.info(message, again).then(async (choice) => void (choice === again && (await this.send(id))));
      return undefined;
    }
    try {
      return await this.sendOnce(this.drafts.get(id)!);
    } finally {
      await this.drafts.release(id);
    }
  }

  private async sendOnce(draft: Draft): Promise<Post | undefined> {
    // A draft goes with the account it was written for: this window's, or another signed in to.
    const account = await this.gateway.accountFor(draft.accountUrl);
    const problem = this.problemWith(draft, account);
    if (problem || !account) {
      this.offerFix(draft, problem ?? l10n.t('You are signed out.'));
      return undefined;
    }
    let markedNow = false;
    try {
      let attempt: UnconfirmedSend & { ref: string };
      if (draft.unconfirmed) {
        const before = draft.unconfirmed;
        const earlier = await withCancellableProgress(WHAT[draft.kind](), (signal) => this.findEarlierDelivery(account, draft, before, signal));
        if (typeof earlier === 'string' && !(await this.confirmResend(account, draft, earlier))) return undefined;
        if (typeof earlier === 'object') {
          await this.filed(account, draft, before.sentText, earlier, true);
          return earlier;
        }
        // Not filed: this attempt goes with the same marker, now in the first line, and the text it sends.
        attempt = { ...before, ref: before.ref ?? newDraftRef(), sentText: draft.text, markerAtHead: true };
        if (attempt.ref !== before.ref || attempt.sentText !== before.sentText || !before.markerAtHead) await this.drafts.setUnconfirmed(draft.id, attempt);
      } else {
        attempt = this.baseline(draft, account);
        await this.drafts.setUnconfirmed(draft.id, attempt);
        markedNow = true;
      }
      const post = await withCancellableProgress(WHAT[draft.kind](), (signal) => this.create(account, draft, attempt.ref, signal));
      await this.noteFiled(account, draft, post, attempt.ref);
      await this.filed(account, draft, draft.text, post, false);
      return post;
    } catch (error) {
      if (markedNow && !mayBeStored(error)) await this.drafts.setUnconfirmed(draft.id, undefined);
      this.log.error(`Could not send draft ${draft.id}`, error);
      if (isApiError(error, 'cancelled')) {
        void this.ui.info(l10n.t('Not sent. The draft is kept: run the command again or open it from "Edit Draft".'));
        return undefined;
      }
      // Not awaited: the command ends now, with the draft kept; the choice comes whenever it comes.
      const again = () => this.send(draft.id);
      const edit = () => this.drafts.get(draft.id) && openDraft(draft.id);
      this.ui.failure(error, { retry: again, editDraft: edit }, (text) => l10n.t('Not sent: {0} Your draft is kept.', text));
      return undefined;
    }
  }

  /** Remembered to learn from later (see `searchFiled`); the post is filed whether or not this is. */
  private async noteFiled(account: Account, draft: Draft, post: Post, ref: string): Promise<void> {
    await account.noteFiled(draft.kind, post.id, ref).catch((error: unknown) => this.log.error(`Could not remember post #${post.id} as filed`, error));
  }

  private async delivered(account: Account, draft: Draft, post: Post, earlier: boolean): Promise<void> {
    await closeDraftEditors(draft.id);
    await this.drafts.remove(draft.id);
    this.announce(account, draft, post, earlier);
  }

  /**
   * The draft's post is on the service, filed with `sentText` (by this attempt, or by an earlier
   * one whose answer was lost). A draft edited since, in the store or in its open editor, holds
   * what the person typed after that: it is kept (no longer waiting on an attempt), not closed.
   */
  private async filed(account: Account, draft: Draft, sentText: string | undefined, post: Post, earlier: boolean): Promise<void> {
    await this.onFiled(draft, post, account).catch((error: unknown) => this.log.error(`After filing draft ${draft.id}`, error));
    const current = this.drafts.get(draft.id);
    const editor = draftDocument(draft.id);
    const editedSince = (sentText !== undefined && current !== undefined && current.text !== sentText) || editor?.isDirty === true;
    if (!editedSince) return this.delivered(account, draft, post, earlier);
    await this.drafts.setUnconfirmed(draft.id, undefined);
    const edit = l10n.t('Edit Draft');
    const open = l10n.t('Open in Browser');
    const message = earlier
      ? l10n.t('#{0} was on the helpdesk already: your earlier attempt reached it, only its answer was lost. You edited the draft since, so it is kept and not sent.', post.id)
      : l10n.t('#{0} was filed with the text the draft had when you sent it. You edited the draft since, so it is kept and not sent.', post.id);
    void this.ui.info(message, edit, open).then(async (choice) => {
      if (choice === edit) await openDraft(draft.id);
      if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(account.link('posts', post.id)));
    });
  }

  /**
   * What is needed later to find this draft's post, should the answer be lost: the marker, and
   * where the search may stop. The newest post id counts only where the service sent the view's
   * first page newest first; on one that ignores the order, the view may hold only the oldest
   * posts, and a search that stopped there would miss the post.
   */
  private baseline(draft: Draft, account: Account): UnconfirmedSend & { ref: string } {
    // The view holds this window's account's posts: another account's draft has no baseline from it.
    const { items, sortedByService } = account === this.gateway.account ? this.gateway.store.posts.state : { items: [], sortedByService: false };
    const newestPostId = sortedByService && items.length > 0 ? Math.max(...items.map((p) => p.id)) : undefined;
    return { ref: newDraftRef(), sentText: draft.text, newestPostId, markerAtHead: true };
  }

  /**
   * After an attempt whose answer never came, the post may be on the server already: the one
   * that carries the attempt's marker is it. Its absence from the list proves it was not filed
   * only where this search saw the list show that kind of post with its marker (see
   * `searchFiled`); otherwise, as after an attempt from before markers, the person decides. A comment count is no proof either way (a colleague's comment, one deleted,
   * a counter that lags), so it is not read.
   */
  private async findEarlierDelivery(account: Account, draft: Draft, unconfirmed: UnconfirmedSend, signal: AbortSignal): Promise<Post | Doubt | undefined> {
    const { ref } = unconfirmed;
    if (!ref) return 'unsure';
    const sought = { kind: draft.kind, ref, after: unconfirmed.newestPostId, parentId: draft.postId, markerAtHead: unconfirmed.markerAtHead === true };
    const found = await account.findFiled(sought, signal);
    if (typeof found === 'object') await this.noteFiled(account, draft, found, ref);
    return found === 'absent' ? undefined : found;
  }

  /** The earlier attempt may have been filed, and it cannot be told: the person decides. */
  private async confirmResend(account: Account, draft: Draft, doubt: Doubt): Promise<boolean> {
    const open = l10n.t('Open Helpdesk');
    const send = l10n.t('Send Anyway');
    const keep = l10n.t('Keep Draft');
    const what = draft.kind === 'comment' ? l10n.t('Your comment on #{0}', draft.postId ?? '') : `"${labelText(parseDraftDocument(draft.text).title, 80)}"`;
    const why =
      doubt === 'unsure'
        ? l10n.t('the helpdesk\'s list could not be searched fully enough to be sure')
        : draft.kind === 'comment'
          ? l10n.t('the helpdesk\'s list did not show a comment filed from VS Code with its marker, so not finding this one proves nothing')
          : draft.kind === 'bug'
            ? l10n.t('the helpdesk\'s list did not show a bug report filed from VS Code with its marker, so not finding this one proves nothing')
            : l10n.t('the helpdesk\'s list did not show a task filed from VS Code with its marker, so not finding this one proves nothing');
    const message = l10n.t('{0} may have been filed: the answer to your earlier attempt was lost, and {1}.', what, why);
    const choice = await this.ui.warn(message, { modal: true }, open, send, keep);
    if (choice === send) return true;
    if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(draft.kind === 'comment' && draft.postId ? account.link('posts', draft.postId) : `${account.url}/app`));
    void this.ui.info(l10n.t('Not sent. The draft is kept.'));
    return false;
  }

  private problemWith(draft: Draft, account: Account | undefined): string | undefined {
    if (!account && !this.gateway.account) return l10n.t('You are signed out.');
    if (!account) return l10n.t('This draft is for {0}, which you are not signed in to: it waits until you are.', draft.accountUrl);
    const { title, description } = draftContent(draft);
    if (!title) return l10n.t('The first line, the title, is empty.');
    if (draft.kind === 'comment' && !description) return l10n.t('The comment is empty.');
    return undefined;
  }

  private offerFix(draft: Draft, problem: string): void {
    const edit = l10n.t('Edit Draft');
    const signIn = l10n.t('Sign In…');
    void this.ui.warn(l10n.t('Not sent: {0} Your draft is kept.', problem), edit, signIn).then(async (choice) => {
      if (choice === edit) await openDraft(draft.id);
      if (choice === signIn) await vscode.commands.executeCommand('helpdesk.signIn');
    });
  }

  private create(account: Account, draft: Draft, ref: string, signal: AbortSignal): Promise<Post> {
    const owner = { client_id: draft.clientId, responsible_id: draft.responsibleId };
    const { title, description } = draftContent(draft);
    const content = withDraftRef(description, ref);
    if (draft.kind === 'comment') {
      if (draft.postId === undefined) throw new Error(`Comment draft ${draft.id} names no post.`);
      return account.addComment(draft.postId, { title, content, ...owner }, signal);
    }
    if (draft.kind === 'bug') return account.reportError({ title, content }, signal);
    return account.createTask({ title, content, task_kind: 'task', ...owner }, signal);
  }

  private announce(account: Account, draft: Draft, post: Post, earlier: boolean): void {
    const link = account.link('posts', draft.kind === 'comment' ? (draft.postId ?? post.id) : post.id);
    const message = earlier
      ? l10n.t('#{0} was on the helpdesk already: the earlier attempt reached it, only its answer was lost. Not sent again.', post.id)
      : draft.kind === 'bug'
        ? l10n.t('Bug #{0} filed.', post.id)
        : draft.kind === 'task'
          ? l10n.t('Task #{0} created.', post.id)
          : l10n.t('Comment added to #{0}.', draft.postId ?? '');
    // Sent with an account this window does not show: say which.
    const where = account === this.gateway.account ? message : l10n.t('{0} (in {1})', message, account.url);
    const open = l10n.t('Open in Browser');
    const copy = l10n.t('Copy Link');
    void this.ui.info(where, open, copy).then(async (choice) => {
      if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(link));
      if (choice === copy) await vscode.env.clipboard.writeText(link);
    });
  }
}

export async function openDraft(id: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(draftUri(id));
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { preview: false });
}

/** The draft's document, while it is open. */
function draftDocument(id: string): vscode.TextDocument | undefined {
  const uri = draftUri(id).toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
}

/** Closes a draft's editors; unsaved edits in them are dropped (reverted), and no other editor is touched. */
export async function closeDraftEditors(id: string): Promise<void> {
  const uri = draftUri(id);
  const open = draftDocument(id);
  if (open?.isDirty) {
    await vscode.window.showTextDocument(open, { preview: false });
    // Only once the draft's own editor is the active one: the command acts on the active editor.
    if (vscode.window.activeTextEditor?.document === open) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await closeEditorsOf(uri);
}

async function closeEditorsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

/**
 * Failures after which the post may be stored all the same: no answer, a garbled one, a
 * cancel while it was on its way, a 2xx answer whose body is an error, or a server error
 * other than "unavailable" (503).
 */
function mayBeStored(error: unknown): boolean {
  if (isApiError(error) && error.status !== undefined && error.status < 300) return true;
  if (isApiError(error, 'server')) return error.status !== 503;
  return !isApiError(error) || isApiError(error, 'network') || isApiError(error, 'timeout') || isApiError(error, 'cancelled') || isApiError(error, 'badResponse');
}

/** The title and content a draft files. A comment draft from before comments had titles gets one. */
function draftContent(draft: Draft): { title: string; description: string } {
  if (draft.kind !== 'comment' || draft.titled) return parseDraftDocument(draft.text);
  return { title: `Re: #${draft.postId ?? ''}`, description: draft.text.trim() };
}
