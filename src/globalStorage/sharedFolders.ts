import { linkSync } from 'node:fs';
import vscode = require('vscode');
import { replaceFile } from './replaceFile';
import { storageFiles } from './storageFiles';

/** The end of the name of a file being written, before it is renamed to its own (see `sharedFolder`). */
const STAGED = '.tmp';
/** A file being written for a day was left by a window that crashed. */
const STAGED_KEPT_MS = 24 * 60 * 60_000;

/** A folder of the extension's global storage that every window shares (see `sharedFolder`): the drafts', the windows', the rows'. */
export interface SharedFolder {
  names(): Promise<string[]>;
  /** The file's text and when it was last written (ms); undefined when it is not there, or is more than the folder's bound. */
  read(name: string): Promise<{ text: string; mtime: number } | undefined>;
  write(name: string, text: string): Promise<void>;
  /** Writes the file only if there is none of that name: false when there was one. */
  create(name: string, text: string): Promise<boolean>;
  remove(name: string): Promise<void>;
  /** Hears a file written or removed, by any window, by its name; undefined: any may have changed. */
  onDidChange(listener: (name: string | undefined) => void): { dispose(): void };
}

/**
 * A folder every window of this VS Code reads and writes, a file per writer or per record: no
 * window's write touches another's file. Each file is written whole or not at all (a file of its
 * own in the same folder, then renamed over it), so a reader never finds half of one. What is
 * read is bounded: a plain file (no link, no device) of at most `maxBytes`.
 */
export function sharedFolder(folder: vscode.Uri, maxBytes: number): SharedFolder {
  const file = (name: string) => vscode.Uri.joinPath(folder, name);
  // The first write waits for it; a failure shows in that write.
  const made = storageFiles.createDirectory(folder).catch(() => undefined);
  void made.then(() => forgetStaged(folder));
  /** The text written to a file of its own beside `name`: not `*.json`, so that no reader or watcher takes it for one. */
  const staged = async (name: string, text: string) => {
    await made;
    const temp = file(`.${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}${STAGED}`);
    await storageFiles.writeFile(temp, new TextEncoder().encode(text));
    return temp;
  };
  const removeQuietly = (uri: vscode.Uri) => storageFiles.delete(uri).catch(() => undefined);
  return {
    async names() {
      // Once the folder is made, and so watched (see onDidChange): nothing written after this read goes unheard.
      await made;
      try {
        return (await storageFiles.readDirectory(folder)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
      } catch {
        return []; // not made yet: nothing written
      }
    },
    async read(name) {
      try {
        const read = await storageFiles.readFile(file(name), maxBytes);
        return read && { text: new TextDecoder().decode(read.bytes), mtime: read.mtime };
      } catch {
        return undefined;
      }
    },
    async write(name, text) {
      const temp = await staged(name, text);
      try {
        await replaceFile(temp, file(name));
      } catch (error) {
        await removeQuietly(temp);
        throw error;
      }
    },
    async create(name, text) {
      const temp = await staged(name, text);
      try {
        return await createOnly(temp, file(name));
      } finally {
        await removeQuietly(temp);
      }
    },
    async remove(name) {
      await storageFiles.delete(file(name));
    },
    onDidChange(listener) {
      // VS Code watches a folder outside the workspace when asked with a RelativePattern, once the
      // folder is there; a window coming to the front reads again all the same, should a change not have been heard.
      const heard = (uri: vscode.Uri) => listener(uri.path.slice(uri.path.lastIndexOf('/') + 1));
      const disposables = [vscode.window.onDidChangeWindowState((state) => state.focused && listener(undefined))];
      let disposed = false;
      void made.then(() => {
        if (disposed) return;
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '*.json'));
        disposables.push(watcher, watcher.onDidCreate(heard), watcher.onDidChange(heard), watcher.onDidDelete(heard));
      });
      return {
        dispose: () => {
          disposed = true;
          for (const d of disposables) d.dispose();
        },
      };
    },
  };
}

/** Removes what windows that crashed mid-write left in the folder. */
async function forgetStaged(folder: vscode.Uri): Promise<void> {
  const names = await storageFiles.readDirectory(folder).catch(() => []);
  const now = Date.now();
  for (const [name] of names.filter(([n, type]) => n.endsWith(STAGED) && type === vscode.FileType.File).slice(0, 1000)) {
    const uri = vscode.Uri.joinPath(folder, name);
    const stat = await storageFiles.stat(uri).catch(() => undefined);
    if (stat && now - stat.mtime > STAGED_KEPT_MS) await storageFiles.delete(uri).catch(() => undefined);
  }
}

/** Puts `temp` at `file` unless a file is there: a hard link fails if one is, in one step (in this thread, see storageFiles.ts). False when one was. */
async function createOnly(temp: vscode.Uri, file: vscode.Uri): Promise<boolean> {
  if (temp.scheme === 'file') {
    try {
      linkSync(temp.fsPath, file.fsPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      // A file system without hard links: VS Code's way, which looks first.
    }
  }
  try {
    await vscode.workspace.fs.rename(temp, file, { overwrite: false });
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileExists') return false;
    throw error;
  }
}
