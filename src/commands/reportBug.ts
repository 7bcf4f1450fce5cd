import vscode = require('vscode');
import type { Post } from '../api';
import type { Session } from '../auth/session';
import { buildBugReportContent, formatDraftDocument, suggestTitle, type CodeSelection } from '../code/bugReport';
import { locateInGit, relativeLocation } from '../code/gitLocation';
import type { DraftStore } from '../drafts/drafts';
import { openDraft, type DraftSender } from '../drafts/sendDraft';
import type { Log } from '../log';
import { readSettings } from '../settings';
import { askText, ensureSignedIn } from './prompts';
import { notify } from '../notify';

const { l10n } = vscode;

export interface ReportBugArgs {
  title: string;
  description?: string;
}

/**
 * Files a post of kind `error` about the selected lines (or the cursor's line) of the active
 * editor: path, lines, language, the code, and a permalink when the commit is on a remote.
 * With `{ title, description? }` it asks nothing.
 */
export async function reportBug(
  deps: { session: Session; drafts: DraftStore; sender: DraftSender; log: Log },
  args?: unknown,
): Promise<Post | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void notify.info(l10n.t('Open a file and select the code the bug is about, then run Report Bug again.'));
    return undefined;
  }
  if (!(await ensureSignedIn(() => !!deps.session.client))) return undefined;
  const selection = selectedLines(editor);
  const { document } = editor;
  const location = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Looking up the code on the remote…') },
    () => locateInGit(document.uri, selection.startLine, selection.endLine, document.isDirty, { onError: (e) => deps.log.error('Git lookup failed', e) }),
  );
  const maxLines = readSettings().snippetMaxLines;
  const draftFor = (title: string, description?: string) =>
    deps.drafts.create({
      kind: 'bug',
      text: formatDraftDocument(title, buildBugReportContent({ description, selection, location, maxLines })),
      accountUrl: deps.session.accountUrl!,
      target: `${selection.relativePath}:${selection.startLine}`,
    });

  if (isReportBugArgs(args)) return deps.sender.send(await draftFor(args.title, args.description));

  const lines = selection.startLine === selection.endLine ? `${selection.startLine}` : `${selection.startLine}–${selection.endLine}`;
  const answer = await askText({
    title: l10n.t('Report Bug: {0}:{1}', selection.relativePath, lines),
    prompt: l10n.t('A title for the bug. Enter files it with the code; the button opens the whole report to edit first.'),
    value: suggestTitle(selection),
    editorTooltip: l10n.t('Edit the whole report before filing it'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A bug needs a title.')),
  });
  if (!answer) return undefined;
  const draft = await draftFor(answer.value);
  if (answer.action === 'editor') {
    await openDraft(draft.id);
    void notify.info(l10n.t('The first line is the title. Add a description, then click "Send Draft" in the title bar.'));
    return undefined;
  }
  return deps.sender.send(draft);
}

/** Whole lines: a selection that ends at the start of a line does not include that line. */
function selectedLines(editor: vscode.TextEditor): CodeSelection {
  const { document, selection } = editor;
  const start = selection.start.line;
  let end = selection.end.line;
  if (!selection.isEmpty && selection.end.character === 0 && end > start) end--;
  const text = document.getText(new vscode.Range(start, 0, end, document.lineAt(end).text.length));
  return { relativePath: relativeLocation(document.uri).relativePath, startLine: start + 1, endLine: end + 1, languageId: document.languageId, text };
}

function isReportBugArgs(value: unknown): value is ReportBugArgs {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && typeof (value as ReportBugArgs).title === 'string';
}
