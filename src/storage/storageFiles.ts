import { lstat, mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import vscode = require('vscode');

/**
 * The extension's own files, in its global storage: with Node's fs where they are on this
 * extension host's disk (a `file:` URI), with VS Code's `workspace.fs` elsewhere. `workspace.fs`
 * asks the workbench first on every call, for a local file too (MainThreadFileSystem
 * `$ensureActivation`): a round trip to the window for each step, which in a browser or remote
 * workbench crosses the connection and waits while the window paints. Report Bug made about
 * twenty of them before its POST. As `workspace.fs` does: a link is followed, its type is its
 * target's with SymbolicLink added, and errors are FileSystemErrors.
 */
export const storageFiles = {
  async stat(uri: vscode.Uri): Promise<{ type: vscode.FileType; size: number; mtime: number }> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.stat(uri);
    return local(uri, async (path) => {
      const entry = await lstat(path);
      if (!entry.isSymbolicLink()) return { type: typeOf(entry), size: entry.size, mtime: entry.mtimeMs };
      const target = await stat(path).catch(() => undefined);
      return { type: (target ? typeOf(target) : vscode.FileType.Unknown) | vscode.FileType.SymbolicLink, size: target?.size ?? 0, mtime: target?.mtimeMs ?? entry.mtimeMs };
    });
  },
  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.readFile(uri);
    return local(uri, (path) => readFile(path));
  },
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.writeFile(uri, content);
    return local(uri, (path) => writeFile(path, content));
  },
  /** A file; never a folder. */
  async delete(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.delete(uri);
    return local(uri, (path) => unlink(path));
  },
  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.readDirectory(uri);
    return local(uri, async (path) => (await readdir(path, { withFileTypes: true })).map((entry) => [entry.name, entry.isSymbolicLink() ? vscode.FileType.SymbolicLink : typeOf(entry)]));
  },
  /** With the folders above it, as `workspace.fs` does. */
  async createDirectory(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return vscode.workspace.fs.createDirectory(uri);
    return local(uri, async (path) => void (await mkdir(path, { recursive: true })));
  },
};

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
    default:
      return error;
  }
}
