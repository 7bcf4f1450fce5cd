import vscode = require('vscode');
import { isApiError, type Post } from '../api';
import type { Session } from '../auth/session';
import type { Log } from '../log';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { draftUri } from './draftUri';
import { parseDraftDocument } from '../code/bugReport';
import type { Draft, DraftStore, UnconfirmedSend } from './drafts';
import { notify } from '../notify';
import { withCancellableProgress } from '../progress';

const { l10n } = vscode;

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
    private readonly session: Session,
    private readonly store: HelpdeskStore,
    private readonly drafts: DraftStore,
    private readonly log: Log,
  ) {}

  /** Resolves with the created post, or undefined when it was not sent (the draft is kept). */
  async send(draft: Draft): Promise<Post | undefined> {
    const problem = this.problemWith(draft);
    if (problem) {
      this.offerFix(draft, problem);
      return undefined;
    }
    let markedNow = false;
    try {
      if (draft.unconfirmed) {
        const unconfirmed = draft.unconfirmed;
        const earlier = await withCancellableProgress(WHAT[draft.kind](), (signal) => this.findEarlierDelivery(draft, unconfirmed, signal));
        if (earlier === 'maybe' && !(await this.confirmResend(draft))) return undefined;
        if (earlier && earlier !== 'maybe') {
          await this.delivered(draft, earlier, true);
          return earlier;
        }
      } else {
        await this.drafts.setUnconfirmed(draft.id, this.baseline(draft));
        markedNow = true;
      }
      const post = await withCancellableProgress(WHAT[draft.kind](), (signal) => this.create(draft, signal));
      await this.delivered(draft, post, false);
      return post;
    } catch (error) {
      if (markedNow && !mayBeStored(error)) await this.drafts.setUnconfirmed(draft.id, undefined);
      this.session.noteOutcome(error);
      this.log.error(`Could not send draft ${draft.id}`, error);
      if (isApiError(error, 'cancelled')) {
        void notify.info(l10n.t('Not sent. The draft is kept: run the command again or open it from "Edit Draft".'));
        return undefined;
      }
      const message = error instanceof Error ? error.message : String(error);
      const retry = l10n.t('Retry');
      const edit = l10n.t('Edit Draft');
      const signIn = l10n.t('Sign In Again');
      const actions = isApiError(error, 'auth') ? [signIn, edit] : [retry, edit];
      // Not awaited: the command ends now, with the draft kept; the choice comes whenever it comes.
      void notify.error(l10n.t('Not sent: {0} Your draft is kept.', message), ...actions).then(async (choice) => {
        const current = this.drafts.get(draft.id);
        if (!current) return;
        if (choice === retry) await this.send(current);
        if (choice === edit) await openDraft(draft.id);
        if (choice === signIn && (await vscode.commands.executeCommand<boolean>('helpdesk.signIn'))) await this.send(current);
      });
      return undefined;
    }
  }

  private async delivered(draft: Draft, post: Post, earlier: boolean): Promise<void> {
    this.session.noteOutcome();
    await this.drafts.remove(draft.id);
    await closeEditorsOf(draftUri(draft.id));
    await this.afterCreate(draft, post, earlier);
  }

  /** What is needed later to recognize this draft on the server, should the answer be lost. */
  private baseline(draft: Draft): UnconfirmedSend {
    const known = this.store.posts.state.items;
    const parent = draft.kind === 'comment' ? known.find((p) => p.id === draft.postId) : undefined;
    return {
      newestPostId: known.length > 0 ? Math.max(...known.map((p) => p.id)) : undefined,
      parentComments: draft.kind === 'comment' ? (draft.parentComments ?? parent?.comments_cache ?? undefined) : undefined,
    };
  }

  /**
   * After an attempt whose answer never came, the post may be on the server already: a post
   * filed since then with the same title and content is it. Comments cannot be listed, so a
   * parent with more comments than before is only a "maybe".
   */
  private async findEarlierDelivery(draft: Draft, unconfirmed: UnconfirmedSend, signal: AbortSignal): Promise<Post | 'maybe' | undefined> {
    const api = this.session.client!;
    if (draft.kind === 'comment') {
      if (unconfirmed.parentComments === undefined) return 'maybe';
      const parent = await api.posts.get(draft.postId!, { signal });
      return (parent.comments_cache ?? 0) > unconfirmed.parentComments ? 'maybe' : undefined;
    }
    const { title, description } = parseDraftDocument(draft.text);
    const recent = await api.posts.listHelpdesk({ page: 1, perPage: 50, order: 'id.desc' }, { signal });
    return recent.find(
      (p) => p.title === title && sameText(p.content, description) && (unconfirmed.newestPostId === undefined || p.id > unconfirmed.newestPostId),
    );
  }

  private async confirmResend(draft: Draft): Promise<boolean> {
    const again = l10n.t('Send Again');
    const choice = await notify.warn(
      l10n.t('#{0} has a new comment since your earlier attempt, whose answer was lost: it may be yours. Send the comment again?', draft.postId ?? ''),
      { modal: true },
      again,
    );
    if (choice === again) return true;
    void notify.info(l10n.t('Not sent. The draft is kept.'));
    return false;
  }

  private problemWith(draft: Draft): string | undefined {
    const client = this.session.client;
    if (!client) return l10n.t('You are signed out.');
    if (client.accountUrl !== draft.accountUrl) return l10n.t('This draft is for {0}, and you are signed in to {1}.', draft.accountUrl, client.accountUrl);
    if (draft.kind === 'comment' ? !draft.text.trim() : !parseDraftDocument(draft.text).title) {
      return draft.kind === 'comment' ? l10n.t('The comment is empty.') : l10n.t('The first line, the title, is empty.');
    }
    return undefined;
  }

  private offerFix(draft: Draft, problem: string): void {
    const edit = l10n.t('Edit Draft');
    const signIn = l10n.t('Sign In…');
    void notify.warn(l10n.t('Not sent: {0} Your draft is kept.', problem), edit, signIn).then(async (choice) => {
      if (choice === edit) await openDraft(draft.id);
      if (choice === signIn) await vscode.commands.executeCommand('helpdesk.signIn');
    });
  }

  private create(draft: Draft, signal: AbortSignal): Promise<Post> {
    const api = this.session.client!;
    const owner = { client_id: draft.clientId, responsible_id: draft.responsibleId };
    if (draft.kind === 'comment') return api.posts.addComment(draft.postId!, { content: draft.text.trim(), ...owner }, { signal });
    const { title, description: content } = parseDraftDocument(draft.text);
    if (draft.kind === 'bug') return api.posts.reportError({ title, content }, { signal });
    return api.posts.createTask({ title, content, task_kind: 'task', ...owner }, { signal });
  }

  private async afterCreate(draft: Draft, post: Post, earlier: boolean): Promise<void> {
    const link = this.session.client?.link('posts', draft.kind === 'comment' ? (draft.postId ?? post.id) : post.id);
    if (draft.kind === 'comment') {
      const parent = this.store.posts.state.items.find((p) => p.id === draft.postId);
      if (parent) this.store.posts.upsert({ ...parent, comments_cache: (parent.comments_cache ?? 0) + 1 });
    } else {
      this.store.posts.upsert(post);
    }
    const message = earlier
      ? l10n.t('#{0} was on the helpdesk already: the earlier attempt reached it, only its answer was lost. Not sent again.', post.id)
      : draft.kind === 'bug'
        ? l10n.t('Bug #{0} filed.', post.id)
        : draft.kind === 'task'
          ? l10n.t('Task #{0} created.', post.id)
          : l10n.t('Comment added to #{0}.', draft.postId ?? '');
    const open = l10n.t('Open in Browser');
    const copy = l10n.t('Copy Link');
    void notify.info(message, open, copy).then(async (choice) => {
      if (!link) return;
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

async function closeEditorsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

/**
 * Failures after which the post may be stored all the same: no answer, a garbled one, a
 * cancel while it was on its way, or a server error other than "unavailable" (503).
 */
function mayBeStored(error: unknown): boolean {
  if (isApiError(error, 'server')) return error.status !== 503;
  return !isApiError(error) || isApiError(error, 'network') || isApiError(error, 'timeout') || isApiError(error, 'cancelled') || isApiError(error, 'badResponse');
}

function sameText(a: unknown, b: string): boolean {
  const norm = (text: string) => text.replace(/\r\n?/g, '\n').trim();
  return typeof a === 'string' ? norm(a) === norm(b) : b.trim() === '';
}
