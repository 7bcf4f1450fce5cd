/**
 * One post's conversation page (a webview panel): the post's facts, its customer, the thread
 * and a reply box, kept up to date as the account's writes and the store's list change it.
 * Everything the page asks is read by `readPageMessage` first; its actions are the extension's
 * own commands, run on a URI that names this page's post and account (see `pageUri`), so that
 * they go the same way as from a row or a document, and act on this page's account.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vscode = require('vscode');
import type { Post } from '../api';
import { laterCopy } from '../api/postChanges';
import type { Account } from '../api/account';
import type { Gateway } from '../accounts/gateway';
import type { CommandId } from '../commandIds';
import { emailModule } from '../email/load';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { WriteServices } from '../services';
import { accountSources, readClientContext, storeSources, type ClientContext } from '../store/clientContext';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { commentsListedText } from '../text/counts';
import { timeText, userText } from '../text/postFacts';
import { errorText } from '../ui/errorText';
import { openDraft } from '../drafts/sendDraft';
import { postUri } from '../views/postUri';
import { conversationHtml, imageSources } from './pageHtml';
import { readPageMessage, type PageAction, type PageMessage } from './pageMessages';
import { clientCard, emailLabels, pageLabels, postFactsOf, titleOf, withImageButtons, type PageModel } from './pageModel';
import { Reply, type KeptDraft } from './reply';
import { buildThread, EmailPages, type Thread } from './thread';

const { l10n } = vscode;

export const CONVERSATION_VIEW = 'helpdesk.conversation';

/** The query mark of a page's URI (see `pageUri`). */
const PAGE_MARK = 'page';

/** The URI the page's commands run on: the post's document URI, marked as the page's. */
export function pageUri(id: number, accountUrl: string): vscode.Uri {
  const uri = postUri(id, accountUrl);
  return uri.with({ query: `${uri.query}&view=${PAGE_MARK}` });
}

export function isPageUri(uri: vscode.Uri): boolean {
  return new URLSearchParams(uri.query).get('view') === PAGE_MARK;
}

/** Each of the page's actions, the command it runs. */
const COMMANDS: Record<Exclude<PageAction, 'refresh' | 'openAsText'>, CommandId> = {
  close: 'helpdesk.closePost',
  reopen: 'helpdesk.reopenPost',
  assignToMe: 'helpdesk.assignToMe',
  assign: 'helpdesk.assignPost',
  setStatus: 'helpdesk.setPostStatus',
  startWork: 'helpdesk.startWork',
  goToCode: 'helpdesk.goToCode',
  openInBrowser: 'helpdesk.openInBrowser',
};

export interface PanelParts extends WriteServices {
  readonly gateway: Pick<Gateway, 'accountFor'>;
  readonly log: Log;
  readonly extensionUri: vscode.Uri;
  /** Opens another post's page, of the same account. */
  readonly openPost: (id: number, accountUrl: string) => unknown;
}

let assets: { readonly folder: string; readonly script: string; readonly style: string } | undefined;

/** The page's script and stylesheet, read from the extension's media once (14 KB). */
function pageAssets(extensionUri: vscode.Uri): { readonly script: string; readonly style: string } {
  const folder = join(extensionUri.fsPath, 'media', 'conversation');
  if (assets?.folder !== folder)
    assets = { folder, script: readFileSync(join(folder, 'page.js'), 'utf8'), style: readFileSync(join(folder, 'page.css'), 'utf8') };
  return assets;
}

export class ConversationPanel extends Disposable {
  private post: Post | undefined;
  private error: string | undefined;
  /** The customer card's last context, and whether it was read from the account alone (no store of its lists here: no other posts looked for). */
  private card: { readonly context: ClientContext; readonly alone: boolean } | undefined;
  /** What the card's latest read (under way or done) was of: the client, from the account alone or not. */
  private cardRead: { readonly clientId: number; readonly alone: boolean } | undefined;
  private contextRead: AbortController | undefined;
  private held: Account;
  private listening: vscode.Disposable;
  /** The post was (read again and) shown, and its client's context is to be read once the page has started. */
  private contextDue = false;
  /**
   * The page said it started since its HTML was last written and it was last shown. The customer card waits for it: its
   * reads (pages of the Helpdesk view's list, each redrawing the view, and the client's deals)
   * would otherwise share the machine with the page's own start, and the page would paint later.
   */
  private pageStarted = false;
  private readonly allowImages = new Set<number>();
  private thread: Thread = { messages: [], targets: [] };
  private readonly emailPages = new EmailPages(emailModule);
  /** The model the page was last sent, as sent; undefined once the page starts again (it has none then). */
  private sent: string | undefined;
  private readingAgain: Promise<void> | undefined;
  private readonly reply: Reply;
  /** What the page typed before the post was read: saved as the draft once it is (see `saveReply`). */
  private unsaved: string | undefined;
  /** The Sends the page asked that are answered (see the model's `reply.sends`). */
  private sendsAnswered = 0;
  /** The reply text to give the page at its next start (what its state or the draft kept). */
  private replyForPage: string | undefined;
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  /** The last model made, the last reply text given to the page, how many times the page started, and how many models it was sent (tests read them). */
  lastModel: PageModel | undefined;
  replyGiven: string | undefined;
  pageStarts = 0;
  modelsSent = 0;

  constructor(
    private readonly parts: PanelParts,
    readonly panel: vscode.WebviewPanel,
    account: Account,
    readonly postId: number,
    /** The window's store, while it is this account's: the comments and the client come from it. */
    private readonly store: () => HelpdeskStore | undefined,
  ) {
    super();
    this.reply = new Reply(parts, account, postId, () => this.show());
    this.replyForPage = this.reply.textForPage() || undefined;
    panel.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: [vscode.Uri.joinPath(parts.extensionUri, 'media')],
    };
    this.register(panel.webview.onDidReceiveMessage((value: unknown) => this.receive(value)));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.held = account;
    this.listening = this.follow(account);
    this.writeHtml();
    void this.load();
  }

  /** The page's account: what it reads and acts on. */
  get account(): Account {
    return this.held;
  }

  /**
   * The account of the page's address as the window has it now: the window switching accounts
   * stops the calls of the one it leaves (see Gateway), and makes another for the one it comes to.
   */
  useAccount(account: Account): void {
    if (account === this.held || account.url !== this.held.url || this.isDisposed) return;
    this.listening.dispose();
    this.held = account;
    this.listening = this.follow(account);
  }

  /**
   * The account as the window has it now, asked before each read: the window's switch is told to
   * the pages a moment after it is made (see ConversationPanels), and a read may come first.
   */
  private async accountForCall(): Promise<Account> {
    const account = await this.parts.gateway.accountFor(this.held.url);
    if (account) this.useAccount(account);
    return this.held;
  }

  private follow(account: Account): vscode.Disposable {
    const { postId } = this;
    return account.onDidChange((change) => {
      if ((change.kind === 'updated' || change.kind === 'read') && change.post.id === postId) this.showPost(change.post);
      else if (change.kind === 'commented' && change.parentId === postId) void this.load();
      else if (change.kind === 'filed' && change.post.post_id === postId) this.show();
    });
  }

  /**
   * Follows the window's store while it shows this account: a news poll or a refresh that changed
   * the post or its comments, and the window switching to this account (see `cardStale`).
   */
  followStore(store: HelpdeskStore): vscode.Disposable {
    return store.posts.onDidChange(() => {
      if (this.store() !== store) return;
      const listed = store.posts.find(this.postId);
      if (listed && this.post && laterCopy(this.post, listed)) this.readAgain();
      this.show();
    });
  }

  /**
   * The post read again, whole: a later copy in a list is the cue, not the copy to show (a list may
   * hand back only the start of the content). Shown through the account's "read" (see the constructor).
   */
  private readAgain(): void {
    if (this.readingAgain) return;
    this.readingAgain = this.accountForCall()
      .then((account) => account.post(this.postId))
      .then(
        () => undefined,
        (error: unknown) => this.parts.log.error(`Reading post #${this.postId} again for its page failed`, error),
      )
      .finally(() => (this.readingAgain = undefined));
  }

  /** The post as the page shows it now. */
  get shown(): Post | undefined {
    return this.post;
  }

  showPost(post: Post): void {
    this.post = post;
    this.error = undefined;
    this.show();
  }

  async load(): Promise<void> {
    let post: Post;
    try {
      post = await (await this.accountForCall()).post(this.postId);
      this.showPost(post);
    } catch (error) {
      this.error = l10n.t('Could not load post #{0}: {1}', this.postId, errorText(error));
      this.show();
      return;
    }
    this.contextDue = true;
    this.readContextOnceStarted();
    const unsaved = this.unsaved;
    this.unsaved = undefined;
    if (unsaved !== undefined)
      await this.reply.save(post, unsaved).catch((error: unknown) => {
        this.parts.log.error(`Saving the reply to #${this.postId} typed before the post was read failed`, error);
        this.parts.ui.failure(error);
      });
  }

  /** The reply as typed, kept as its draft; before the post is read (a draft needs its title and client), kept until it is. */
  private saveReply(text: string): Promise<void> {
    if (!this.post) {
      this.unsaved = text;
      return Promise.resolve();
    }
    return this.reply.save(this.post, text);
  }

  private readContextOnceStarted(): void {
    // Disposed meanwhile (closed while its start's reply was being saved): nothing to read for.
    if (this.isDisposed || !this.contextDue || !this.pageStarted) return;
    this.contextDue = false;
    this.readContext();
  }

  /**
   * The client's other open posts and deals, read after the post is shown and the page has started
   * (see `pageStarted`); from the account alone where the window's store is not this account's.
   */
  private readContext(): void {
    const store = this.store();
    const clientId = this.post?.client_id;
    if (typeof clientId !== 'number') return;
    this.contextRead?.abort();
    const read = (this.contextRead = new AbortController());
    const alone = !store;
    this.cardRead = { clientId, alone };
    void this.accountForCall()
      .then((account) =>
        readClientContext(store ? storeSources(store, account) : accountSources(account), clientId, this.postId, read.signal),
      )
      .then((context) => {
        if (read.signal.aborted || this.isDisposed) return;
        // Read from the store while it showed this account, which it no longer does: none of it is kept (see `cardStale`).
        if (store && this.store() !== store) return this.show();
        this.card = { context, alone };
        this.show();
      })
      .catch((error: unknown) => this.parts.log.error(`Reading the customer card of post #${this.postId} failed`, error));
  }

  /**
   * The card's latest read is of another client than the post's now (changed in the web app), or
   * from another source than there is now: the window switched to this post's account (its list
   * can be looked through) or away from it.
   */
  private cardStale(): boolean {
    const clientId = this.post?.client_id;
    if (this.cardRead === undefined || typeof clientId !== 'number') return false;
    return this.cardRead.clientId !== clientId || this.cardRead.alone !== !this.store();
  }

  /** A page shown again after it was hidden starts anew (VS Code keeps no hidden webview's page): what waits for its start waits again. */
  startsAgain(): void {
    this.pageStarted = false;
  }

  private writeHtml(): void {
    const { webview } = this.panel;
    this.sent = undefined;
    this.pageStarted = false;
    const allowed = this.thread.targets.flatMap((targets, i) => (this.allowImages.has(this.thread.messages[i]!.id) ? targets.images : []));
    webview.html = conversationHtml({
      cspSource: webview.cspSource,
      ...pageAssets(this.parts.extensionUri),
      lang: vscode.env.language,
      accountUrl: this.account.url,
      postId: this.postId,
      images: imageSources(allowed),
    });
  }

  /**
   * The model, sent to the page unless it is the one the page has: the store's list fires at
   * every page it reads (the customer card reads it further), and the page would be sent, and
   * render, the same thread each time.
   */
  private show(): void {
    if (this.isDisposed) return;
    if (this.cardStale()) {
      this.contextDue = true;
      this.readContextOnceStarted();
    }
    const model = this.model();
    this.lastModel = model;
    this.panel.title = this.post ? `#${this.postId} ${titleOf(this.post)}` : `#${this.postId}`;
    const sent = JSON.stringify(model);
    if (sent === this.sent) return;
    this.sent = sent;
    this.modelsSent++;
    void this.panel.webview.postMessage({ type: 'show', model });
  }

  private model(): PageModel {
    const store = this.store();
    const post = this.post;
    const comments = store && post ? store.posts.state.items.filter((item) => item.post_id === post.id) : [];
    this.thread = post
      ? buildThread(post, comments, this.allowImages, this.emailPages.forThread(), {
          labels: emailLabels(),
          user: userText,
          time: timeText,
        })
      : { messages: [], targets: [] };
    const status = this.reply.status;
    const kept = this.reply.keptDraft;
    const text = this.replyForPage;
    this.replyForPage = undefined;
    if (text !== undefined) this.replyGiven = text;
    // A card of another client than the post's now is none: the post's own is being read.
    const card = this.card && this.card.context.clientId === post?.client_id ? this.card : undefined;
    const counted = typeof post?.comments_cache === 'number' ? post.comments_cache : 0;
    const listed = this.thread.messages.length - 1;
    const commentsNote = !post
      ? undefined
      : !store && counted > 0
        ? l10n.t('The comments of another account’s post are not listed here: open it in the browser to read them.')
        : listed < counted
          ? commentsListedText(counted, Math.max(0, listed))
          : undefined;
    return {
      account: this.account.url,
      post: this.postId,
      labels: pageLabels(),
      title: post ? titleOf(post) : `#${this.postId}`,
      facts: post ? postFactsOf(post, store?.statuses, store?.posts.state.items) : [],
      closed: post?.closed === true,
      updatesRefused: this.account.postUpdatesRefused,
      ...(post && typeof post.client_id === 'number'
        ? {
            client: clientCard(post.client_id, card?.context, store?.clients.find(post.client_id), {
              postsListed: card ? !card.alone : store !== undefined,
            }),
          }
        : {}),
      messages: withImageButtons(this.thread.messages),
      ...(commentsNote ? { commentsNote } : {}),
      reply: {
        state: status.kind,
        ...(status.kind === 'failed' ? { why: l10n.t('Not sent: {0} Your reply is kept as a draft.', status.why) } : {}),
        ...(kept && this.parts.drafts.get(kept.id) ? { note: keptDraftNote(kept) } : {}),
        ...(text !== undefined ? { text } : {}),
        sends: this.sendsAnswered,
      },
      ...(this.error ? { error: this.error } : {}),
    };
  }

  /** A message from the page: read, then done. */
  receive(value: unknown): Promise<void> {
    const message = readPageMessage(value, { accountUrl: this.account.url, postId: this.postId });
    if (!message) {
      this.parts.log.info(`The conversation page of #${this.postId} sent a message that is none of its own; it is ignored.`);
      return Promise.resolve();
    }
    return this.handle(message).catch((error: unknown) => {
      this.parts.log.error(`The conversation page's ${message.type} failed`, error);
      this.parts.ui.failure(error);
    });
  }

  private async handle(message: PageMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.pageStarts++;
        // A page that starts has nothing shown yet.
        this.sent = undefined;
        this.pageStarted = true;
        try {
          // After a reload: what the page's own state kept is newer than the draft's last save. An
          // empty box is not: it was emptied by a send as often as by the person, and a reply
          // drafted since elsewhere (Comment on Task, another window) is the person's too.
          if (message.reply !== undefined && message.reply.trim() && message.reply !== this.reply.text) {
            this.replyForPage = message.reply;
            await this.saveReply(message.reply);
          } else this.replyForPage = this.unsaved ?? (this.reply.textForPage() || undefined);
          this.show();
        } finally {
          // However the reply's save went: the card is no part of it.
          this.readContextOnceStarted();
        }
        return;
      case 'reply':
        return this.saveReply(message.text);
      case 'send': {
        try {
          if (!this.post) {
            void this.parts.ui.info(l10n.t('Post #{0} is not loaded yet. Your reply is kept: send it once the post shows.', this.postId));
            return await this.saveReply(message.text);
          }
          const sent = await this.reply.send(this.post, message.text);
          if (sent) this.replyForPage = '';
        } finally {
          // The page locked its box at the press, until this answer: given however the send went.
          this.sendsAnswered++;
          this.show();
        }
        return;
      }
      case 'retry': {
        const sent = await this.reply.retry();
        if (sent) this.replyForPage = '';
        return this.show();
      }
      case 'edit':
        this.replyForPage = this.reply.textForPage();
        return this.reply.edit();
      case 'openKeptDraft': {
        const id = this.reply.keptDraft?.id;
        if (id !== undefined && this.parts.drafts.get(id)) await openDraft(id);
        return;
      }
      case 'openLink': {
        const link = this.thread.targets[message.message]?.links[message.link];
        if (link) await vscode.env.openExternal(vscode.Uri.parse(link, true));
        return;
      }
      case 'loadImages': {
        const shown = this.thread.messages[message.message];
        if (!shown || shown.imagesWithheld === 0) return;
        this.allowImages.add(shown.id);
        // The policy names the images now allowed: the page starts again under it (its state keeps the reply).
        this.model();
        this.writeHtml();
        return;
      }
      case 'openPost':
        await this.parts.openPost(message.id, this.account.url);
        return;
      case 'action':
        return this.act(message.action);
    }
  }

  private async act(action: PageAction): Promise<void> {
    if (action === 'refresh') return this.load();
    const uri = pageUri(this.postId, this.account.url);
    if (action === 'openAsText') {
      await vscode.commands.executeCommand('helpdesk.openPostAsText', uri);
      return;
    }
    await vscode.commands.executeCommand(COMMANDS[action], uri);
  }

  /** The reply's draft (tests read it). */
  get replyDraft(): string | undefined {
    return this.reply.draft;
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.contextRead?.abort();
    this.listening.dispose();
    super.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }
}

/** Where the reply draft the page left is, and why (see KeptDraft). */
function keptDraftNote(kept: KeptDraft): string {
  switch (kept.why) {
    case 'longer':
      return l10n.t(
        'An unsent reply to this post is longer than this box takes. It is kept as a draft: open it to send it from its editor.',
      );
    case 'changedElsewhere':
      return l10n.t(
        'This reply’s draft was changed in another window or in the draft’s editor, so it is kept as saved there: open it to see it. What you type here is saved as a separate draft; sending both sends two replies.',
      );
    case 'another':
      return l10n.t(
        'Another unsent reply to this post is kept as a draft: open it to see it. What you type here is saved separately; sending both sends two replies.',
      );
  }
}
