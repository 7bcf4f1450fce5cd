import vscode = require('vscode');

export const POST_SCHEME = 'helpdesk-post';

/**
 * The read-only document of a post: `helpdesk-post://<host>/<id>.md`, the host of the account it
 * is read from, so that it stays that account's post whichever account the window uses later.
 * Without a host (documents from before several accounts): the window's account.
 */
export function postUri(id: number, accountUrl?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: POST_SCHEME, authority: accountUrl ? hostOf(accountUrl) : '', path: `/${id}.md` });
}

export function hostOf(accountUrl: string): string {
  return new URL(accountUrl).host;
}

/** The post a document shows, and the host of its account when it names one. */
export function postOf(uri: vscode.Uri): { id: number; accountHost?: string } | undefined {
  if (uri.scheme !== POST_SCHEME) return undefined;
  const id = Number(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  return uri.authority ? { id, accountHost: uri.authority } : { id };
}

/** Of the accounts signed in to, the one at `host` (this window's first); undefined when none is. */
export function accountAt(host: string, windowAccount: string | undefined, signedIn: readonly string[]): string | undefined {
  return [windowAccount, ...signedIn].find((url) => url !== undefined && hostOf(url) === host);
}
