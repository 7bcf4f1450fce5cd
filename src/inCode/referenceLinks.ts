import vscode = require('vscode');
import { findPostReferences } from '../code/postReferences';
import { postUri } from '../views/postUri';
import { referenceOptions } from './referenceOptions';

/** Lines past this many are not searched for references: a generated file is not read whole. */
const MAX_LINES = 20_000;

/** Post references become links that open the post in the editor. Nothing is asked of the service. */
export class ReferenceLinkProvider implements vscode.DocumentLinkProvider {
  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    const options = referenceOptions();
    if (!options) return [];
    const links: vscode.DocumentLink[] = [];
    for (let line = 0; line < Math.min(document.lineCount, MAX_LINES) && !token.isCancellationRequested; line++) {
      for (const reference of findPostReferences(document.lineAt(line).text, options)) {
        const link = new vscode.DocumentLink(new vscode.Range(line, reference.start, line, reference.end), postUri(reference.postId));
        link.tooltip = vscode.l10n.t('Open post #{0}', reference.postId);
        links.push(link);
      }
    }
    return links;
  }
}
