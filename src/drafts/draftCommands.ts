import vscode = require('vscode');
import { draftIdOf } from './draftUri';
import type { Draft, DraftStore } from './drafts';
import { closeDraftEditors, openDraft, type DraftSender } from './sendDraft';
import { labelText } from '../text/serverText';
import type { Notifier } from '../ui/notifier';
import { plural } from '../text/plural';
import { numberText } from '../text/intl';

const { l10n } = vscode;

/** The id of the draft whose document is `uri`, or the active editor's. */
function draftIdIn(uri: vscode.Uri | undefined): string | undefined {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  return target && draftIdOf(target);
}

interface DraftServices {
  drafts: DraftStore;
  sender: DraftSender;
  ui: Notifier;
}

export async function sendDraft({ sender }: DraftServices, uri?: vscode.Uri): Promise<void> {
  const id = draftIdIn(uri);
  if (id) await sender.send(id);
}

/** Throws away the draft the document shows, edits in its editor included; no other editor is touched. */
export async function discardDraft({ drafts, ui }: DraftServices, uri?: vscode.Uri): Promise<void> {
  const id = draftIdIn(uri);
  const draft = id && drafts.get(id);
  if (!draft) return;
  const discard = l10n.t('Discard');
  const choice = await ui.warn(l10n.t('Discard this draft? It has not been sent.'), { modal: true }, discard);
  if (choice !== discard) return;
  await closeDraftEditors(draft.id);
  await drafts.remove(draft.id);
}

/**
 * After a reload: drafts the server never confirmed are offered again, to send, review or
 * discard, but for those another open window is editing or sending (its Send would file a
 * draft still being written; its Discard would throw away what that window shows). A draft left
 * out because of a window that then closes or crashes is offered once that window is gone; one
 * whose window just let it go (its editor closed, kept for later) is not.
 */
export class UnsentDraftsOffer implements vscode.Disposable {
  /** Drafts left out, and the windows that held them then. */
  private readonly waiting = new Map<string, string[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly services: DraftServices,
    /** Resolves once it is known which account this window is on, if any (see withSignedIn). */
    private readonly accountKnown: () => Promise<unknown>,
  ) {}

  /** Offers every draft left, and waits for those held elsewhere. */
  async offer(): Promise<void> {
    await this.services.drafts.refresh();
    await this.offerSome(this.services.drafts.all());
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }

  private async offerSome(candidates: readonly Draft[]): Promise<void> {
    const { drafts, sender, ui } = this.services;
    const left: Draft[] = [];
    for (const draft of candidates) {
      const holders = await drafts.holders(draft.id);
      if (holders.length > 0) this.wait(draft.id, holders);
      else left.push(draft);
    }
    if (left.length === 0) return;
    const one = left.length === 1 ? left[0] : undefined;
    const send = one ? l10n.t('Send') : l10n.t('Send All');
    const review = one ? l10n.t('Open') : l10n.t('Review…');
    const discard = one ? l10n.t('Discard') : l10n.t('Discard All');
    // A draft that still carries an attempt's marker may be on the helpdesk (its answer was not
    // seen, or the window closed before the draft was removed): Send looks for it first.
    const message = one
      ? one.unconfirmed
        ? l10n.t(
            'A helpdesk draft may have been filed already: "{0}" ({1}). Send looks for it on the helpdesk first, and files it only if it is not there.',
            draftTitle(one),
            describe(one),
          )
        : l10n.t('A helpdesk draft was not sent: "{0}" ({1}).', draftTitle(one), describe(one))
      : left.some((draft) => draft.unconfirmed)
        ? plural(left.length, {
            one: l10n.t({
              message: '{0} helpdesk draft was not sent, or may have been filed already: Send looks for it on the helpdesk first.',
              args: [numberText(left.length)],
              comment: 'plural: one',
            }),
            few: l10n.t({
              message: '{0} helpdesk drafts were not sent, or may have been filed already: Send looks for each on the helpdesk first.',
              args: [numberText(left.length)],
              comment: 'plural: few',
            }),
            many: l10n.t({
              message: '{0} helpdesk drafts were not sent, or may have been filed already: Send looks for each on the helpdesk first.',
              args: [numberText(left.length)],
              comment: 'plural: many',
            }),
            other: l10n.t({
              message: '{0} helpdesk drafts were not sent, or may have been filed already: Send looks for each on the helpdesk first.',
              args: [numberText(left.length)],
              comment: 'plural: other',
            }),
          })
        : plural(left.length, {
            one: l10n.t({ message: '{0} helpdesk draft was not sent.', args: [numberText(left.length)], comment: 'plural: one' }),
            few: l10n.t({ message: '{0} helpdesk drafts were not sent.', args: [numberText(left.length)], comment: 'plural: few' }),
            many: l10n.t({ message: '{0} helpdesk drafts were not sent.', args: [numberText(left.length)], comment: 'plural: many' }),
            other: l10n.t({ message: '{0} helpdesk drafts were not sent.', args: [numberText(left.length)], comment: 'plural: other' }),
          });
    const choice = await ui.info(message, send, review, discard);
    if (choice === send) {
      await this.accountKnown();
      // One at a time, each as its editor shows it: a failure keeps that draft and says why.
      for (const { id } of left) await sender.send(id);
    } else if (choice === review) {
      if (one) await openDraft(one.id);
      else await pickAndOpen(drafts);
    } else if (choice === discard) {
      const sure = l10n.t('Discard');
      const confirm = await ui.warn(
        plural(left.length, {
          one: l10n.t({
            message: 'Discard {0} unsent draft? It cannot be recovered.',
            args: [numberText(left.length)],
            comment: 'plural: one',
          }),
          few: l10n.t({
            message: 'Discard {0} unsent drafts? They cannot be recovered.',
            args: [numberText(left.length)],
            comment: 'plural: few',
          }),
          many: l10n.t({
            message: 'Discard {0} unsent drafts? They cannot be recovered.',
            args: [numberText(left.length)],
            comment: 'plural: many',
          }),
          other: l10n.t({
            message: 'Discard {0} unsent drafts? They cannot be recovered.',
            args: [numberText(left.length)],
            comment: 'plural: other',
          }),
        }),
        { modal: true },
        sure,
      );
      if (confirm !== sure) return;
      // Asked long ago, perhaps: a draft another window has opened or sent since is left to it.
      for (const { id } of left) if ((await drafts.read(id)) && !(await drafts.heldElsewhere(id))) await drafts.remove(id);
    }
  }

  private wait(id: string, holders: readonly string[]): void {
    this.waiting.set(id, [...new Set([...(this.waiting.get(id) ?? []), ...holders])]);
    this.timer ??= setTimeout(() => void this.recheck(), this.services.drafts.presence.goneMs);
  }

  private async recheck(): Promise<void> {
    this.timer = undefined;
    const { drafts } = this.services;
    const free: Draft[] = [];
    const waited = [...this.waiting];
    this.waiting.clear();
    for (const [id, before] of waited) {
      const draft = await drafts.read(id);
      if (!draft) continue; // sent or discarded there
      const holders = await drafts.holders(id);
      if (holders.length > 0) this.wait(id, holders);
      else if (await anyGone(drafts, before)) free.push(draft);
    }
    await this.offerSome(free);
  }
}

async function anyGone(drafts: DraftStore, windows: readonly string[]): Promise<boolean> {
  for (const window of windows) if (await drafts.presence.hasGone(window)) return true;
  return false;
}

async function pickAndOpen(drafts: DraftStore): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    drafts.all().map((d) => ({ label: draftTitle(d), description: describe(d), id: d.id })),
    { title: l10n.t('Unsent Drafts') },
  );
  if (picked) await openDraft(picked.id);
}

function draftTitle(draft: Draft): string {
  return labelText(draft.text.split('\n')[0], 60) || draft.id;
}

function describe(draft: Draft): string {
  const kind = { bug: l10n.t('bug'), task: l10n.t('task'), comment: l10n.t('comment') }[draft.kind];
  return draft.target ? `${kind} · ${draft.target}` : kind;
}
