import vscode = require('vscode');

export const DRAFT_SCHEME = 'helpdesk-draft';

/** The document of a draft: `helpdesk-draft:/<id>.md`. */
export function draftUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DRAFT_SCHEME, path: `/${id}.md` });
}

export function draftIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === DRAFT_SCHEME ? uri.path.replace(/^\//, '').replace(/\.md$/, '') : undefined;
}
