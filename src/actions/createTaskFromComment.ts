import vscode = require('vscode');
import type { Post } from '../api';
import { buildBugReportContent } from '../code/bugReport';
import { shortReference } from '../code/postReferences';
import { referenceEdit, type TriggerComment } from '../code/todoComments';
import type { Account } from '../gateway/account';
import { openTodoAt } from '../inCode/todoActions';
import type { WriteServices } from '../services';
import { readSettings } from '../settings';
import type { BugInput } from './reportBug';
import { createTask } from './createTask';
import type { Delivery } from './deliver';

const { l10n } = vscode;

export interface CommentTaskInput {
  document: vscode.TextDocument;
  /** The comment's line (0-based), and the document's version, when the command ran. */
  line: number;
  version: number;
  comment: TriggerComment & { line: string };
  title: string;
  /** The lines around the comment, and where they are on the remote (as Report Bug reads them). */
  code: Omit<BugInput, 'title' | 'description'>;
}

/**
 * Files a task about a TODO comment (its text, the code around it, path, lines and permalink),
 * then writes the new post's reference into the comment, `TODO(HD-123): …`, as one edit that
 * one undo takes back.
 */
export async function createTaskFromComment(services: WriteServices, account: Account, input: CommentTaskInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const { comment, code } = input;
  const description = `${comment.word}: ${comment.text}`.trim();
  const content = buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines });
  const post = await createTask(services, account, { title: input.title, content }, delivery);
  if (post) await writeReference(services, account, input, post);
  return post;
}

async function writeReference(services: WriteServices, account: Account, { document, line, comment, version }: CommentTaskInput, post: Post): Promise<void> {
  const prefix = readSettings().referencePrefix;
  const reference = prefix ? shortReference(prefix, post.id) : account.link('posts', post.id);
  const at = document.isClosed ? undefined : findComment(document, line, comment, version);
  const edit = at && referenceEdit(at.comment, reference);
  const applied = edit && (await applyEdit(document, at.line, edit));
  if (applied) return;
  const copy = l10n.t('Copy Reference');
  // Not awaited: the command ends now; the choice comes whenever it comes.
  void services.ui.info(l10n.t('Task #{0} created. Its comment changed or moved meanwhile, so the reference was not written into it.', post.id), copy).then(async (choice) => {
    if (choice === copy) await vscode.env.clipboard.writeText(reference);
  });
}

/**
 * The comment the task was filed from: on its line while the document is unchanged; after edits,
 * the one line that reads exactly as it did (none, or several alike, and nothing is written).
 */
function findComment(document: vscode.TextDocument, line: number, comment: TriggerComment & { line: string }, version: number): { line: number; comment: TriggerComment } | undefined {
  const found = (at: number) => {
    const again = openTodoAt(document, at);
    return again && again.text === comment.text ? { line: at, comment: again } : undefined;
  };
  if (document.version === version) return found(line);
  const before = comment.line;
  const same: number[] = [];
  for (let at = 0; at < document.lineCount && same.length < 2; at++) if (document.lineAt(at).text === before) same.push(at);
  return same.length === 1 ? found(same[0]!) : undefined;
}

function applyEdit(document: vscode.TextDocument, line: number, edit: { start: number; end: number; newText: string }): Thenable<boolean> {
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(line, edit.start, line, edit.end), edit.newText);
  return vscode.workspace.applyEdit(change);
}
