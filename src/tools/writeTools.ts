// The helpdesk's write tools for VS Code's agent: file a bug, create a task, comment on a post.
// Each asks the person first: its confirmation shows the whole text and where it goes, and
// nothing is saved or sent before the person says yes (VS Code calls `write` only then). A write
// then goes the way of every other: saved as a draft, sent once with its marker. An answer lost on
// the way leaves the draft; the same call again sends that draft, which looks for its post before
// it sends, so an agent that retries never files twice.
import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import vscode = require('vscode');
import { isApiError, type Post } from '../api';
import type { Account } from '../account/account';
import { buildBugReportContent } from '../code/bugReport';
import { referenceText } from '../code/postReferences';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { Draft, NewDraft } from '../drafts/drafts';
import { draftDocument, type Sent } from '../drafts/sendDraft';
import { commentDraft } from '../features/commentOnTask';
import { taskDraft } from '../features/createTask';
import { codeAt, type DocumentCode } from '../features/documentCode';
import { bugDraft } from '../features/reportBug';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { codeBlock, inlineCode } from '../text/markdown';
import { labelText } from '../text/serverText';
import { abortOn, failureAnswer, postIdOf, QUOTED, SIGN_IN, toolAccount } from './postTools';

export type WriteTool = 'helpdesk_fileBug' | 'helpdesk_createTask' | 'helpdesk_commentOnPost';

export interface FileInput {
  title: string;
  description?: string;
  /** A file of the workspace (relative to its folder, or absolute) whose code and permalink the post carries. */
  file?: string;
  /** 1-based lines of `file` (default: from its start; `endLine` defaults to `startLine`, or the file's end without either). */
  startLine?: number;
  endLine?: number;
}

export interface CommentOnPostInput {
  /** The post's number, or a reference to it (`HD-123`, `#123`, its address). */
  post: number | string;
  text: string;
}

export type WriteInput = FileInput | CommentOnPostInput;

/** What the person is asked before a write: a title, and Markdown with the whole text. */
export interface Confirmation {
  title: string;
  message: string;
}

export interface WriteTools {
  /**
   * What the person is asked before `tool` writes (nothing is saved or sent by asking); undefined
   * where there is nothing to ask, because the call can only answer why it cannot write.
   */
  confirmation(tool: WriteTool, input: WriteInput, token: vscode.CancellationToken): Promise<Confirmation | undefined>;
  /** The write, once the person said yes: its post, or why not, in words for the agent. */
  write(tool: WriteTool, input: WriteInput, token: vscode.CancellationToken): Promise<string>;
}

const TITLE_CHARS = 250;
/** The most a description or a comment holds: a person must be able to read what they agree to. */
const TEXT_CHARS = 10_000;
/** Compositions shown in a confirmation, kept for the call they are for (a refused one is never called). */
const KEPT_COMPOSITIONS = 20;

/** A write made ready: the draft it files and where it goes, in words; or why it cannot be. */
type Composed = { draft: NewDraft; where: string; title: string } | { problem: string };

/** What a confirmation showed, for the call it asked about: composed for that account. */
interface Shown {
  accountUrl: string;
  composed: Promise<Composed>;
}

const NOT_ASKED = 'Nothing was written: VS Code did not ask the person about this write first (the helpdesk was signed out then, or the question was lost). Call the tool again, so that they are asked.';
const NO_INPUT = 'The tool was called without its input (an object with the fields its schema names). Nothing was written.';

export function writeTools(services: Services): WriteTools {
  const { gateway, drafts, sender, log } = services;
  const account = toolAccount(gateway, () => services.accountNow.now());
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);
  // What the confirmation showed is what is sent, and only that (the file may change in between,
  // the window may switch accounts): the call takes the composition its question showed.
  const shown = new Map<string, Shown>();
  const keyOf = (tool: WriteTool, input: WriteInput) => `${tool}\n${JSON.stringify(input)}`;
  /** Writes under way, by account and call: the same call made again meanwhile joins it. */
  const writing = new Map<string, Promise<string>>();

  const compose = (tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<Composed> =>
    tool === 'helpdesk_commentOnPost' ? composeComment(input as CommentOnPostInput, signedIn, token) : composeFiling(tool, input as FileInput, signedIn);

  async function composeFiling(tool: WriteTool, input: FileInput, signedIn: Account): Promise<Composed> {
    const bug = tool === 'helpdesk_fileBug';
    const title = oneLine(input.title);
    if (!title) return { problem: `A ${bug ? 'bug' : 'task'} needs a title: nothing was written.` };
    if (title.length > TITLE_CHARS) return { problem: `The title has ${title.length} characters; at most ${TITLE_CHARS}. Nothing was written.` };
    const description = typeof input.description === 'string' ? input.description.trim() : '';
    if (description.length > TEXT_CHARS) return { problem: `The description has ${description.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.` };
    const code = input.file === undefined || input.file === '' ? undefined : await workspaceCode(input, services.log);
    if (typeof code === 'string') return { problem: `${code} Nothing was written.` };
    const about = code ? `, about ${inlineCode(`${code.selection.relativePath}:${lineText(code)}`)} with that code and a link to it` : '';
    if (bug) {
      const draft: NewDraft = code ? bugDraft(signedIn, { ...code, title, description }) : { kind: 'bug', text: formatDraftDocument(title, description), accountUrl: signedIn.url, target: 'bug' };
      return { draft, title: 'File a bug on the helpdesk?', where: `A bug report (kind ${inlineCode('error')}) in ${inlineCode(signedIn.url)}${about}` };
    }
    const content = code ? buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines }) : description;
    return { draft: taskDraft(signedIn, { title, content }), title: 'Create a helpdesk task?', where: `A task in ${inlineCode(signedIn.url)}${about}` };
  }

  async function composeComment(input: CommentOnPostInput, signedIn: Account, token: vscode.CancellationToken): Promise<Composed> {
    const id = postIdOf(input.post, signedIn.url, readSettings().referencePrefix);
    if (id === undefined) return { problem: `"${labelText(String(input.post), 40)}" names no post: give its number (123), or a reference such as ${reference(123)}. Nothing was written.` };
    const text = typeof input.text === 'string' ? input.text.trim() : '';
    if (!text) return { problem: 'A comment needs words: nothing was written.' };
    if (text.length > TEXT_CHARS) return { problem: `The comment has ${text.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.` };
    let parent: Post;
    try {
      parent = await signedIn.post(id, abortOn(token));
    } catch (error) {
      return { problem: failureAnswer(`Post ${reference(id)} could not be read, so nothing was written.`, error) };
    }
    return {
      draft: commentDraft(signedIn, { parent, text }),
      title: `Comment on ${reference(id)}?`,
      where: `A comment on ${reference(id)} in ${inlineCode(signedIn.url)}, seen by everyone who sees that post`,
    };
  }

  /** Composes the write a confirmation shows, and keeps it for the call it asks about. */
  function composeShown(tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<Composed> {
    const key = keyOf(tool, input);
    const composed = compose(tool, input, signedIn, token);
    shown.delete(key);
    shown.set(key, { accountUrl: signedIn.url, composed });
    if (shown.size > KEPT_COMPOSITIONS) shown.delete(shown.keys().next().value!);
    return composed;
  }

  /** Sends what the person was shown for this call, with the account it was shown for. */
  async function writeShown(tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<string> {
    const key = keyOf(tool, input);
    const asked = shown.get(key);
    shown.delete(key);
    if (!asked) return NOT_ASKED;
    if (asked.accountUrl !== signedIn.url) {
      return `Nothing was written: the person was asked about this write for ${asked.accountUrl}, and this window has used ${signedIn.url} since. Call the tool again, so that they are asked about the account in use now.`;
    }
    const composed = await asked.composed;
    if ('problem' in composed) return composed.problem;
    if (token.isCancellationRequested) return 'Cancelled: nothing was written.';
    // The same write again (an agent retrying after a lost answer) sends the draft kept from the
    // first: the sender finds the post that attempt may have filed before it sends anything.
    const kept = drafts.all().find((draft) => sameWrite(draft, composed.draft));
    // Its open editor would be saved and sent with it: what the person types there is theirs to send.
    if (kept && draftDocument(kept.id)?.isDirty) return 'Nothing was sent: the person is editing the draft of this very write in VS Code (kept from an earlier attempt). They can send it from there with "Send Draft"; do not call the tool again for it.';
    const draft = kept ?? (await drafts.create(composed.draft, { claimed: true }));
    try {
      return answer(tool, draft, await sender.sendSaying(draft.id), signedIn);
    } catch (error) {
      log.error(`The ${tool} tool could not send draft ${draft.id}`, error);
      return failureAnswer('Not sent; the draft is kept in VS Code.', error);
    }
  }

  /** The answer to the agent once the sender is done. */
  function answer(tool: WriteTool, draft: Draft, sent: Sent, signedIn: Account): string {
    if ('post' in sent) {
      const { post } = sent;
      const page = `Web page: ${signedIn.link('posts', draft.postId ?? post.id)}`;
      if (sent.earlier) return `${reference(post.id)} was on the helpdesk already: an earlier attempt with this text reached it, only its answer was lost. Nothing was sent twice. ${page}`;
      if (tool === 'helpdesk_fileBug') return `Bug ${reference(post.id)} filed. ${page}`;
      if (tool === 'helpdesk_createTask') return `Task ${reference(post.id)} created. ${page}`;
      return `Comment ${reference(post.id)} added to ${reference(draft.postId ?? 0)}. ${page}`;
    }
    const kept = drafts.get(draft.id)
      ? 'The draft is kept in VS Code, where the person can edit or send it. Calling this tool again with the same input sends that same draft: it looks first whether an earlier attempt reached the helpdesk, so nothing is filed twice.'
      : 'No draft of it is left.';
    if (isApiError(sent.error, 'auth')) return `${SIGN_IN} Not sent. ${kept}`;
    return [`Not sent. ${kept} Why:`, QUOTED, codeBlock(sent.notSent)].join('\n');
  }

  return {
    async confirmation(tool, input, token) {
      if (!isInput(input)) return undefined;
      const signedIn = await account();
      if (typeof signedIn === 'string') return undefined;
      const composed = await composeShown(tool, input, signedIn, token);
      if ('problem' in composed) return undefined;
      const message = [`${composed.where}. It is saved as a draft and sent once; if you do not continue, nothing is written.`, '', 'The whole text (its first line is the title):', '', codeBlock(composed.draft.text)].join('\n');
      return { title: composed.title, message };
    },

    async write(tool, input, token) {
      if (!isInput(input)) return NO_INPUT;
      const signedIn = await account();
      if (typeof signedIn === 'string') return SIGN_IN;
      const key = `${signedIn.url}\n${keyOf(tool, input)}`;
      const under = writing.get(key);
      if (under) return under;
      const written = writeShown(tool, input, signedIn, token).finally(() => writing.delete(key));
      writing.set(key, written);
      return written;
    },
  };
}

/** A draft that files the same thing: same kind, account, post, client, responsible person and text (not one a TODO comment made). */
function sameWrite(draft: Draft, fields: NewDraft): boolean {
  return (
    draft.kind === fields.kind &&
    draft.accountUrl === fields.accountUrl &&
    draft.postId === fields.postId &&
    (draft.clientId ?? null) === (fields.clientId ?? null) &&
    (draft.responsibleId ?? null) === (fields.responsibleId ?? null) &&
    draft.text === fields.text &&
    !draft.todo
  );
}

function isInput(input: unknown): input is WriteInput {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

function oneLine(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

function lineText({ selection }: DocumentCode): string {
  return selection.startLine === selection.endLine ? `${selection.startLine}` : `${selection.startLine}-${selection.endLine}`;
}

/**
 * The lines of a workspace file the input names, with their Git lookup; or why there are none.
 * Only files inside the workspace's folders: the tool never reads a file elsewhere.
 */
async function workspaceCode({ file, startLine, endLine }: FileInput, log: Services['log']): Promise<DocumentCode | string> {
  const uri = await workspaceFile(String(file));
  if (typeof uri === 'string') return uri;
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(uri);
  } catch {
    return `${labelText(String(file), 200)} cannot be read as text.`;
  }
  const count = document.lineCount;
  for (const [name, value] of [['startLine', startLine], ['endLine', endLine]] as const) {
    if (value !== undefined && !Number.isInteger(value)) return `${name} must be a whole line number (1-based), not ${labelText(JSON.stringify(value), 40)}.`;
  }
  const start = startLine ?? 1;
  const end = Math.min(count, endLine ?? (startLine === undefined ? count : start));
  if (start < 1 || start > count) return `Line ${start} is not in ${vscode.workspace.asRelativePath(uri, true)}, which has ${count} lines.`;
  if (end < start) return `The end line ${end} comes before the start line ${start}.`;
  return codeAt(document, start - 1, end - 1, log);
}

async function workspaceFile(file: string): Promise<vscode.Uri | string> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'No folder is open in VS Code, so no file can be attached.';
  const named = labelText(file, 200);
  const path = file.trim().replace(/\\/g, '/');
  if (path.split('/').includes('..')) return `${named}: give a path inside the workspace, without "..".`;
  const candidates = path.startsWith('/') || /^[a-zA-Z]:\//.test(path)
    ? [vscode.Uri.file(path)]
    : folders.flatMap((folder) => {
        const relative = path.replace(/^\.\//, '');
        // `asRelativePath(…, true)` names the folder first in a workspace of several.
        const inNamed = relative.startsWith(`${folder.name}/`) ? [vscode.Uri.joinPath(folder.uri, relative.slice(folder.name.length + 1))] : [];
        return [vscode.Uri.joinPath(folder.uri, relative), ...inNamed];
      });
  for (const uri of candidates) {
    if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat || (stat.type & vscode.FileType.File) === 0) continue;
    // A link (the file, or a folder on its way) may lead out of the workspace: where it ends counts.
    if (!(await endsInWorkspace(uri, stat, folders))) return `${named} leads outside the workspace (through a symbolic link), so it is not read.`;
    return uri;
  }
  return `${named} is not a file of this workspace.`;
}

async function endsInWorkspace(uri: vscode.Uri, stat: vscode.FileStat, folders: readonly vscode.WorkspaceFolder[]): Promise<boolean> {
  if (uri.scheme !== 'file') return (stat.type & vscode.FileType.SymbolicLink) === 0;
  const real = await realpath(uri.fsPath).catch(() => undefined);
  if (real === undefined) return false;
  for (const folder of folders) {
    if (folder.uri.scheme !== 'file') continue;
    const root = await realpath(folder.uri.fsPath).catch(() => undefined);
    if (root !== undefined && (real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) return true;
  }
  return false;
}
