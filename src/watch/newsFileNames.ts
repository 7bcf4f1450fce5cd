import { createHash } from 'node:crypto';
import vscode = require('vscode');
import { storageFiles } from '../globalStorage/storageFiles';

/** What the windows share about an account's news, a file each (see NewsFolder). */
export type NewsFileKind = 'news' | 'lease' | 'notified' | 'seen';

const KINDS: readonly NewsFileKind[] = ['news', 'lease', 'notified', 'seen'];

/** The folder of the news files, in the extension's global storage (one folder for every window). */
export function newsFolderOf(globalStorage: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(globalStorage, 'news');
}

/**
 * The file of one kind for an account, in the news folder: named by a hash of the whole address,
 * so that no two accounts share a file (addresses that differ by `.` and `_`, or only by case on
 * a disk that ignores case). Lower-case hex: the same name on every disk.
 */
export function newsFileOf(folder: vscode.Uri, accountUrl: string, what: NewsFileKind): vscode.Uri {
  return vscode.Uri.joinPath(folder, `${what}.${createHash('sha256').update(accountUrl).digest('hex').slice(0, 40)}.json`);
}

/** The name earlier versions gave (`.` and `%` both `_`: two accounts could share it): deleted at sign-out, never read. */
function legacyFileOf(folder: vscode.Uri, accountUrl: string, what: NewsFileKind): vscode.Uri {
  return vscode.Uri.joinPath(folder, `${what}.${encodeURIComponent(accountUrl).replace(/[%.]/g, '_')}.json`);
}

/**
 * Deletes an account's news files (signed out of): the next sign-in starts from a silent
 * baseline. Functions only, no state: activation calls this on every sign-out, before the rest
 * of the extension (and NewsFolder) has loaded.
 */
export async function forgetNews(globalStorage: vscode.Uri, accountUrl: string): Promise<void> {
  const folder = newsFolderOf(globalStorage);
  for (const what of KINDS) {
    for (const file of [newsFileOf(folder, accountUrl, what), legacyFileOf(folder, accountUrl, what)])
      await storageFiles.delete(file).catch(() => undefined);
  }
}
