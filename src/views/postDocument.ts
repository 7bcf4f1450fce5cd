import vscode = require('vscode');
import type { Client, Post } from '../api';
import type { Account } from '../api/account';
import type { Gateway } from '../accounts/gateway';
import { withSignedIn, withSignedInNow, type SignedIn } from '../accounts/signedIn';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { codeBlock, linklessMarkdown } from '../text/markdown';
import { assigneeText, clientText, kindText, postTitle, stateText, statusText, timeText } from '../text/postFacts';
import { numberText } from '../text/intl';
import { contentText } from '../text/contentText';
import { labelText } from '../text/serverText';
import { errorText } from '../ui/errorText';
import { abortSignalOf } from '../ui/progress';
import { readClientContext, storeSources, type ClientContext } from '../store/clientContext';
import { clientSection } from './clientContextText';
import { accountOf, postOf, postUri } from './postUri';

const { l10n } = vscode;

/** How many documents' posts are kept as shown (see `shownIn`). */
const SHOWN_KEPT = 50;

/**
 * A post as a read-only Markdown document, loaded fresh from the service when it opens and when
 * it is opened again. Server text is untrusted: it goes into a fenced block, so not even a
 * Markdown preview renders its HTML, links or images.
 */
export class PostDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly gateway: Gateway) {}

  /** Resolvers of `open` calls waiting for the next content of a post's document, by URI. */
  private readonly waiting = new Map<string, ((text: string) => void)[]>();
  /** Records this extension's writes were answered with, for the open documents that show them (by URI): shown without reading again. */
  private readonly answered = new Map<string, Post>();

  /** What each document showed last (by URI; the last `SHOWN_KEPT`): what the person saw, for an action taken from it. */
  private readonly shown = new Map<string, Post>();

  /** The post a document showed last; undefined when it showed none (or long ago). */
  shownIn(uri: vscode.Uri): Post | undefined {
    return this.shown.get(uri.toString());
  }

  /** A post of this account as a write of this extension was answered: its open documents show it. */
  showUpdated(accountUrl: string, post: Post): void {
    const windowUrl = withSignedInNow(
      this.gateway,
      ({ url }) => url,
      () => undefined,
    )();
    for (const document of vscode.workspace.textDocuments) {
      const shown = postOf(document.uri);
      if (shown?.id !== post.id || (shown.accountUrl ?? windowUrl) !== accountUrl) continue;
      // Bounded by the documents open: each is taken by the next content it asks for.
      this.answered.set(document.uri.toString(), post);
      this.changed.fire(document.uri);
    }
  }

  /** The documents whose client part is being read, or was read, by URI: see `withClient`. */
  private readonly clientParts = new Map<string, ClientPart>();

  /**
   * Opens post `id` of an account (the window's when none is named) in the editor, read from the
   * service now: a document VS Code still holds (open, or closed not long ago) is read again, and
   * shown once it holds the new text.
   */
  async open(id: number, accountUrl?: string): Promise<void> {
    const windowUrl = withSignedIn(
      this.gateway,
      ({ url }) => url,
      () => undefined,
    );
    const uri = postUri(id, accountUrl ?? (await windowUrl()));
    const content = new Promise<string>((resolve) =>
      this.waiting.set(uri.toString(), [...(this.waiting.get(uri.toString()) ?? []), resolve]),
    );
    // Opened again: read afresh, not the post held for a client part that came meanwhile.
    const held = this.clientParts.get(uri.toString());
    if (held) held.shown = true;
    if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())) this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await untilShows(document, await content);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    for (const part of this.clientParts.values()) part.controller.abort();
    this.clientParts.clear();
    this.changed.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const text = await this.contentOf(uri, token);
    const waiting = this.waiting.get(uri.toString()) ?? [];
    this.waiting.delete(uri.toString());
    for (const resolve of waiting) resolve(text);
    return text;
  }

  private async contentOf(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const arrived = this.clientParts.get(uri.toString());
    if (arrived?.context && !arrived.shown && isOpen(uri)) {
      // The client part came: shown with the post as read, which is not read again for it.
      arrived.shown = true;
      return arrived.render(clientSection(arrived.clientId, undefined, arrived.context));
    }
    // Signed out, a post of another account signed in to is still read (with its own token).
    return withSignedIn(
      this.gateway,
      (here) => this.postContent(uri, token, here),
      () => this.postContent(uri, token, undefined),
    )();
  }

  /** The post a document names, read now: of the account its URI names, else of the window's (`here`). */
  private async postContent(uri: vscode.Uri, token: vscode.CancellationToken, here: SignedIn | undefined): Promise<string> {
    const post = postOf(uri);
    const accountUrl = post && accountOf(post, here?.url, await this.gateway.signedInAccounts());
    const account =
      accountUrl === undefined ? undefined : accountUrl === here?.url ? here.account : await this.gateway.accountFor(accountUrl);
    if (!post || !account)
      return post?.accountUrl
        ? l10n.t('Sign in to the account of this post to see it.')
        : l10n.t('Sign in to the helpdesk to see this post.');
    const { id } = post;
    try {
      const answered = this.answered.get(uri.toString());
      this.answered.delete(uri.toString());
      const read = answered ?? (await account.post(id, abortSignalOf(token)));
      this.shown.delete(uri.toString());
      this.shown.set(uri.toString(), read);
      if (this.shown.size > SHOWN_KEPT) this.shown.delete(this.shown.keys().next().value!);
      // The window's clients and statuses are its account's: another account's post names them by number.
      const own = account === here?.account ? here.store : undefined;
      const client = own && typeof read.client_id === 'number' ? own.clients.find(read.client_id) : undefined;
      const known = { status: statusText(read, own?.statuses), posts: own?.posts.state.items };
      const render = (more: string[]) => renderPost(read, client, account.link('posts', id), known, more);
      // The store reads from the window's account: the client part only while that is still the post's.
      return own && typeof read.client_id === 'number'
        ? this.withClient(uri, read, read.client_id, client, account, own, render)
        : render([]);
    } catch (error) {
      return linklessMarkdown(l10n.t('Could not load post #{0}: {1}', id, errorText(error)));
    }
  }

  /**
   * The post now, with its client as far as the store knows it; the rest of the client part (the
   * contact where not loaded, other open posts, deals) is read after, so the first paint never
   * waits for it, and given to the document once read, without reading the post again. Reading
   * the document again stops the read before.
   */
  private withClient(
    uri: vscode.Uri,
    post: Post,
    clientId: number,
    client: Client | undefined,
    account: Account,
    store: HelpdeskStore,
    render: (more: string[]) => string,
  ): string {
    const key = uri.toString();
    this.clientParts.get(key)?.controller.abort();
    this.clientParts.delete(key);
    const part: ClientPart = { clientId, controller: new AbortController(), render, shown: false };
    this.clientParts.set(key, part);
    // A Map keeps insertion order: the first key is the oldest.
    const [oldest] = this.clientParts;
    if (this.clientParts.size > CLIENT_PARTS && oldest) {
      oldest[1].controller.abort();
      this.clientParts.delete(oldest[0]);
    }
    const { signal } = part.controller;
    void readClientContext(storeSources(store, account), clientId, post.id, signal).then((context) => {
      if (signal.aborted || this.clientParts.get(key) !== part) return;
      // Closed meanwhile: the next opening reads the post afresh (and its client part again).
      if (!isOpen(uri)) return void this.clientParts.delete(key);
      // The window uses another account now: its store is not this post's, so the post is read again, without it.
      if (store.showing(account)) part.context = context;
      else this.clientParts.delete(key);
      this.changed.fire(uri);
    });
    return render(clientSection(clientId, client, undefined));
  }
}

/** A document's client part: read after the post is shown, then shown with it (see `withClient`). */
interface ClientPart {
  readonly clientId: number;
  readonly controller: AbortController;
  /** The post's document with these lines about its client. */
  readonly render: (more: string[]) => string;
  context?: ClientContext;
  /** Whether the document was given the context. */
  shown: boolean;
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString());
}

/** The most documents whose client part is kept: the oldest is let go (and its read stopped). */
const CLIENT_PARTS = 50;

/** Resolves once `document` holds `text` (VS Code applies a provider's new content a moment after it is given), or after a bound. */
async function untilShows(document: vscode.TextDocument, text: string, ms = 5000): Promise<void> {
  if (document.getText() === text) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const subscription = vscode.workspace.onDidChangeTextDocument(
      (event) => event.document === document && document.getText() === text && done(),
    );
  });
}

/** What the window's account tells of a post besides the post: its status's name, and the loaded posts, which name its users. */
export interface KnownOfPost {
  readonly status?: string | undefined;
  readonly posts?: readonly Post[] | undefined;
}

export function renderPost(
  post: Post,
  client: Client | undefined,
  link: string,
  known: KnownOfPost = {},
  more: readonly string[] = [],
): string {
  const { status } = known;
  // Server text is escaped where it is put in, so that a Markdown preview shows it as written: no links, no HTML (see linklessMarkdown).
  const line = (name: string, text: string) => (text ? [`- ${name}: ${text}`] : []);
  const clientId = typeof post.client_id === 'number' ? post.client_id : undefined;
  // An e-mail's HTML as its text, in the same fence as any content: nothing of it is rendered.
  const content = contentText(post);
  const lines = [
    `# ${linklessMarkdown(postTitle(post))}`,
    '',
    ...line(l10n.t('Post'), `#${post.id}`),
    ...line(l10n.t('Kind'), linklessMarkdown(kindText(post) ?? '')),
    ...line(l10n.t('State'), stateText(post)),
    ...line(l10n.t('Status'), status ? linklessMarkdown(status) : ''),
    ...line(l10n.t('Assigned to'), linklessMarkdown(assigneeText(post, known.posts) ?? '')),
    ...line(l10n.t('Comment on'), typeof post.post_id === 'number' ? `#${post.post_id}` : ''),
    // By name and number where the client is known ("Acme (#12)"), else by number ("client #12").
    ...line(
      l10n.t('Client'),
      clientId
        ? `${linklessMarkdown(clientText(post, client && [client]) ?? '')}${client && labelText(client.name) ? ` (#${clientId})` : ''}`
        : '',
    ),
    // As the conversation page shows them; what is no time, as the service wrote it.
    ...line(l10n.t('Created'), linklessMarkdown(timeText(post.created_at))),
    ...line(l10n.t('Updated'), linklessMarkdown(timeText(post.updated_at))),
    ...line(l10n.t('Comments'), typeof post.comments_cache === 'number' ? numberText(post.comments_cache) : ''),
    ...line(l10n.t('Web page'), link),
    ...line(l10n.t('Content'), content.html ? l10n.t('an HTML e-mail, shown as text') : ''),
    '',
    ...more,
  ];
  if (content.text.trim()) lines.push(codeBlock(content.text.replace(/\n$/, ''), 'text'), '');
  return lines.join('\n');
}

/** Opens a post read-only in the editor. */
