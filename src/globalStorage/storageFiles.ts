import { close, closeSync, constants, fdatasync, lstatSync, mkdirSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import vscode = require('vscode');
import { openOwnFileNow, readBoundedNow } from './readBounded';

/**
 * The extension's own files, in its global storage: with Node's fs where they are on this
 * extension host's disk (a `file:` URI), with VS Code's `workspace.fs` elsewhere. `workspace.fs`
 * asks the workbench first on every call, for a local file too (MainThreadFileSystem
 * `$ensureActivation`): a round trip to the window for each step, which in a browser or remote
 * workbench crosses the connection and waits while the window paints. Report Bug made about
 * twenty of them before its POST. As `workspace.fs` does: a link's type is its target's with
 * SymbolicLink added; a write makes the folder where it is missing; errors are FileSystemErrors.
 * Unlike it, a file is not read or written through a link or a pipe in its place (see openOwnFile).
 *
 * A local step is made in this thread, at once (Node's synchronous calls). Each asynchronous fs
 * call is a hop to libuv's thread pool and back: microseconds of work, but on a busy machine of
 * two CPUs each hop waits for a scheduler slice, and Report Bug's steps to its "filed" made dozens
 * in a row (a third of a second on such a machine). These files are small and on this disk, and
 * a pipe in a file's place is not waited on (O_NONBLOCK), so no step can hold the thread. One
 * write is whole before the next begins, so writes to one file never interleave (no queue). The
 * flush to the disk (fdatasync) is started, not waited for: the person waits for none of it.
 */
export const storageFiles = {
  async stat(uri: vscode.Uri): Promise<{ type: vscode.FileType; size: number; mtime: number }> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.stat(uri);
    return local(uri, (path) => {
      const entry = lstatSync(path);
      if (!entry.isSymbolicLink()) return { type: typeOf(entry), size: entry.size, mtime: entry.mtimeMs };
      const target = statIfAny(path);
      return { type: linkType(target), size: target?.size ?? 0, mtime: target?.mtimeMs ?? entry.mtimeMs };
    });
  },
  /**
   * The file's bytes and time; undefined when it holds more than `maxBytes` or is no regular file
   * (see readBounded.ts). Through `workspace.fs` the size is looked at first, and the bytes again.
   */
  async readFile(uri: vscode.Uri, maxBytes: number): Promise<{ bytes: Uint8Array; mtime: number } | undefined> {
    if (uri.scheme === 'file') return local(uri, (path) => readBoundedNow(path, maxBytes));
    const info = await vscode.workspace.fs.stat(uri);
    if (info.type !== vscode.FileType.File || info.size > maxBytes) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > maxBytes ? undefined : { bytes, mtime: info.mtime };
  },
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.writeFile(uri, content);
    return local(uri, (path) => writeMakingFolder(path, content));
  },
  /** A file; never a folder. */
  async delete(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.delete(uri);
    return local(uri, (path) => unlinkSync(path));
  },
  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.readDirectory(uri);
    return local(uri, (path) =>
      readdirSync(path, { withFileTypes: true }).map((entry): [string, vscode.FileType] => [
        entry.name,
        entry.isSymbolicLink() ? linkType(statIfAny(join(path, entry.name))) : typeOf(entry),
      ]),
    );
  },
  /** With the folders above it, as `workspace.fs` does. */
  async createDirectory(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.createDirectory(uri);
    return local(uri, (path) => void mkdirSync(path, { recursive: true }));
  },
};

function statIfAny(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The folder is made again where it was removed meanwhile. */
function writeMakingFolder(path: string, content: Uint8Array): void {
  try {
    writeWhole(path, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    writeWhole(path, content);
  }
}

/**
 * Written whole, then flushed to the disk before it is closed, in the background (a draft renamed
 * into place after a crash is whole, not empty, where the flush was done). Opened as the
 * extension's own files are read (see openOwnFile): a pipe or a link in the file's place fails
 * the write at once.
 */
function writeWhole(path: string, content: Uint8Array): void {
  const fd = openOwnFileNow(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o666);
  try {
    for (let written = 0; written < content.byteLength;) written += writeSync(fd, content, written, content.byteLength - written);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  fdatasync(fd, () => close(fd, () => undefined));
}

/** A link's type: its target's (none when the target is missing), with SymbolicLink added. */
function linkType(target: { isFile(): boolean; isDirectory(): boolean } | undefined): vscode.FileType {
  return (target ? typeOf(target) : vscode.FileType.Unknown) | vscode.FileType.SymbolicLink;
}

function typeOf(entry: { isFile(): boolean; isDirectory(): boolean }): vscode.FileType {
  return entry.isFile() ? vscode.FileType.File : entry.isDirectory() ? vscode.FileType.Directory : vscode.FileType.Unknown;
}

/** `op`'s result, its error a FileSystemError (a rejection of the caller's promise). */
function local<T>(uri: vscode.Uri, op: (path: string) => T): T {
  try {
    return op(uri.fsPath);
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
