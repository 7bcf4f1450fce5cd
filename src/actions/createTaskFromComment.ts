import vscode = require('vscode');
import type { Post } from '../api';
import { buildBugReportContent } from '../code/bugReport';
import type { DocumentCode } from '../code/documentCode';
import { shortReference } from '../code/postReferences';
import { commentLineNow, referenceEdit, type TriggerComment } from '../code/todoComments';
import type { TodoOrigin } from '../drafts/drafts';
import type { Account } from '../account/account';
import { openTodoAt } from '../inCode/openTodo';
import type { ReferenceAccounts } from '../inCode/referenceOptions';
import type { WriteServices } from '../services';
import type { Notifier } from '../ui/notifier';
import { readSettings } from '../settings';
import { fileTask } from '../features/createTask';
import type { Delivery } from '../features/deliver';

const { l10n } = vscode;

export interface CommentTaskInput {
  document: vscode.TextDocument;
  /** The comment's line (0-based), and the document's version, when the command ran. */
  line: number;
  version: number;
  comment: TriggerComment & { line: string };
  title: string;
  /** The lines around the comment, and where they are on the remote (as Report Bug reads them). */
  code: DocumentCode;
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
  const todo: TodoOrigin = { uri: document.uri.toString(), line: input.line, lineText: comment.line, version: input.version, opened: openedId(document) };
  return fileTask(services, account, { title: input.title, content, todo }, delivery);
}

/**
 * Writes a filed task's reference into the TODO comment it came from, `TODO(HD-123): …`, as one
 * edit that one undo takes back: on its line while the document is the one open then, as it was;
 * else on the one line that still reads exactly as it did (see `commentLineNow`); otherwise
 * nowhere, with the reference shown and offered to copy.
 */
export async function writeTodoReference(ui: Notifier, account: Account, todo: TodoOrigin, post: Post, accounts: ReferenceAccounts): Promise<void> {
  const prefix = readSettings().referencePrefix;
  const reference = prefix ? shortReference(prefix, post.id) : account.link('posts', post.id);
  const uri = vscode.Uri.parse(todo.uri);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === todo.uri) ?? (await Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined));
  const at = document && !document.isClosed ? commentLineNow(todo, { opened: openedId(document), version: document.version, lineCount: document.lineCount, lineAt: (line) => document.lineAt(line).text }) : 'none';
  if (document && typeof at === 'number' && (await putReference(document, at, reference, accounts))) return;
  const copy = l10n.t('Copy Reference');
  const message =
    at === 'several'
      ? l10n.t('Task #{0} created. Its comment changed or moved meanwhile, and several lines now read like it, so its reference, {1}, was not written into any of them.', post.id, reference)
      : l10n.t('Task #{0} created. Its comment changed or moved meanwhile, so its reference, {1}, was not written into it.', post.id, reference);
  // Not awaited: the command ends now; the choice comes whenever it comes.
  void ui.info(message, copy).then(async (choice) => {
    if (choice === copy) await vscode.env.clipboard.writeText(reference);
  });
}

/**
 * A name for an open document, which it keeps until it is closed: a version means something only
 * in the document it came from. (The editor gives an open document one object until it is closed.)
 */
const openedIds = new WeakMap<vscode.TextDocument, string>();
const thisWindow = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
let named = 0;

function openedId(document: vscode.TextDocument): string {
  let id = openedIds.get(document);
  if (id === undefined) {
    id = `${thisWindow}.${++named}`;
    openedIds.set(document, id);
  }
  return id;
}

/** Puts the reference into the comment on `line`, as one edit; false when the line holds no comment without one, or the edit failed. */
async function putReference(document: vscode.TextDocument, line: number, reference: string, accounts: ReferenceAccounts): Promise<boolean> {
  const comment = openTodoAt(document, line, accounts);
  const edit = comment && referenceEdit(comment, reference);
  if (!edit) return false;
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(line, edit.start, line, edit.end), edit.newText);
  return vscode.workspace.applyEdit(change);
}
