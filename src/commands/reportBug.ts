import vscode = require('vscode');
import type { Post } from '../api';
import { reportBug as fileBug } from '../actions/reportBug';
import { suggestTitle } from '../code/bugReport';
import { selectedCode } from '../code/documentCode';
import type { Services } from '../services';
import { askText, signedInAccount } from './prompts';

const { l10n } = vscode;

/**
 * Report Bug: about the selected lines (or the cursor's line) of the active editor. Suggests a
 * title; Enter files it, the box's button opens the whole report to edit first.
 */
export async function reportBug(services: Services): Promise<Post | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void services.ui.info(l10n.t('Open a file and select the code the bug is about, then run Report Bug again.'));
    return undefined;
  }
  const account = await signedInAccount(services);
  if (!account) return undefined;
  const code = await selectedCode(editor, services.log);
  const { selection } = code;
  const lines = selection.startLine === selection.endLine ? `${selection.startLine}` : `${selection.startLine}–${selection.endLine}`;
  const answer = await askText({
    title: l10n.t('Report Bug: {0}:{1}', selection.relativePath, lines),
    prompt: l10n.t('A title for the bug. Enter files it with the code; the button opens the whole report to edit first.'),
    value: suggestTitle(selection),
    editorTooltip: l10n.t('Edit the whole report before filing it'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A bug needs a title.')),
  });
  if (!answer) return undefined;
  return fileBug(services, account, { ...code, title: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}
