import { constants } from 'node:fs';
import { lstat, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import vscode = require('vscode');
import { openOwnFile, readBounded } from './readBounded';

/**
 * The extension's own files, in its global storage: with Node's fs where they are on this
 * extension host's disk (a `file:` URI), with VS Code's `workspace.fs` elsewhere. `workspace.fs`
 * asks the workbench first on every call, for a local file too (MainThreadFileSystem
 * `$ensureActivation`): a round trip to the window for each step, which in a browser or remote
 * workbench crosses the connection and waits while the window paints. Report Bug made about
 * twenty of them before its POST. As `workspace.fs` does: a link's type is its target's with
 * SymbolicLink added; writes to one file go one after another, each flushed to the disk, and make
 * the folder where it is missing; errors are FileSystemErrors. Unlike it, a file is not read or
 * written through a link or a pipe in its place (see openOwnFile).
 */
export const storageFiles = {
  async stat(uri: vscode.Uri): Promise<{ type: vscode.FileType; size: number; mtime: number }> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.stat(uri);
    return local(uri, async (path) => {
      const entry = await lstat(path);
      if (!entry.isSymbolicLink()) return { type: typeOf(entry), size: entry.size, mtime: entry.mtimeMs };
      const target = await stat(path).catch(() => undefined);
      return { type: linkType(target), size: target?.size ?? 0, mtime: target?.mtimeMs ?? entry.mtimeMs };
    });
  },
  /**
   * The file's bytes and time; undefined when it holds more than `maxBytes` or is no regular file
   * (see readBounded.ts). Through `workspace.fs` the size is looked at first, and the bytes again.
   */
  async readFile(uri: vscode.Uri, maxBytes: number): Promise<{ bytes: Uint8Array; mtime: number } | undefined> {
    if (uri.scheme === 'file') return local(uri, (path) => readBounded(path, maxBytes));
    const info = await vscode.workspace.fs.stat(uri);
    if (info.type !== vscode.FileType.File || info.size > maxBytes) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > maxBytes ? undefined : { bytes, mtime: info.mtime };
  },
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.writeFile(uri, content);
    return local(uri, (path) => queued(path, () => writeMakingFolder(path, content)));
  },
  /** A file; never a folder. */
  async delete(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.delete(uri);
    return local(uri, (path) => unlink(path));
  },
  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.readDirectory(uri);
    return local(uri, async (path) =>
      Promise.all(
        (await readdir(path, { withFileTypes: true })).map(async (entry): Promise<[string, vscode.FileType]> => [
          entry.name,
          entry.isSymbolicLink() ? linkType(await stat(join(path, entry.name)).catch(() => undefined)) : typeOf(entry),
        ]),
      ),
    );
  },
  /** With the folders above it, as `workspace.fs` does. */
  async createDirectory(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.createDirectory(uri);
    return local(uri, async (path) => void (await mkdir(path, { recursive: true })));
  },
};

/** The write under way to each file (see `queued`). */
const writing = new Map<string, Promise<unknown>>();

/** Runs `write` once the writes to `path` before it are done: two at once would leave parts of each. */
function queued<T>(path: string, write: () => Promise<T>): Promise<T> {
  const done = (writing.get(path) ?? Promise.resolve()).then(write, write);
  const settled = done.then(undefined, () => undefined);
  writing.set(path, settled);
  void settled.then(() => writing.get(path) === settled && writing.delete(path));
  return done;
}

/** The folder is made again where it was removed meanwhile. */
async function writeMakingFolder(path: string, content: Uint8Array): Promise<void> {
  try {
    await writeFlushed(path, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    await writeFlushed(path, content);
  }
}

/**
 * Written and flushed to the disk before it is closed (a draft renamed into place after a crash
 * is whole, not empty). Opened as the extension's own files are read (see openOwnFile): a pipe
 * or a link in the file's place fails the write at once.
 */
async function writeFlushed(path: string, content: Uint8Array): Promise<void> {
  const handle = await openOwnFile(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o666);
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** A link's type: its target's (none when the target is missing), with SymbolicLink added. */
function linkType(target: { isFile(): boolean; isDirectory(): boolean } | undefined): vscode.FileType {
  return (target ? typeOf(target) : vscode.FileType.Unknown) | vscode.FileType.SymbolicLink;
}

function typeOf(entry: { isFile(): boolean; isDirectory(): boolean }): vscode.FileType {
  return entry.isFile() ? vscode.FileType.File : entry.isDirectory() ? vscode.FileType.Directory : vscode.FileType.Unknown;
}

async function local<T>(uri: vscode.Uri, op: (path: string) => Promise<T>): Promise<T> {
  try {
    return await op(uri.fsPath);
  } catch (error) {
    throw fileSystemError(error, uri);
  }
}

function fileSystemError(error: unknown, uri: vscode.Uri): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return vscode.FileSystemError.FileNotFound(uri);
    case 'EEXIST':
      return vscode.FileSystemError.FileExists(uri);
    case 'EACCES':
    case 'EPERM':
      return vscode.FileSystemError.NoPermissions(uri);
    // A link or a pipe in the file's place (see openOwnFile), or a file another holds.
    case 'ELOOP':
    case 'ENXIO':
    case 'EAGAIN':
      return vscode.FileSystemError.Unavailable(
        vscode.l10n.t(
          '{0} is not a file the extension can use now (a link, a pipe, or a file another program holds): remove it or close that program, then try again.',
          uri.fsPath,
        ),
      );
    default:
      return error;
  }
}
