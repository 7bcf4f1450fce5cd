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

/** How far the comment is looked for when the lines moved while the task was filed. */
const MOVED_LINES = 50;

export interface CommentTaskInput {
  document: vscode.TextDocument;
  /** The comment's line (0-based) when the command ran. */
  line: number;
  comment: TriggerComment;
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

async function writeReference(services: WriteServices, account: Account, { document, line, comment }: CommentTaskInput, post: Post): Promise<void> {
  const prefix = readSettings().referencePrefix;
  const reference = prefix ? shortReference(prefix, post.id) : account.link('posts', post.id);
  const at = findComment(document, line, comment.text);
  const edit = at && referenceEdit(at.comment, reference);
  const applied = edit && !document.isClosed && (await applyEdit(document, at.line, edit));
  if (applied) return;
  const copy = l10n.t('Copy Reference');
  const choice = await services.ui.info(l10n.t('Task #{0} created. Its comment changed meanwhile, so the reference was not written into it.', post.id), copy);
  if (choice === copy) await vscode.env.clipboard.writeText(reference);
}

/** The same comment: on its line, or, if lines moved meanwhile, the nearest line with its text. */
function findComment(document: vscode.TextDocument, line: number, text: string): { line: number; comment: TriggerComment } | undefined {
  for (let distance = 0; distance <= MOVED_LINES; distance++) {
    for (const candidate of distance === 0 ? [line] : [line - distance, line + distance]) {
      const comment = openTodoAt(document, candidate);
      if (comment && comment.text === text) return { line: candidate, comment };
    }
  }
  return undefined;
}

function applyEdit(document: vscode.TextDocument, line: number, edit: { start: number; end: number; newText: string }): Thenable<boolean> {
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(line, edit.start, line, edit.end), edit.newText);
  return vscode.workspace.applyEdit(change);
}
