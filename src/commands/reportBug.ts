import vscode = require('vscode');
import type { Post } from '../api';
import { reportBug as fileBug, type BugInput } from '../actions/reportBug';
import { suggestTitle, type CodeSelection } from '../code/bugReport';
import { locateInGit, relativeLocation } from '../code/gitLocation';
import type { Log } from '../log';
import type { Services } from '../services';
import { readSettings } from '../settings';
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
  const code = await codeOf(editor, services.log);
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

/** The editor's selected lines, where they are on the remote, and how many lines a report carries. */
export function codeOf(editor: vscode.TextEditor, log: Log): Promise<Omit<BugInput, 'title' | 'description'>> {
  const { start, end } = selectedLines(editor);
  return codeAt(editor.document, start, end, log);
}

/** Lines `start` to `end` (0-based) of a document, where they are on the remote, and how many lines a report carries. */
export async function codeAt(document: vscode.TextDocument, start: number, end: number, log: Log): Promise<Omit<BugInput, 'title' | 'description'>> {
  const text = document.getText(new vscode.Range(start, 0, end, document.lineAt(end).text.length));
  const selection: CodeSelection = { relativePath: relativeLocation(document.uri), startLine: start + 1, endLine: end + 1, languageId: document.languageId, text };
  const location = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Looking up the code on the remote…') }, () =>
    locateInGit(document.uri, selection.startLine, selection.endLine, document.isDirty, { onError: (e) => log.error('Git lookup failed', e) }),
  );
  return { selection, location, maxLines: readSettings().snippetMaxLines };
}

/** Whole lines: a selection that ends at the start of a line does not include that line. */
function selectedLines(editor: vscode.TextEditor): { start: number; end: number } {
  const { selection } = editor;
  const start = selection.start.line;
  let end = selection.end.line;
  if (!selection.isEmpty && selection.end.character === 0 && end > start) end--;
  return { start, end };
}
