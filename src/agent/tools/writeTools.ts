// The helpdesk's write tools for VS Code's agent: file a bug, create a task, comment on a post.
// Each asks the person first: its confirmation shows the whole text and where it goes, and
// nothing is saved or sent before the person says yes (VS Code calls `write` only then). A write
// then goes the way of every other: saved as a draft, sent once with its marker. An answer lost on
// the way leaves the draft; the same call again sends that draft, which looks for its post before
// it sends, so an agent that retries never files twice.
import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import vscode = require('vscode');
import { isApiError, isComment, type Post } from '../../api';
import type { Account } from '../../api/account';
import { buildBugReportContent } from '../../code/bugReport';
import { referenceText } from '../../code/postReferences';
import { formatDraftDocument } from '../../drafts/draftDocument';
import type { Draft, NewDraft } from '../../drafts/drafts';
import { twinsOf, type FiledIntent } from '../../drafts/filedIntents';
import { filedText } from '../../drafts/filing';
import { newDraftRef } from '../../drafts/draftRef';
import { agoWords, draftDocument, type Sent } from '../../drafts/sendDraft';
import { commentDraft } from '../../commands/commentOnTask';
import { taskDraft } from '../../commands/createTask';
import { codeAt, type DocumentCode } from '../../commands/documentCode';
import { bugDraft } from '../../commands/reportBug';
import type { Services } from '../../services';
import { readSettings } from '../../settings';
import { codeBlock, inlineCode } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import { abortOn, failureAnswer, isInput, NO_INPUT, onAccount, postIdOf, quoted, SIGN_IN } from './postTools';
import { callKey, Questions } from './questions';

export type WriteTool = 'helpdesk_fileBug' | 'helpdesk_createTask' | 'helpdesk_commentOnPost';

export interface FileInput {
  title: string;
  description?: string;
  /** A file of the workspace (relative to its folder, or absolute) whose code and permalink the post carries. */
  file?: string;
  /** 1-based lines of `file` (default: from its start; `endLine` defaults to `startLine`, or the file's end without either). */
  startLine?: number;
  endLine?: number;
  /** File it although a post with this title was filed lately (the person is asked, naming that post). */
  fileAgain?: boolean;
}

export interface CommentOnPostInput {
  /** The post's number, or a reference to it (`HD-123`, `#123`, its address). */
  post: number | string;
  text: string;
  /** Comment although this comment was added lately (the person is asked, naming it). */
  fileAgain?: boolean;
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
/** The longest path a file may be given by. */
const PATH_CHARS = 1_000;

/**
 * A write made ready, as its question shows it: a new draft to send (after a twin the person is
 * asked to file again), a kept draft to send, a post filed lately to answer with, or why not.
 */
type Composed =
  | { draft: NewDraft & { ref: string }; title: string; where: string; again?: FiledIntent }
  | { kept: Draft; ref: string; title: string; where: string }
  | { answerWith: FiledIntent; title: string; where: string }
  | { problem: string };

type Fresh = Extract<Composed, { draft: unknown }>;

const NOT_ASKED =
  'Nothing was written: VS Code did not ask the person about this write first (the helpdesk was signed out then, or the question was lost). Call the tool again, so that they are asked.';
const AMBIGUOUS =
  'Nothing was written: the person was asked about this very call more than once (in two chats, or once refused), and the questions showed different things, so it cannot be told which one they said yes to. Call the tool again, so that they are asked once.';
const EDITING =
  'Nothing was sent: the person is editing the draft of this very write in VS Code (kept from an earlier attempt). They can send it from there with "Send Draft"; do not call the tool again for it.';
const NOT_WRITTEN = `${NO_INPUT} Nothing was written.`;
/** Said under the text shown: what the marker line is for. */
const MARKER_LINE =
  'Its first line, "Sent from VS Code · hb-…", marks the post, so that a retry after a lost answer finds it instead of filing it twice.';

export function writeTools(services: Services): WriteTools {
  const { gateway, drafts, sender, log } = services;
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);
  const filedIntents = sender.filedIntents;
  // A yes sends what its question showed, and only that (the file may change in between, the
  // window may switch accounts, two chats may ask at once): see Questions.
  const questions = new Questions<Composed, Account>();
  const keyOf = (tool: WriteTool, input: WriteInput) => callKey(tool, input, FIELDS);
  /** Writes under way, by account and call: the same call made again meanwhile joins it. */
  const writing = new Map<string, Promise<string>>();

  async function compose(tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<Composed> {
    const mistyped = mistypedField(input);
    if (mistyped) return { problem: `${mistyped} Nothing was written.` };
    const made =
      tool === 'helpdesk_commentOnPost'
        ? await composeComment(input as CommentOnPostInput, signedIn, token)
        : await composeFiling(tool, input as FileInput, signedIn);
    if ('problem' in made) return made;
    return againstTwin(tool, input, made);
  }

  async function composeFiling(tool: WriteTool, input: FileInput, signedIn: Account): Promise<Fresh | { problem: string }> {
    const bug = tool === 'helpdesk_fileBug';
    if (typeof input.title === 'string' && input.title.length > TITLE_CHARS * 4)
      return { problem: `The title has ${input.title.length} characters; at most ${TITLE_CHARS}. Nothing was written.` };
    const title = oneLine(input.title);
    if (!title) return { problem: `A ${bug ? 'bug' : 'task'} needs a title: nothing was written.` };
    if (title.length > TITLE_CHARS)
      return { problem: `The title has ${title.length} characters; at most ${TITLE_CHARS}. Nothing was written.` };
    const description = typeof input.description === 'string' ? input.description.trim() : '';
    if (description.length > TEXT_CHARS)
      return {
        problem: `The description has ${description.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.`,
      };
    const code = input.file === undefined || input.file === '' ? undefined : await workspaceCode(input, services.log);
    if (typeof code === 'string') return { problem: `${code} Nothing was written.` };
    const about = code ? `, about ${inlineCode(`${code.selection.relativePath}:${lineText(code)}`)} with that code and a link to it` : '';
    const ref = newDraftRef();
    if (bug) {
      const fields: NewDraft = code
        ? bugDraft(signedIn, { ...code, title, description })
        : { kind: 'bug', text: formatDraftDocument(title, description), accountUrl: signedIn.url, target: 'bug' };
      return {
        draft: { ...fields, ref, byAgent: true },
        title: 'File a bug on the helpdesk?',
        where: `A bug report (kind ${inlineCode('error')}) in ${inlineCode(signedIn.url)}${about}`,
      };
    }
    const content = code
      ? buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines })
      : description;
    return {
      draft: { ...taskDraft(signedIn, { title, content }), ref, byAgent: true },
      title: 'Create a helpdesk task?',
      where: `A task in ${inlineCode(signedIn.url)}${about}`,
    };
  }

  async function composeComment(
    input: CommentOnPostInput,
    signedIn: Account,
    token: vscode.CancellationToken,
  ): Promise<Fresh | { problem: string }> {
    const id = postIdOf(input.post, signedIn.url, readSettings().referencePrefix);
    if (id === undefined)
      return {
        problem: `"${labelText(String(input.post).slice(0, 200), 40)}" names no post: give its number (123), or a reference such as ${reference(123)}. Nothing was written.`,
      };
    const text = typeof input.text === 'string' ? input.text.trim() : '';
    if (!text) return { problem: 'A comment needs words: nothing was written.' };
    if (text.length > TEXT_CHARS)
      return {
        problem: `The comment has ${text.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.`,
      };
    let parent: Post;
    try {
      parent = await signedIn.post(id, abortOn(token));
    } catch (error) {
      return { problem: failureAnswer(`Post ${reference(id)} could not be read, so nothing was written.`, error) };
    }
    if (isComment(parent)) {
      const of =
        typeof parent.post_id === 'number' ? ` on ${reference(parent.post_id)}; to comment there, call the tool again with that post` : '';
      return { problem: `${reference(id)} is a comment${of}. Comments are added to posts, not to comments: nothing was written.` };
    }
    return {
      draft: { ...commentDraft(signedIn, { parent, text }), ref: newDraftRef(), byAgent: true },
      title: `Comment on ${reference(id)}?`,
      where: `A comment on ${reference(id)} in ${inlineCode(signedIn.url)}, seen by everyone who sees that post`,
    };
  }

  /**
   * The same intent written lately (see twinOf): a kept draft of it is what is sent (the question
   * shows it); a post filed with it is what the agent is answered with, unless it asked to file
   * again, and then the question names that post.
   */
  async function againstTwin(tool: WriteTool, input: WriteInput, made: Fresh): Promise<Composed> {
    const now = Date.now();
    const twins = await twinsOf({ ...made.draft, id: '', createdAt: now, updatedAt: now }, drafts.all(), filedIntents);
    const { kept, filed } = twins ?? {};
    // A kept draft with its marker is what is sent: if its attempt reached the helpdesk, its post is found, not filed again.
    const keptRef = kept && (kept.unconfirmed?.ref ?? kept.ref);
    if (kept && keptRef) {
      // Its open editor would be saved and sent with it: what the person types there is theirs to send.
      if (draftDocument(kept.id)?.isDirty) return { problem: EDITING };
      const what = kept.unconfirmed
        ? 'from an earlier attempt whose answer was lost (it may be on the helpdesk: sending looks for its post first, and files nothing twice)'
        : 'from an earlier call, not sent yet';
      return { kept, ref: keptRef, title: made.title, where: `${made.where}. This sends the draft kept in VS Code ${what}, as it is now` };
    }
    if (!filed) return made;
    const named = `${reference(filed.postId)} was ${tool === 'helpdesk_commentOnPost' ? 'added as this very comment' : 'filed with this title'} ${agoWords(now - filed.at)} from VS Code`;
    if (input.fileAgain === true)
      return {
        ...made,
        again: filed,
        title: `${made.title.replace(/\?$/, '')} again?`,
        where: `${named}. Continue files another one: ${made.where}`,
      };
    return {
      answerWith: filed,
      title: `Answer with ${reference(filed.postId)}?`,
      where: `${named}. Continue tells the agent about ${reference(filed.postId)} and writes nothing new (to file another one, the agent can call again with fileAgain: true)`,
    };
  }

  /** The question: where it goes, and the title and content exactly as they are sent. */
  function questionOf(composed: Exclude<Composed, { problem: string }>): Confirmation {
    const intro = `${composed.where}.`;
    if ('answerWith' in composed) return { title: composed.title, message: `${intro} If you do not continue, nothing is written.` };
    const sent = 'kept' in composed ? filedText(composed.kept, composed.ref) : filedText(composed.draft, composed.draft.ref);
    const message = [
      `${intro} It is saved as a draft and sent once; if you do not continue, nothing is written.`,
      '',
      'Title, as sent:',
      '',
      codeBlock(sent.title),
      '',
      'Content, as sent:',
      '',
      codeBlock(sent.content),
      '',
      MARKER_LINE,
    ].join('\n');
    return { title: composed.title, message };
  }

  /** Sends what the person was shown for this call, with the account it was shown for. */
  async function writeShown(tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<string> {
    const answered = questions.answer(keyOf(tool, input), signedIn);
    if ('refused' in answered) {
      if (answered.refused === 'notAsked') return NOT_ASKED;
      if (answered.refused === 'ambiguous') return AMBIGUOUS;
      return `Nothing was written: the person was asked about this write for ${answered.asked?.account.url ?? 'another account'} as signed in then, and this window has signed in since (another account, or again). Call the tool again, so that they are asked about the account in use now.`;
    }
    const composed = answered.asked.what;
    if ('problem' in composed) return composed.problem;
    if (token.isCancellationRequested) return 'Cancelled: nothing was written.';
    if ('answerWith' in composed) {
      const { postId, at } = composed.answerWith;
      return `${reference(postId)} was filed with this intent ${agoWords(Date.now() - at)} from VS Code; the person chose to answer with it. Nothing new was written. Web page: ${signedIn.link('posts', postId)}`;
    }
    let draft: Draft;
    if ('kept' in composed) {
      const now = await drafts.read(composed.kept.id);
      if (!now)
        return 'Nothing was written: the draft the person was shown was sent or discarded in VS Code since. Call the tool again to be told which.';
      if (now.text !== composed.kept.text || (now.unconfirmed?.ref ?? now.ref) !== composed.ref)
        return 'Nothing was written: the draft the person was shown was edited since. Call the tool again, so that they are asked about it as it is now.';
      if (draftDocument(now.id)?.isDirty) return EDITING;
      draft = now;
    } else {
      draft = await drafts.create(composed.draft, { claimed: true });
    }
    try {
      return answer(
        tool,
        draft,
        await sender.sendSaying(draft.id, { fileAgainAfter: 'again' in composed ? composed.again?.postId : undefined }),
        signedIn,
      );
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
      if (sent.earlier)
        return `${reference(post.id)} was on the helpdesk already: an earlier attempt with this text reached it, only its answer was lost. Nothing was sent twice. ${page}`;
      if (tool === 'helpdesk_fileBug') return `Bug ${reference(post.id)} filed. ${page}`;
      if (tool === 'helpdesk_createTask') return `Task ${reference(post.id)} created. ${page}`;
      return `Comment ${reference(post.id)} added to ${reference(draft.postId ?? 0)}. ${page}`;
    }
    const kept = drafts.get(draft.id)
      ? 'The draft is kept in VS Code, where the person can edit or send it. Calling this tool again with the same input sends that same draft: it looks first whether an earlier attempt reached the helpdesk, so nothing is filed twice.'
      : 'No draft of it is left.';
    if (isApiError(sent.error, 'auth')) return `${SIGN_IN} Not sent. ${kept}`;
    return [`Not sent. ${kept} Why:`, quoted(sent.notSent)].join('\n');
  }

  /** What the person is asked about this call on `signedIn`, kept for the yes (see Questions). */
  async function ask(tool: WriteTool, input: WriteInput, key: string, signedIn: Account, token: vscode.CancellationToken) {
    const made = await compose(tool, input, signedIn, token);
    // Asked again while a question of this call is open, with the same text: the same marker, so both show what is sent.
    const composed =
      ('draft' in made &&
        questions.same(
          key,
          signedIn,
          (what) => 'draft' in what && what.draft.text === made.draft.text && what.again?.postId === made.again?.postId,
        )) ||
      made;
    if ('problem' in composed) {
      questions.asked(key, { what: composed, account: signedIn, shown: composed.problem });
      return undefined;
    }
    const question = questionOf(composed);
    questions.asked(key, { what: composed, account: signedIn, shown: `${question.title}\n${question.message}` });
    return question;
  }

  /** The write of this call on `signedIn`, joined by the same call made again meanwhile. */
  function writeOnce(tool: WriteTool, input: WriteInput, signedIn: Account, token: vscode.CancellationToken): Promise<string> {
    const key = `${signedIn.url}\n${keyOf(tool, input)}`;
    const under = writing.get(key);
    if (under) return under;
    const written = writeShown(tool, input, signedIn, token).finally(() => writing.delete(key));
    writing.set(key, written);
    return written;
  }

  return {
    async confirmation(tool, input, token) {
      if (!isInput(input)) return undefined;
      const key = keyOf(tool, input);
      return onAccount(
        gateway,
        ({ account }) => ask(tool, input, key, account, token),
        () => void questions.notAsked(key),
      )();
    },

    async write(tool, input, token) {
      if (!isInput(input)) return NOT_WRITTEN;
      return onAccount(
        gateway,
        ({ account }) => writeOnce(tool, input, account, token),
        () => SIGN_IN,
      )();
    },
  };
}

/** What each field of the write tools' input must be, where it is given. */
const FIELD_TYPES: Record<(typeof FIELDS)[number], readonly string[]> = {
  title: ['string'],
  description: ['string'],
  file: ['string'],
  startLine: ['number'],
  endLine: ['number'],
  post: ['number', 'string'],
  text: ['string'],
  fileAgain: ['boolean'],
};

/** A field given as something it cannot be (a list for a description), in words; a field left out or null is not given. */
function mistypedField(input: WriteInput): string | undefined {
  const fields: Partial<Record<(typeof FIELDS)[number], unknown>> = input;
  for (const field of FIELDS) {
    const value = fields[field];
    if (value === undefined || value === null) continue;
    const wanted = FIELD_TYPES[field];
    if (!wanted.includes(typeof value))
      return `${field} must be ${wanted.map((type) => (type === 'string' ? 'text' : `a ${type}`)).join(' or ')}, not ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}.`;
  }
  return undefined;
}

/** The fields a write tool reads: a call is known by these alone (anything else in its input changes nothing it does). */
const FIELDS = ['title', 'description', 'file', 'startLine', 'endLine', 'post', 'text', 'fileAgain'] as const;

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
  if (typeof file !== 'string') return 'file must be a path, as text.';
  if (file.length > PATH_CHARS) return `The file's path has ${file.length} characters; at most ${PATH_CHARS}.`;
  const uri = await workspaceFile(file);
  if (typeof uri === 'string') return uri;
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(uri);
  } catch {
    return `${labelText(String(file), 200)} cannot be read as text.`;
  }
  const count = document.lineCount;
  for (const [name, value] of [
    ['startLine', startLine],
    ['endLine', endLine],
  ] as const) {
    if (value !== undefined && !Number.isInteger(value))
      return `${name} must be a whole line number (1-based), not ${labelText(String(JSON.stringify(value)).slice(0, 100), 40)}.`;
  }
  const start = startLine ?? 1;
  const end = endLine ?? (startLine === undefined ? count : start);
  const named = vscode.workspace.asRelativePath(uri, true);
  if (start < 1 || start > count) return `Line ${start} is not in ${named}, which has ${count} lines.`;
  if (end > count) return `The end line ${end} is past the end of ${named}, which has ${count} lines.`;
  if (end < start) return `The end line ${end} comes before the start line ${start}.`;
  return codeAt(document, start - 1, end - 1, log);
}

async function workspaceFile(file: string): Promise<vscode.Uri | string> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'No folder is open in VS Code, so no file can be attached.';
  const named = labelText(file, 200);
  const path = file.trim().replace(/\\/g, '/');
  if (path.split('/').includes('..')) return `${named}: give a path inside the workspace, without "..".`;
  const candidates =
    path.startsWith('/') || /^[a-zA-Z]:\//.test(path)
      ? [vscode.Uri.file(path)]
      : folders.flatMap((folder) => {
          const relative = path.replace(/^\.\//, '');
          // `asRelativePath(…, true)` names the folder first in a workspace of several.
          const inNamed = relative.startsWith(`${folder.name}/`)
            ? [vscode.Uri.joinPath(folder.uri, relative.slice(folder.name.length + 1))]
            : [];
          return [vscode.Uri.joinPath(folder.uri, relative), ...inNamed];
        });
  for (const uri of candidates) {
    if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat || (stat.type & vscode.FileType.File) === 0) continue;
    // A link (the file, or a folder on its way) may lead out of the workspace: where it ends counts.
    if (!(await endsInWorkspace(uri, stat, folders)))
      return `${named} leads outside the workspace (through a symbolic link), so it is not read.`;
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
