import vscode = require('vscode');
import { draftIdOf } from './draftFileSystem';
import type { DraftStore } from './drafts';
import { openDraft, type DraftSender } from './sendDraft';
import { notify } from '../notify';

/** The draft of an editor's document (the active one by default); its unsaved edits are saved first. */
async function draftOf(drafts: DraftStore, uri: vscode.Uri | undefined) {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  const id = target ? draftIdOf(target) : undefined;
  if (!target || !id) return undefined;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
  if (open?.isDirty) await open.save();
  return drafts.get(id);
}

export async function sendDraft(drafts: DraftStore, sender: DraftSender, uri?: vscode.Uri): Promise<void> {
  const draft = await draftOf(drafts, uri);
  if (draft) await sender.send(draft);
}

export async function discardDraft(drafts: DraftStore, uri?: vscode.Uri): Promise<void> {
  const draft = await draftOf(drafts, uri);
  if (!draft) return;
  const discard = vscode.l10n.t('Discard');
  const choice = await notify.warn(vscode.l10n.t('Discard this draft? It has not been sent.'), { modal: true }, discard);
  if (choice !== discard) return;
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await drafts.remove(draft.id);
}

/** After a reload: drafts that were never confirmed by the server are offered again. */
export async function offerUnsentDrafts(drafts: DraftStore): Promise<void> {
  const left = drafts.all();
  if (left.length === 0) return;
  const open = vscode.l10n.t('Open Drafts');
  const choice = await notify.info(vscode.l10n.t('{0} helpdesk draft(s) were not sent.', left.length), open);
  if (choice !== open) return;
  const picked = await vscode.window.showQuickPick(
    left.map((d) => ({ label: d.text.split('\n')[0] || d.id, description: `${d.kind}${d.target ? ` · ${d.target}` : ''}`, id: d.id })),
    { title: vscode.l10n.t('Unsent Drafts') },
  );
  if (picked) await openDraft(picked.id);
}
