// What a new post from an agent is made of, for helpdesk_fileBug and helpdesk_createTask alike:
// a one-line title and a description, bounded, and the lines of a workspace file the input names
// with their Git lookup. Only files inside the workspace's folders: a tool never reads a file elsewhere.
import { realpath } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import vscode = require('vscode');
import { codeAt, type DocumentCode } from '../../commands/documentCode';
import type { Log } from '../../log';
import { inlineCode } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import { TEXT_CHARS, TITLE_CHARS, type WriteFields } from './write';

const { l10n } = vscode;

/** The longest path a file may be given by. */
const PATH_CHARS = 1_000;

/** A new post's parts as the agent gave them: its title, description and code, and the words that say what the code is. */
export interface NewPost {
  readonly title: string;
  readonly description: string;
  readonly code: DocumentCode | undefined;
  /** ", about `file:lines` with that code and a link to it", or nothing. */
  readonly about: string;
}

/** The parts of a new post (`what` names it in the words that refuse one without a title), or why there are none. */
export async function newPost(fields: WriteFields, what: 'bug' | 'task', log: Log): Promise<NewPost | { problem: string }> {
  if (typeof fields.title === 'string' && fields.title.length > TITLE_CHARS * 4)
    return { problem: `The title has ${fields.title.length} characters; at most ${TITLE_CHARS}. Nothing was written.` };
  const title = oneLine(fields.title);
  if (!title) return { problem: `A ${what} needs a title: nothing was written.` };
  if (title.length > TITLE_CHARS)
    return { problem: `The title has ${title.length} characters; at most ${TITLE_CHARS}. Nothing was written.` };
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (description.length > TEXT_CHARS)
    return {
      problem: `The description has ${description.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.`,
    };
  const code = fields.file === undefined || fields.file === '' ? undefined : await workspaceCode(fields, log);
  if (typeof code === 'string') return { problem: `${code} Nothing was written.` };
  const about = code
    ? l10n.t(', about {0} with that code and a link to it', inlineCode(`${code.selection.relativePath}:${lineText(code)}`))
    : '';
  return { title, description, code, about };
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
async function workspaceCode({ file, startLine, endLine }: WriteFields, log: Log): Promise<DocumentCode | string> {
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
      ? [vscode.Uri.file(path), ...(await byRealPath(path, folders))]
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
  const real = await realPath(uri.fsPath);
  if (real === undefined) return false;
  for (const folder of folders) {
    if (folder.uri.scheme !== 'file') continue;
    const root = await realPath(folder.uri.fsPath);
    if (root !== undefined && within(real, root) !== undefined) return true;
  }
  return false;
}

/**
 * An absolute path as the workspace names it, where it really is in one of its folders: a folder
 * opened through a link (~/work → /data/work) names its files by the link, and an agent may give
 * the real path. Both sides by their real paths, so that `..` or a link leads nowhere else.
 */
async function byRealPath(path: string, folders: readonly vscode.WorkspaceFolder[]): Promise<vscode.Uri[]> {
  // Absolute here (`C:/x` is not on Linux: it would be looked for below the host's working folder).
  if (!isAbsolute(path)) return [];
  const real = await realPath(path);
  if (real === undefined) return [];
  const found: vscode.Uri[] = [];
  for (const folder of folders) {
    if (folder.uri.scheme !== 'file') continue;
    const root = await realPath(folder.uri.fsPath);
    const rest = root === undefined ? undefined : within(real, root);
    if (rest !== undefined) found.push(rest ? vscode.Uri.joinPath(folder.uri, ...rest.split(sep)) : folder.uri);
  }
  return found;
}

/** The path of `real` below `root` ('' for the root itself), or undefined when it is not there. */
function within(real: string, root: string): string | undefined {
  if (real === root) return '';
  const prefix = root.endsWith(sep) ? root : root + sep;
  return real.startsWith(prefix) ? real.slice(prefix.length) : undefined;
}

/** How long a path's real path is waited for (a folder on a network share that does not answer). */
const REALPATH_MS = 2_000;

/**
 * Where a path really is, links followed, or undefined (none, or no answer in time). Nothing is
 * opened on the way (a pipe holds nothing), and the wait is bounded.
 */
async function realPath(path: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, REALPATH_MS, undefined)));
  try {
    return await Promise.race([realpath(path).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
