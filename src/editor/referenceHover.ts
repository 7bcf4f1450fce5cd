import vscode = require('vscode');
import { findPostReferences } from '../code/postReferences';
import { referenceOptions, type ReferenceAccounts } from './referenceOptions';

/** What a hover shows of a post, made by the rest of the extension (./postHover.ts), loaded only once the mouse is on a reference. */
export interface PostHovers {
  /** `accountUrl`: the account of an address reference (undefined: the window's). */
  describe(postId: number, accountUrl?: string): Promise<vscode.MarkdownString>;
}

/**
 * A post's facts on a reference: one request per post per few minutes at most (see PostPeeks),
 * none for text that is not a reference. Finding the reference is this module's; what the hover
 * says is asked for only when there is one.
 */
export class ReferenceHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly hovers: () => PostHovers,
    private readonly accounts: () => ReferenceAccounts,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const options = referenceOptions(undefined, this.accounts());
    if (!options) return undefined;
    const reference = findPostReferences(document.lineAt(position.line).text, options).find(
      (r) => r.start <= position.character && position.character < r.end,
    );
    if (!reference) return undefined;
    const range = new vscode.Range(position.line, reference.start, position.line, reference.end);
    const elsewhere = reference.accountUrl !== options.accountUrl ? reference.accountUrl : undefined;
    return new vscode.Hover(await this.hovers().describe(reference.postId, elsewhere), range);
  }
}
