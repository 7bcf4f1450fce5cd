import vscode = require('vscode');

/** What the windows share about an account's news, a file each (see NewsFolder). */
export type NewsFileKind = 'news' | 'lease' | 'notified' | 'seen';

const KINDS: readonly NewsFileKind[] = ['news', 'lease', 'notified', 'seen'];

/** The folder of the news files, in the extension's global storage (one folder for every window). */
export function newsFolderOf(globalStorage: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(globalStorage, 'news');
}

/** The file of one kind for an account, in the news folder. */
export function newsFileOf(folder: vscode.Uri, accountUrl: string, what: NewsFileKind): vscode.Uri {
  return vscode.Uri.joinPath(folder, `${what}.${encodeURIComponent(accountUrl).replace(/[%.]/g, '_')}.json`);
}

/**
 * Deletes an account's news files (signed out of): the next sign-in starts from a silent
 * baseline. Functions only, no state: activation calls this on every sign-out, before the rest
 * of the extension (and NewsFolder) has loaded.
 */
export async function forgetNews(globalStorage: vscode.Uri, accountUrl: string): Promise<void> {
  const folder = newsFolderOf(globalStorage);
  for (const what of KINDS) await Promise.resolve(vscode.workspace.fs.delete(newsFileOf(folder, accountUrl, what))).catch(() => undefined);
}
