import vscode = require('vscode');
import { isApiError, type Post } from '../api';
import type { Account } from '../api/account';
import type { Gateway } from '../accounts/gateway';
import { withSignedInNow } from '../accounts/signedIn';
import type { Log } from '../log';
import type { Notifier } from '../ui/notifier';
import { withCancellableProgress } from '../ui/progress';
import { labelText } from '../text/serverText';
import { errorText } from '../ui/errorText';
import { parseDraftDocument } from './draftDocument';
import { draftUri } from './draftUri';
import type { Draft, DraftStore, NewDraft, UnconfirmedSend } from './drafts';
import { FiledIntents, intentsOf, memoryFolder, twinsOf, type Twins } from './filedIntents';
import { endAttempt, fileable, fileDraft, firstAttempt, type Doubt, type Filing, type FilingContext, type Refusal } from './filing';
import { plural } from '../text/plural';
import { numberText, relativeTime } from '../text/intl';

const { l10n } = vscode;

/**
 * How a send ended, for a caller that must say so in words (the agent's tools): the post, filed
 * now or by an earlier attempt whose answer was lost, or why the draft was not sent (what the
 * person was shown; the service's words, where there are, are in it).
 */
export type Sent = { post: Post; earlier: boolean } | { notSent: string; /** The failure met, where one was. */ error?: unknown };

/**
 * What the person agreed to before the send, where a door asked first (the agent's question): to
 * file again the intent of the post it named (see `twinOf`), so the send does not ask again.
 */
export interface Agreed {
  readonly fileAgainAfter?: number;
}

const WHAT = {
  bug: () => l10n.t('Filing the bug…'),
  task: () => l10n.t('Creating the task…'),
  comment: () => l10n.t('Adding the comment…'),
};

/**
 * Sends drafts. A draft is saved before it is sent and removed only once the server has
 * answered with the record, so a failure (or a window closed mid-way) loses nothing. This is
 * the editor's side of a send: one window's claim, the draft's editors, progress, and what the
 * person is told and asked; the exactly-once protocol itself is `fileDraft` (filing.ts).
 */
export class DraftSender {
  constructor(
    private readonly gateway: Gateway,
    private readonly drafts: DraftStore,
    private readonly ui: Notifier,
    private readonly log: Log,
    /** Runs once a draft's post is on the service, whichever attempt put it there (e.g. to write a TODO's reference). */
    private readonly onFiled: (draft: Draft, post: Post, account: Account) => Promise<void> = () => Promise.resolve(),
    /** What this VS Code filed lately, by intent: a write of one of them again is asked about first. */
    readonly filedIntents: FiledIntents = new FiledIntents(memoryFolder()),
  ) {}

  /** Sends under way, by draft id. */
  private readonly sending = new Map<string, Promise<Sent>>();
  /** New drafts saved with their first attempt's marker (see `sendNew`), until their send begins. */
  private readonly marked = new Set<string>();

  /**
   * Saves a new draft and sends it at once. Where nothing stands between it and its POST (its
   * account signed in to, a title, no earlier write of its intent to ask about), the marker of its
   * first attempt is written with it, in the one write that saves and claims it, rather than in a
   * write of its own after; otherwise the send marks it as any other, once the person was asked.
   */
  async sendNew(fields: NewDraft): Promise<Post | undefined> {
    const draft = await this.drafts.create(fields, { claimed: true, attempt: this.firstMark(fields) });
    if (draft.unconfirmed) this.marked.add(draft.id);
    return this.send(draft.id);
  }

  /** The first attempt of a new draft, where its send would go out with no question first (see `sendNew`). */
  private async firstMark(fields: NewDraft): Promise<UnconfirmedSend | undefined> {
    const account = await this.gateway.accountFor(fields.accountUrl);
    const now = Date.now();
    const draft: Draft = { ...fields, id: '', createdAt: now, updatedAt: now };
    if (!account || !fileable(draft)) return undefined;
    if (await twinsOf(draft, this.drafts.all(), this.filedIntents)) return undefined;
    return firstAttempt(draft, account.newestListed);
  }

  /**
   * Sends the draft `id`. Resolves with the created post, or undefined when it was not sent (the
   * draft is kept). One send of a draft at a time: a second press while one is under way (a
   * double click, Retry while Send runs) joins it, and its progress is the one shown.
   */
  async send(id: string): Promise<Post | undefined> {
    const sent = await this.sendSaying(id);
    return 'post' in sent ? sent.post : undefined;
  }

  /** `send`, resolving with how it ended in words as well. */
  sendSaying(id: string, agreed: Agreed = {}): Promise<Sent> {
    const under = this.sending.get(id);
    if (under) return under;
    const sent = this.sendSaved(id, agreed).finally(() => this.sending.delete(id));
    this.sending.set(id, sent);
    return sent;
  }

  /**
   * What the person sees is what is sent: the draft's own editor, edited and open, is saved first.
   * Whatever this window claimed for the draft (from its creation on, see `DraftStore.create`) is
   * given up at the end, however the send ends.
   */
  private async sendSaved(id: string, agreed: Agreed): Promise<Sent> {
    try {
      const open = draftDocument(id);
      if (open?.isDirty && !(await open.save())) {
        const why = l10n.t("the draft's editor could not be saved.");
        void this.ui.warn(l10n.t('Not sent: {0} Your draft is kept.', why));
        return { notSent: why };
      }
      // Taken fresh: the text just saved, or nothing when another window sent or discarded it.
      if (!(await this.drafts.read(id))) return { notSent: l10n.t('the draft is gone: it was sent or discarded in another window.') };
      const claim = await this.drafts.claim(id);
      if (!claim.taken) {
        const again = l10n.t('Try Again');
        const within = claim.freeWithinMs;
        const message =
          within <= 30_000
            ? l10n.t(
                'This draft is being sent from another window. If that window was closed, the draft is free again within half a minute.',
              )
            : freeAgainText(Math.ceil(within / 60_000));
        void this.ui.info(message, again).then(async (choice) => void (choice === again && (await this.send(id))));
        return { notSent: message };
      }
      return await this.sendOnce(this.drafts.get(id)!, agreed);
    } finally {
      this.marked.delete(id);
      await this.drafts.release(id);
    }
  }

  /**
   * Files the draft with the account it is for (see `fileDraft`) and shows how that ended. An
   * earlier attempt that may have been filed is the person's to decide on; whatever goes wrong on
   * the way leaves the draft kept.
   */
  private async sendOnce(draft: Draft, agreed: Agreed): Promise<Sent> {
    // A draft goes with the account it was written for: this window's, or another signed in to.
    const account = await this.gateway.accountFor(draft.accountUrl);
    // Saved with its first attempt's marker, which has not gone out: its twins were looked for then.
    const marked = this.marked.delete(draft.id) && draft.unconfirmed !== undefined;
    const context: FilingContext = {
      marked,
      signedIn:
        account !== undefined ||
        withSignedInNow(
          this.gateway,
          () => true,
          () => false,
        )(),
      markers: this.drafts,
      step: (call) => withCancellableProgress(WHAT[draft.kind](), call),
      log: (message, error) => this.log.error(message, error),
    };
    try {
      // A first attempt of an intent filed or kept lately: the person says whether to file it again.
      if (account && !draft.unconfirmed) {
        const twins = await twinsOf(draft, this.drafts.all(), this.filedIntents);
        const agreedTo = twins && !twins.kept && twins.filed?.postId === agreed.fileAgainAfter;
        if (twins && !agreedTo && !(await this.confirmTwin(account, draft, twins))) {
          return { notSent: l10n.t('the person chose not to file it again.') };
        }
      }
      let filing = await fileDraft(draft, account, context);
      // Not sent after all (signed out meanwhile): the marker written with it names no attempt.
      if (marked && filing.outcome === 'refused') await this.drafts.setUnconfirmed(draft.id, undefined);
      if (filing.outcome === 'maybeFiled' && (await this.confirmResend(filing.account, draft, filing.doubt)))
        filing = await fileDraft(draft, account, { ...context, resendAnyway: true });
      return await this.show(draft, filing);
    } catch (error) {
      // What the editor's part met: the question, closing the draft's editors, removing it.
      return this.notSent(draft, error);
    }
  }

  /** Resolves with the post once it is on the service; the draft is kept otherwise. */
  private async show(draft: Draft, filing: Filing<Account>): Promise<Sent> {
    switch (filing.outcome) {
      case 'filed':
      case 'filedEarlier':
        await this.filed(draft, filing);
        return { post: filing.post, earlier: filing.outcome === 'filedEarlier' };
      case 'refused': {
        const why = refusalText(draft, filing.why);
        this.offerFix(draft, why);
        return { notSent: why };
      }
      case 'failed':
        return this.notSent(draft, filing.error);
      case 'maybeFiled':
        // Kept, as the person chose (see `confirmResend`).
        return {
          notSent: l10n.t(
            'an earlier attempt whose answer was lost may have filed it, and the person chose to keep the draft rather than send it again.',
          ),
        };
    }
  }

  private notSent(draft: Draft, error: unknown): Sent {
    this.log.error(`Could not send draft ${draft.id}`, error);
    if (isApiError(error, 'cancelled')) {
      void this.ui.info(l10n.t('Not sent. The draft is kept: run the command again or open it from "Edit Draft".'));
      return { notSent: l10n.t('the send was cancelled.'), error };
    }
    // Not awaited: the command ends now, with the draft kept; the choice comes whenever it comes.
    const again = () => this.send(draft.id);
    const edit = () => this.drafts.get(draft.id) && openDraft(draft.id);
    this.ui.failure(error, { retry: again, editDraft: edit }, (text) => l10n.t('Not sent: {0} Your draft is kept.', text));
    return { notSent: errorText(error), error };
  }

  /**
   * The draft's post is on the service, filed with `sentText` (by this attempt, or by an earlier
   * one whose answer was lost). The person is told at once, as the service's answer is in: what is
   * written after (the post remembered, the draft removed) follows. A draft edited since, in the
   * store or in its open editor, holds what the person typed after that: it is kept (no longer
   * waiting on an attempt), not closed, and the person told so besides.
   */
  private async filed(draft: Draft, filing: Extract<Filing<Account>, { post: Post }>): Promise<void> {
    const { account, post, sentText } = filing;
    const earlier = filing.outcome === 'filedEarlier';
    this.announce(account, draft, post, earlier);
    for (const intent of intentsOf({ ...draft, text: sentText ?? draft.text, unconfirmed: undefined }))
      await this.filedIntents.note(intent, post.id, filing.ref);
    await this.onFiled(draft, post, account).catch((error: unknown) => this.log.error(`After filing draft ${draft.id}`, error));
    await filing.noted;
    // The draft's file, not this window's copy: another window may have saved into it meanwhile, unheard yet.
    const current = await this.drafts.read(draft.id);
    const kept =
      (sentText !== undefined && current !== undefined && current.text !== sentText) || draftDocument(draft.id)?.isDirty === true;
    if (!kept) await closeDraftEditors(draft.id);
    // Removed only while it holds the text sent: a save in another window after that read is kept too.
    if (!kept && (await this.drafts.remove(draft.id, { ifText: sentText }))) return;
    await endAttempt(this.drafts, draft);
    const edit = l10n.t('Edit Draft');
    const open = l10n.t('Open in Browser');
    const message = earlier
      ? l10n.t(
          '#{0} was on the helpdesk already: your earlier attempt reached it, only its answer was lost. You edited the draft since, so it is kept and not sent.',
          post.id,
        )
      : l10n.t(
          '#{0} was filed with the text the draft had when you sent it. You edited the draft since, so it is kept and not sent.',
          post.id,
        );
    void this.ui.info(message, edit, open).then(async (choice) => {
      if (choice === edit) await openDraft(draft.id);
      if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(account.link('posts', post.id)));
    });
  }

  /**
   * The same intent was filed lately, or an attempt of it may be on the service: the person decides
   * whether to file it again (kept otherwise). Asked before anything goes out.
   */
  private async confirmTwin(account: Account, draft: Draft, twins: Twins): Promise<boolean> {
    const send = l10n.t('Send Anyway');
    const keep = l10n.t('Keep Draft');
    if (twins.filed) {
      const { postId, at } = twins.filed;
      const open = l10n.t('Open #{0}', postId);
      const ago = agoWords(Date.now() - at);
      const message =
        draft.kind === 'comment'
          ? l10n.t('This comment was added to #{0} {1} from VS Code (#{2}). Send it again?', draft.postId ?? '', ago, postId)
          : l10n.t('#{0} was filed with this title {1} from VS Code. File it again?', postId, ago);
      const choice = await this.ui.warn(message, { modal: true }, send, open, keep);
      if (choice === send) return true;
      if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(account.link('posts', postId)));
    } else if (twins.kept) {
      const { kept } = twins;
      const edit = l10n.t('Open Kept Draft');
      const message = kept.unconfirmed
        ? l10n.t(
            'An earlier attempt to file this, {0}, may be on the helpdesk: its answer was lost, and its draft is kept. Sending that draft looks for its post first. File this one as well?',
            agoWords(Date.now() - kept.updatedAt),
          )
        : l10n.t('A draft of this, written {0}, is kept and not sent yet. File this one as well?', agoWords(Date.now() - kept.createdAt));
      const choice = await this.ui.warn(message, { modal: true }, send, edit, keep);
      if (choice === send) return true;
      if (choice === edit) await openDraft(kept.id);
    }
    void this.ui.info(l10n.t('Not sent. The draft is kept.'));
    return false;
  }

  /** The earlier attempt may have been filed, and it cannot be told: the person decides. */
  private async confirmResend(account: Account, draft: Draft, doubt: Doubt): Promise<boolean> {
    const open = l10n.t('Open Helpdesk');
    const send = l10n.t('Send Anyway');
    const keep = l10n.t('Keep Draft');
    const what =
      draft.kind === 'comment'
        ? l10n.t('Your comment on #{0}', draft.postId ?? '')
        : `"${labelText(parseDraftDocument(draft.text).title, 80)}"`;
    const why =
      doubt === 'unsure'
        ? l10n.t("the helpdesk's list could not be searched fully enough to be sure")
        : draft.kind === 'comment'
          ? l10n.t("the helpdesk's list did not show a comment filed from VS Code with its marker, so not finding this one proves nothing")
          : draft.kind === 'bug'
            ? l10n.t(
                "the helpdesk's list did not show a bug report filed from VS Code with its marker, so not finding this one proves nothing",
              )
            : l10n.t("the helpdesk's list did not show a task filed from VS Code with its marker, so not finding this one proves nothing");
    const message = l10n.t('{0} may have been filed: the answer to your earlier attempt was lost, and {1}.', what, why);
    const choice = await this.ui.warn(message, { modal: true }, open, send, keep);
    if (choice === send) return true;
    if (choice === open)
      await vscode.env.openExternal(
        vscode.Uri.parse(draft.kind === 'comment' && draft.postId ? account.link('posts', draft.postId) : `${account.url}/app`),
      );
    void this.ui.info(l10n.t('Not sent. The draft is kept.'));
    return false;
  }

  private offerFix(draft: Draft, problem: string): void {
    const edit = l10n.t('Edit Draft');
    const signIn = l10n.t('Sign In…');
    void this.ui.warn(l10n.t('Not sent: {0} Your draft is kept.', problem), edit, signIn).then(async (choice) => {
      if (choice === edit) await openDraft(draft.id);
      if (choice === signIn) await vscode.commands.executeCommand('helpdesk.signIn');
    });
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
    const shown = withSignedInNow(
      this.gateway,
      (signedIn) => signedIn.account === account,
      () => false,
    )();
    const where = shown ? message : l10n.t('{0} (in {1})', message, account.url);
    const open = l10n.t('Open in Browser');
    const copy = l10n.t('Copy Link');
    void this.ui.info(where, open, copy).then(async (choice) => {
      if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(link));
      if (choice === copy) await vscode.env.clipboard.writeText(link);
    });
  }
}

/** Why a draft cannot be sent now: another window is sending it, and it is free again within `minutes`. */
function freeAgainText(minutes: number): string {
  return plural(minutes, {
    one: l10n.t({
      message: 'This draft is being sent from another window. If that window was closed, the draft is free again within {0} minute.',
      args: [numberText(minutes)],
      comment: 'plural: one',
    }),
    few: l10n.t({
      message: 'This draft is being sent from another window. If that window was closed, the draft is free again within {0} minutes.',
      args: [numberText(minutes)],
      comment: 'plural: few',
    }),
    many: l10n.t({
      message: 'This draft is being sent from another window. If that window was closed, the draft is free again within {0} minutes.',
      args: [numberText(minutes)],
      comment: 'plural: many',
    }),
    other: l10n.t({
      message: 'This draft is being sent from another window. If that window was closed, the draft is free again within {0} minutes.',
      args: [numberText(minutes)],
      comment: 'plural: other',
    }),
  });
}

/** How long ago, in words of the display language: "just now", "3 minutes ago", "5 hours ago", "yesterday". */
export function agoWords(ms: number): string {
  return ms < 60_000 ? l10n.t('just now') : relativeTime(-Math.floor(ms / 60_000) * 60);
}

export async function openDraft(id: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(draftUri(id));
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { preview: false });
}

/** The draft's document, while it is open. */
export function draftDocument(id: string): vscode.TextDocument | undefined {
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
    if (vscode.window.activeTextEditor?.document === open)
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await closeEditorsOf(uri);
}

async function closeEditorsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

/** Why the draft was not sent, in words. */
function refusalText(draft: Draft, why: Refusal): string {
  if (why === 'signedOut') return l10n.t('You are signed out.');
  if (why === 'accountSignedOut')
    return l10n.t('This draft is for {0}, which you are not signed in to: it waits until you are.', draft.accountUrl);
  if (why === 'emptyTitle') return l10n.t('The first line, the title, is empty.');
  return l10n.t('The comment is empty.');
}
