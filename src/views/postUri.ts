import vscode = require('vscode');

export const POST_SCHEME = 'helpdesk-post';

/** The read-only document of a post: `helpdesk-post:/<id>.md`. */
export function postUri(id: number): vscode.Uri {
  return vscode.Uri.from({ scheme: POST_SCHEME, path: `/${id}.md` });
}

export function postIdOf(uri: vscode.Uri): number | undefined {
  if (uri.scheme !== POST_SCHEME) return undefined;
  const id = Number(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
