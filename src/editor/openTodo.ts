import vscode = require('vscode');
import { findPostReferences } from '../code/postReferences';
import { findTriggerComment, type TriggerComment } from '../code/todoComments';
import { readSettings } from '../settings';
import { referenceOptions, type ReferenceAccounts } from './referenceOptions';

/**
 * The trigger comment on a document's line that names no post yet, if the setting allows and
 * there is one. A post of any account signed in to (`accounts`) is named, as the links show it.
 */
export function openTodoAt(document: vscode.TextDocument, line: number, accounts: ReferenceAccounts): TriggerComment | undefined {
  const settings = readSettings();
  if (!settings.todoActions || line < 0 || line >= document.lineCount) return undefined;
  const options = referenceOptions({ ...settings, references: true }, accounts);
  const comment = findTriggerComment(document.lineAt(line).text, document.languageId, {
    words: settings.todoWords,
    containsReference: (text) => findPostReferences(text, options ?? {}).length > 0,
  });
  return comment && !comment.hasReference ? comment : undefined;
}
