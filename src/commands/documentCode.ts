import vscode = require('vscode');
import type { Log } from '../log';
import { readSettings } from '../settings';
import type { CodeLocation, CodeSelection } from '../code/bugReport';
import { locateInGit, relativeLocation } from '../code/gitLocation';

const { l10n } = vscode;

/** Code a post carries: lines of a document, where they are on the remote, and how many lines it shows. */
export interface DocumentCode {
  selection: CodeSelection;
  /** The permalink, or why there is none. */
  location: CodeLocation;
  /** The most lines of code to include. */
  maxLines: number;
}

/**
 * The editor's selected lines (whole lines: a selection that ends at the start of a line leaves
 * that line out) now, and the code with its Git lookup, started: it runs while the person is
 * asked for a title.
 */
export function selectedCode(editor: vscode.TextEditor, log: Log): { selection: CodeSelection; code: Promise<DocumentCode> } {
  const lines = selectedLines(editor);
  return { selection: lines, code: lookUpCode(editor.document, lines, log) };
}

/** The editor's selected lines, whole (see `selectedCode`), with no lookup. */
export function selectedLines(editor: vscode.TextEditor): CodeSelection {
  const { selection } = editor;
  const start = selection.start.line;
  let end = selection.end.line;
  if (!selection.isEmpty && selection.end.character === 0 && end > start) end--;
  return linesOf(editor.document, start, end);
}

/** Lines `start` to `end` (0-based) of a document, looked up in Git with the window's progress. */
export function codeAt(document: vscode.TextDocument, start: number, end: number, log: Log): Promise<DocumentCode> {
  return lookUpCode(document, linesOf(document, start, end), log);
}

function linesOf(document: vscode.TextDocument, start: number, end: number): CodeSelection {
  const text = document.getText(new vscode.Range(start, 0, end, document.lineAt(end).text.length));
  return { relativePath: relativeLocation(document.uri), startLine: start + 1, endLine: end + 1, languageId: document.languageId, text };
}

/** The lines of `selection` in `document`, looked up in Git with the window's progress. */
export async function lookUpCode(document: vscode.TextDocument, selection: CodeSelection, log: Log): Promise<DocumentCode> {
  const location = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Looking up the code on the remote…') },
    () =>
      locateInGit(document.uri, selection.startLine, selection.endLine, document.isDirty, {
        onError: (e) => log.error('Git lookup failed', e),
        // A dirty or untitled document is answered "unsaved" before its text would be read.
        text: document.isDirty || document.isUntitled ? undefined : document.getText(),
      }),
  );
  return { selection, location, maxLines: readSettings().snippetMaxLines };
}
