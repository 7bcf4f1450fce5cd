import vscode = require('vscode');
import type { Post } from '../api';
import { buildBugReportContent } from '../code/bugReport';
import { shortReference } from '../code/postReferences';
import { referenceEdit, type TriggerComment } from '../code/todoComments';
import type { TodoOrigin } from '../drafts/drafts';
import type { Account } from '../gateway/account';
import { openTodoAt } from '../inCode/openTodo';
import type { WriteServices } from '../services';
import type { Notifier } from '../ui/notifier';
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
 * Files a task about a TODO comment (its text, the code around it, path, lines and permalink).
 * The draft remembers the comment: once the task is filed (now, or later from the draft), the
 * sender has `writeTodoReference` put the post's reference into it.
 */
export async function createTaskFromComment(services: WriteServices, account: Account, input: CommentTaskInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const { comment, code, document } = input;
  const description = `${comment.word}: ${comment.text}`.trim();
  const content = buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines });
  const todo: TodoOrigin = { uri: document.uri.toString(), line: input.line, lineText: comment.line, version: input.version, window: services.drafts.window };
  return createTask(services, account, { title: input.title, content, todo }, delivery);
}

/**
 * Writes a filed task's reference into the TODO comment it came from, `TODO(HD-123): …`, as one
 * edit that one undo takes back: on its line while the document is as it was (in the window
 * that filed it), else on the one line that still reads exactly as it did; otherwise nowhere,
 * with the reference offered to copy.
 */
export async function writeTodoReference(ui: Notifier, window: string, account: Account, todo: TodoOrigin, post: Post): Promise<void> {
  const prefix = readSettings().referencePrefix;
  const reference = prefix ? shortReference(prefix, post.id) : account.link('posts', post.id);
  const uri = vscode.Uri.parse(todo.uri);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === todo.uri) ?? (await Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined));
  const at = document && !document.isClosed ? commentLine(document, todo, window) : undefined;
  const comment = at === undefined ? undefined : openTodoAt(document!, at);
  const edit = comment && referenceEdit(comment, reference);
  if (edit && (await applyEdit(document!, at!, edit))) return;
  const copy = l10n.t('Copy Reference');
  // Not awaited: the command ends now; the choice comes whenever it comes.
  void ui.info(l10n.t('Task #{0} created. Its comment changed or moved meanwhile, so the reference was not written into it.', post.id), copy).then(async (choice) => {
    if (choice === copy) await vscode.env.clipboard.writeText(reference);
  });
}

function commentLine(document: vscode.TextDocument, todo: TodoOrigin, window: string): number | undefined {
  if (todo.window === window && document.version === todo.version) return todo.line < document.lineCount && document.lineAt(todo.line).text === todo.lineText ? todo.line : undefined;
  const same: number[] = [];
  for (let at = 0; at < document.lineCount && same.length < 2; at++) if (document.lineAt(at).text === todo.lineText) same.push(at);
  return same.length === 1 ? same[0] : undefined;
}

function applyEdit(document: vscode.TextDocument, line: number, edit: { start: number; end: number; newText: string }): Thenable<boolean> {
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(line, edit.start, line, edit.end), edit.newText);
  return vscode.workspace.applyEdit(change);
}
