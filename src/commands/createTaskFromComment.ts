// Create Task from Comment: the command's prompts (createTaskFromComment), the typed action they
// end in (fileTaskFromComment), and what writes the filed task's reference into the comment.
import vscode = require('vscode');
import type { Post } from '../api';
import { buildBugReportContent } from '../code/bugReport';
import { codeAt, type DocumentCode } from './documentCode';
import { shortReference } from '../code/postReferences';
import { commentLineNow, referenceEdit, type TriggerComment } from '../code/todoComments';
import { askText, signInFirst } from './prompts';
import { parseDraftDocument } from '../drafts/draftDocument';
import type { Draft, TodoOrigin } from '../drafts/drafts';
import { openDraft } from '../drafts/sendDraft';
import type { Account } from '../api/account';
import { openTodoAt } from '../editor/openTodo';
import type { ReferenceAccounts } from '../editor/referenceOptions';
import type { Log } from '../log';
import type { Services, WriteServices } from '../services';
import { readSettings } from '../settings';
import { labelText } from '../text/serverText';
import type { Notifier } from '../ui/notifier';
import { fileTask } from './createTask';
import type { Delivery } from './deliver';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { notSignedIn, type Feature } from './feature';

const { l10n } = vscode;

/** Lines of code around the comment that the task carries. */
const BEFORE = 3;
const AFTER = 6;

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

export function createTaskFromCommentFeature(services: Services) {
  return {
    commands: {
      // Signed out, the comment is looked at first: asked to sign in only once there is one to file.
      'helpdesk.createTaskFromComment': {
        signedIn: (signedIn, uri, line) => createTaskFromComment(services, signedIn, uri, line),
        signedOut: (uri, line) => createTaskFromComment(services, undefined, uri, line),
      },
    },
    /** The light bulb's command on a document's line, with this title instead of its box. */
    action: withSignedIn(
      services.gateway,
      async ({ account }, { uri, line, title }: { uri: vscode.Uri; line: number; title: string }) => {
        const input = await commentTaskAt(await vscode.workspace.openTextDocument(uri), line, services.log, services.referenceAccounts());
        if (!input) throw new Error(`No TODO comment without a reference on line ${line} of ${uri.toString()}.`);
        return fileTaskFromComment(services, account, { ...input, title });
      },
      notSignedIn,
    ),
  } satisfies Feature<unknown>;
}

/**
 * Create Task from Comment…: from the light bulb (the document and the line) or the palette (the
 * cursor's line). Suggests the comment's text as the title; Enter files it, the box's button
 * opens the whole task to edit first. While a task from the comment is on its way or waits in a
 * draft, that one is offered instead.
 */
export async function createTaskFromComment(
  services: Services,
  signedIn: SignedIn | undefined,
  uri: unknown,
  line: unknown,
): Promise<Post | undefined> {
  const editor = await editorOf(uri);
  const at = typeof line === 'number' ? line : editor?.selection.active.line;
  const comment = editor && at !== undefined ? openTodoAt(editor.document, at, services.referenceAccounts()) : undefined;
  if (!editor || at === undefined || !comment) {
    void services.ui.info(
      l10n.t(
        'Put the cursor on a comment that starts with TODO, FIXME, BUG or HACK (see the setting "helpdesk.todoActions.triggerWords"), then run Create Task from Comment again.',
      ),
    );
    return undefined;
  }
  const uriText = editor.document.uri.toString();
  const waiting = services.drafts.taskFromComment(uriText, editor.document.lineAt(at).text);
  if (waiting) return offerWaitingTask(services, waiting);
  const account = (signedIn ?? (await signInFirst(services)))?.account;
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
  return fileTaskFromComment(services, account, { ...input, title: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}

/**
 * The comment on `line` a task can be filed from, as it reads now (its line, the document's
 * version), and the lines around it with where they are on the remote; undefined without one.
 */
export async function commentTaskAt(
  document: vscode.TextDocument,
  line: number,
  log: Log,
  accounts: ReferenceAccounts,
): Promise<Omit<CommentTaskInput, 'title'> | undefined> {
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
  void ui
    .info(l10n.t('A task from this comment was not sent yet: "{0}". Its draft is kept: send it, or open it to edit it.', title), send, open)
    .then(async (choice) => {
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

/**
 * Files a task about a TODO comment (its text, the code around it, path, lines and permalink).
 * The draft remembers the comment: once the task is filed (now, or later from the draft), the
 * sender has `writeTodoReference` put the post's reference into it.
 */
export async function fileTaskFromComment(
  services: WriteServices,
  account: Account,
  input: CommentTaskInput,
  delivery: Delivery = 'send',
): Promise<Post | undefined> {
  const { comment, code, document } = input;
  const description = `${comment.word}: ${comment.text}`.trim();
  const content = buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines });
  const todo: TodoOrigin = {
    uri: document.uri.toString(),
    line: input.line,
    lineText: comment.line,
    version: input.version,
    opened: openedId(document),
  };
  return fileTask(services, account, { title: input.title, content, todo }, delivery);
}

/**
 * Writes a filed task's reference into the TODO comment it came from, `TODO(HD-123): …`, as one
 * edit that one undo takes back: on its line while the document is the one open then, as it was;
 * else on the one line that still reads exactly as it did (see `commentLineNow`); otherwise
 * nowhere, with the reference shown and offered to copy.
 */
export async function writeTodoReference(
  ui: Notifier,
  account: Account,
  todo: TodoOrigin,
  post: Post,
  accounts: ReferenceAccounts,
): Promise<void> {
  const prefix = readSettings().referencePrefix;
  const reference = prefix ? shortReference(prefix, post.id) : account.link('posts', post.id);
  const uri = vscode.Uri.parse(todo.uri);
  const document =
    vscode.workspace.textDocuments.find((d) => d.uri.toString() === todo.uri) ??
    (await Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined));
  const at =
    document && !document.isClosed
      ? commentLineNow(todo, {
          opened: openedId(document),
          version: document.version,
          lineCount: document.lineCount,
          lineAt: (line) => document.lineAt(line).text,
        })
      : 'none';
  if (document && typeof at === 'number' && (await putReference(document, at, reference, accounts))) return;
  const copy = l10n.t('Copy Reference');
  const message =
    at === 'several'
      ? l10n.t(
          'Task #{0} created. Its comment changed or moved meanwhile, and several lines now read like it, so its reference, {1}, was not written into any of them.',
          post.id,
          reference,
        )
      : l10n.t(
          'Task #{0} created. Its comment changed or moved meanwhile, so its reference, {1}, was not written into it.',
          post.id,
          reference,
        );
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
