import vscode = require('vscode');
import { findPostReferences } from '../code/postReferences';
import { hostOf, postUri } from '../views/postUri';
import { referenceOptions, type ReferenceAccounts } from './referenceOptions';

/** Lines past this many are not searched for references: a generated file is not read whole. */
const MAX_LINES = 20_000;

/**
 * Post references become links that open the post in the editor: an address of another account
 * signed in to opens that account's post (read with its token, see PostDocumentProvider). Nothing
 * is asked of the service.
 */
export class ReferenceLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly accounts: () => ReferenceAccounts) {}

  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    const options = referenceOptions(undefined, this.accounts());
    if (!options) return [];
    const links: vscode.DocumentLink[] = [];
    for (let line = 0; line < Math.min(document.lineCount, MAX_LINES) && !token.isCancellationRequested; line++) {
      for (const reference of findPostReferences(document.lineAt(line).text, options)) {
        const range = new vscode.Range(line, reference.start, line, reference.end);
        const elsewhere =
          reference.accountUrl !== undefined && reference.accountUrl !== options.accountUrl ? reference.accountUrl : undefined;
        // The account named in the link: the document stays that account's post, whichever the window uses later.
        const link = new vscode.DocumentLink(range, postUri(reference.postId, elsewhere ?? options.accountUrl));
        link.tooltip = elsewhere
          ? vscode.l10n.t('Open post #{0} of {1}', reference.postId, hostOf(elsewhere))
          : vscode.l10n.t('Open post #{0}', reference.postId);
        links.push(link);
      }
    }
    return links;
  }
}
