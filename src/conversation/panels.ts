/**
 * The conversation pages: one per post of an account, opened again where it is (revealed, read
 * afresh), and brought back after a window reload by VS Code's serializer from the state the
 * page kept (its post, account and unsent reply; read as any page message is). A page of an
 * account no longer signed in to says so instead.
 */
import vscode = require('vscode');
import type { Post } from '../api';
import { parseAccountUrl } from '../api/address';
import type { Gateway } from '../accounts/gateway';
import { withSignedIn, withSignedInNow } from '../accounts/signedIn';
import { Disposable } from '../lifecycle';
import { ConversationPanel, CONVERSATION_VIEW, isPageUri, type PanelParts } from './panel';
import { MAX_REPLY_CHARS } from './pageMessages';
import { Reply } from './reply';
import { postOf } from '../views/postUri';
import type { HelpdeskStore } from '../store/helpdeskStore';

const { l10n } = vscode;

export interface PanelsParts extends Omit<PanelParts, 'openPost'> {
  readonly gateway: Gateway;
  /** The window's store: a page follows it while it shows the page's account. */
  readonly store: HelpdeskStore;
}

const keyOf = (accountUrl: string, id: number) => `${id} ${accountUrl}`;

export class ConversationPanels extends Disposable {
  private readonly panels = new Map<string, ConversationPanel>();

  constructor(private readonly parts: PanelsParts) {
    super();
    this.register(parts.gateway.onDidChange(() => void this.followAccounts()));
    this.register(
      vscode.window.registerWebviewPanelSerializer(CONVERSATION_VIEW, {
        deserializeWebviewPanel: (panel, state) => this.restore(panel, state),
      }),
    );
  }

  /** The page of post `id` of an account (the window's when none is named): made, or shown again and read afresh. */
  async open(id: number, accountUrl: string | undefined): Promise<ConversationPanel | undefined> {
    const url = accountUrl ?? this.windowUrl();
    const account = url === undefined ? undefined : await this.parts.gateway.accountFor(url);
    if (!url || !account) {
      void this.parts.ui.info(
        accountUrl ? l10n.t('Sign in to the account of this post to see it.') : l10n.t('Sign in to the helpdesk to see this post.'),
      );
      return undefined;
    }
    const open = this.panels.get(keyOf(url, id));
    if (open) {
      if (!open.panel.visible) open.startsAgain();
      open.panel.reveal();
      void open.load();
      return open;
    }
    const panel = vscode.window.createWebviewPanel(CONVERSATION_VIEW, `#${id}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(this.parts.extensionUri, 'media')],
    });
    return this.make(panel, account, id);
  }

  /** The page of this post of this account, while open. */
  get(accountUrl: string, id: number): ConversationPanel | undefined {
    return this.panels.get(keyOf(accountUrl, id));
  }

  /** The post a page showed, for a command run from it (see `pageUri`). */
  shownIn(uri: vscode.Uri): Post | undefined {
    const post = isPageUri(uri) ? postOf(uri) : undefined;
    return post?.accountUrl === undefined ? undefined : this.panels.get(keyOf(post.accountUrl, post.id))?.shown;
  }

  /** An update this extension wrote, answered: the post's page shows the record. */
  showUpdated(accountUrl: string, post: Post): void {
    this.panels.get(keyOf(accountUrl, post.id))?.showPost(post);
  }

  /** The window signed in, out or switched: each page reads and acts through its account as the window has it now. */
  private async followAccounts(): Promise<void> {
    for (const panel of [...this.panels.values()]) {
      const account = await this.parts.gateway.accountFor(panel.account.url);
      if (account) panel.useAccount(account);
    }
  }

  private windowUrl(): string | undefined {
    return withSignedInNow(
      this.parts.gateway,
      ({ url }) => url,
      () => undefined,
    )();
  }

  private make(
    panel: vscode.WebviewPanel,
    account: NonNullable<Awaited<ReturnType<Gateway['accountFor']>>>,
    id: number,
  ): ConversationPanel {
    const store = withSignedInNow(
      this.parts.gateway,
      (signedIn) => (signedIn.url === account.url ? signedIn.store.showing(signedIn.account) : undefined),
      () => undefined,
    );
    const made = new ConversationPanel({ ...this.parts, openPost: (other, url) => this.open(other, url) }, panel, account, id, store);
    const key = keyOf(account.url, id);
    this.panels.set(key, made);
    const following = made.followStore(this.parts.store);
    made.onDidDispose(() => {
      following.dispose();
      if (this.panels.get(key) === made) this.panels.delete(key);
    });
    return made;
  }

  /**
   * A page VS Code brings back after a reload (its serializer calls this; tests too): its post and
   * account from the state it kept, checked. A page of an account this window is not signed in
   * to is closed, and says so; the reply its state kept is saved as the reply's draft.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    // Once the window knows its account (a page of it then reads the window's list) and its drafts (the page's reply is one).
    await Promise.all([
      withSignedIn(
        this.parts.gateway,
        () => undefined,
        () => undefined,
      )(),
      this.parts.drafts.ready,
    ]);
    const kept = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
    const id = kept.post;
    const url = kept.account;
    if (typeof url !== 'string' || url.length > 4096 || typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      panel.dispose();
      return;
    }
    const account = await this.parts.gateway.accountFor(url);
    if (!account) {
      panel.dispose();
      // The state is the page's: only an account's address as the extension writes one is kept a draft of, and named.
      if (accountUrlAsWritten(url)) await this.closedSignedOut(url, id, kept.reply);
      return;
    }
    if (this.panels.has(keyOf(account.url, id))) panel.dispose();
    else this.make(panel, account, id);
  }

  /** A restored page of an account no longer signed in to: its reply kept as a draft, and the person told. */
  private async closedSignedOut(url: string, id: number, reply: unknown): Promise<void> {
    // Not an empty box: it was emptied by a send as often as by the person (see the page's start).
    if (typeof reply === 'string' && reply.trim() && reply.length <= MAX_REPLY_CHARS) {
      const kept = new Reply(this.parts, { url }, id, () => undefined);
      // The post is not read (its account is not signed in to): a new draft is titled by its number.
      await kept.save({ id }, reply).catch((error: unknown) => this.parts.log.error(`Keeping the reply to #${id} of a closed page`, error));
    }
    const signIn = l10n.t('Sign In…');
    void this.parts.ui
      .info(
        l10n.t(
          'The page of post #{0} was closed: this window is not signed in to its account ({1}). Sign in to it to open the page again; an unsent reply is kept as a draft.',
          id,
          new URL(url).host,
        ),
        signIn,
      )
      .then((choice) => choice === signIn && vscode.commands.executeCommand('helpdesk.signIn'));
  }

  override dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
    super.dispose();
  }
}

/** Whether `url` is an account's address as the extension writes it (its host is then a host name, which a message may show). */
function accountUrlAsWritten(url: string): boolean {
  try {
    return parseAccountUrl(url) === url;
  } catch {
    return false;
  }
}
