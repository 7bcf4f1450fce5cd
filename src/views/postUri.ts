import vscode = require('vscode');

export const POST_SCHEME = 'helpdesk-post';

/**
 * The read-only document of a post: `helpdesk-post:/<id>.md?account=<address>`, naming the whole
 * address of the account it is read from (two accounts may share a host), so that it stays that
 * account's post whichever account the window uses later. Without one (documents from before
 * several accounts): the window's account.
 */
export function postUri(id: number, accountUrl?: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: POST_SCHEME,
    path: `/${id}.md`,
    query: accountUrl ? new URLSearchParams({ account: accountUrl }).toString() : '',
  });
}

/**
 * The post a document shows, and the address its URI names (untrusted: any text can be a URI;
 * see `accountOf`). A URI with an authority is none of this extension's.
 */
export function postOf(uri: vscode.Uri): { id: number; accountUrl?: string } | undefined {
  if (uri.scheme !== POST_SCHEME || uri.authority) return undefined;
  const id = Number(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const accountUrl = uri.query ? new URLSearchParams(uri.query).get('account') : null;
  return accountUrl === null ? { id } : { id, accountUrl };
}

/**
 * The account of a post's document: the one its URI names if it is signed in to (compared whole,
 * address for address), the window's where it names none; undefined otherwise.
 */
export function accountOf(
  post: { accountUrl?: string },
  windowAccount: string | undefined,
  signedIn: readonly string[],
): string | undefined {
  if (post.accountUrl === undefined) return windowAccount;
  return post.accountUrl === windowAccount || signedIn.includes(post.accountUrl) ? post.accountUrl : undefined;
}

/** An account's host, to name it in a view or a tooltip. */
export function hostOf(accountUrl: string): string {
  return new URL(accountUrl).host;
}
