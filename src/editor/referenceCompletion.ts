import vscode = require('vscode');
import { isComment, type Post } from '../api/types';
import { shortReference, typedReference } from '../code/postReferences';
import { webLink } from '../api/address';
import { readSettings } from '../settings';
import { labelText } from '../text/serverText';
import { referenceOptions } from './referenceOptions';

/** The Source Control input's document (the commit message box); completion is offered there only. */
export const SCM_INPUT_SCHEME = 'vscode-scm';
const MOST = 100;

/** What completion needs: the loaded posts, newest first, and a way to start loading them. */
export interface LoadedPosts {
  posts(): readonly Post[];
  /** The account they are of: this window's. */
  accountUrl(): string | undefined;
  /** Starts the first page if nothing was loaded yet; completion does not wait for it. */
  startLoading(): void;
}

/**
 * In the commit message box, after the reference prefix (or `#` when none is set, which puts in
 * the post's address): the loaded posts as references. It never asks the service while a person types: an empty list starts
 * the first page and says the list is incomplete, so the next key asks again.
 */
export class ReferenceCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly loaded: () => LoadedPosts) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionList | undefined {
    if (document.uri.scheme !== SCM_INPUT_SCHEME) return undefined;
    const settings = readSettings();
    if (!settings.references) return undefined;
    // Without a prefix, `#` asks, and the post's address (a reference everywhere) is what goes in:
    // a bare `#12` would name the repository's issue 12 on most Git hosts.
    const prefix = settings.referencePrefix || '#';
    const typed = typedReference(document.lineAt(position.line).text, position.character, prefix);
    if (typed === undefined) return undefined;
    // Only now is the rest of the extension loaded: a reference is being typed.
    const source = this.loaded();
    const options = referenceOptions(settings, { window: source.accountUrl(), all: [] });
    if (!options) return undefined;
    const insert = (id: number) =>
      settings.referencePrefix ? shortReference(prefix, id) : options.accountUrl ? webLink(options.accountUrl, 'posts', id) : undefined;
    const posts = source.posts().filter((post) => !isComment(post));
    if (posts.length === 0) {
      source.startLoading();
      return new vscode.CompletionList([], true);
    }
    const range = new vscode.Range(position.line, position.character - typed.length, position.line, position.character);
    if (insert(0) === undefined) return undefined;
    const items = posts.slice(0, MOST).map((post, index) => {
      const reference = shortReference(prefix, post.id);
      const title = labelText(post.title, 80);
      const item = new vscode.CompletionItem({ label: reference, description: title }, vscode.CompletionItemKind.Reference);
      item.insertText = insert(post.id);
      item.range = range;
      item.filterText = `${reference} ${title}`;
      item.sortText = String(index).padStart(4, '0');
      return item;
    });
    return new vscode.CompletionList(items, false);
  }
}
