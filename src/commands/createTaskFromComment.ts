import vscode = require('vscode');
import type { Post } from '../api';
import { createTaskFromComment as fileTask, type CommentTaskInput } from '../actions/createTaskFromComment';
import { codeAt } from '../code/documentCode';
import { parseDraftDocument } from '../drafts/draftDocument';
import type { Draft } from '../drafts/drafts';
import { openDraft } from '../drafts/sendDraft';
import { openTodoAt } from '../inCode/openTodo';
import type { ReferenceAccounts } from '../inCode/referenceOptions';
import type { Log } from '../log';
import type { Services } from '../services';
import { labelText } from '../text/serverText';
import { askText, signedInAccount } from './prompts';

const { l10n } = vscode;

/** Lines of code around the comment that the task carries. */
const BEFORE = 3;
const AFTER = 6;

/**
 * Create Task from Comment…: from the light bulb (the document and the line) or the palette (the
 * cursor's line). Suggests the comment's text as the title; Enter files it, the box's button
 * opens the whole task to edit first. While a task from the comment is on its way or waits in a
 * draft, that one is offered instead.
 */
export async function createTaskFromComment(services: Services, uri: unknown, line: unknown): Promise<Post | undefined> {
  const editor = await editorOf(uri);
  const at = typeof line === 'number' ? line : editor?.selection.active.line;
  const comment = editor && at !== undefined ? openTodoAt(editor.document, at, services.referenceAccounts()) : undefined;
  if (!editor || at === undefined || !comment) {
    void services.ui.info(l10n.t('Put the cursor on a comment that starts with TODO, FIXME, BUG or HACK (see the setting "helpdesk.todoActions.triggerWords"), then run Create Task from Comment again.'));
    return undefined;
  }
  const uriText = editor.document.uri.toString();
  const waiting = services.drafts.taskFromComment(uriText, editor.document.lineAt(at).text);
  if (waiting) return offerWaitingTask(services, waiting);
  const account = await signedInAccount(services);
  const input = account && (await commentTaskAt(editor.document, at, services.log, services.referenceAccounts()));
  if (!account || !input) return undefined;
  const { code } = input;
  const answer = await askText({
    title: l10n.t('Create Task: {0}:{1}', code.selection.relativePath, at + 1),
    prompt: l10n.t('A title for the task. Enter files it with the code around the comment, then writes its reference into the comment.'),
    value: comment.text || `${comment.word} ${code.selection.relativePath}:${at + 1}`,
    editorTooltip: l10n.t('Edit the whole task before filing it'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A task needs a title.')),
  });
  if (!answer) return undefined;
  // Another window may have filed from the comment while the box was open.
  const meanwhile = services.drafts.taskFromComment(uriText, input.comment.line);
  if (meanwhile) return offerWaitingTask(services, meanwhile);
  return fileTask(services, account, { ...input, title: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}

/**
 * The comment on `line` a task can be filed from, as it reads now (its line, the document's
 * version), and the lines around it with where they are on the remote; undefined without one.
 */
export async function commentTaskAt(document: vscode.TextDocument, line: number, log: Log, accounts: ReferenceAccounts): Promise<Omit<CommentTaskInput, 'title'> | undefined> {
  const comment = openTodoAt(document, line, accounts);
  if (!comment) return undefined;
  const { version } = document;
  const text = document.lineAt(line).text;
  const code = await codeAt(document, Math.max(0, line - BEFORE), Math.min(document.lineCount - 1, line + AFTER), log);
  return { document, line, version, comment: { ...comment, line: text }, code };
}

/** The task from this comment, on its way or waiting in its draft, offered instead of a second one. */
async function offerWaitingTask({ drafts, sender, ui }: Services, draft: Draft): Promise<undefined> {
  const title = labelText(parseDraftDocument(draft.text).title, 80);
  if (await drafts.isBeingSent(draft)) {
    void ui.info(l10n.t('A task from this comment is being created now: "{0}". It is not filed twice.', title));
    return undefined;
  }
  const send = l10n.t('Send Draft');
  const open = l10n.t('Open Draft');
  // Not awaited: the command ends now; the choice comes whenever it comes.
  void ui.info(l10n.t('A task from this comment was not sent yet: "{0}". Its draft is kept: send it, or open it to edit it.', title), send, open).then(async (choice) => {
    if (choice === send) await sender.send(draft.id);
    if (choice === open) await openDraft(draft.id);
  });
  return undefined;
}

async function editorOf(uri: unknown): Promise<vscode.TextEditor | undefined> {
  if (!(uri instanceof vscode.Uri)) return vscode.window.activeTextEditor;
  const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri.toString());
  return visible ?? vscode.window.showTextDocument(uri);
}
