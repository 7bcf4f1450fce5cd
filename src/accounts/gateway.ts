import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { HelpdeskClient, parseAccountUrl } from '../api';
import type { Credentials, Session } from './session';
import type { Log } from '../log';
import { readSettings } from '../settings';
import type { HelpdeskStore, Peek } from '../store/helpdeskStore';
import { PostPeeks } from '../store/postPeeks';
import { Account } from '../api/account';
import { ListKnowledge, type KnowledgeState } from '../api/listKnowledge';
import type { SignedIn, WindowAccount } from './signedIn';

const { l10n } = vscode;

/** This window's account, with what it is bound to. */
interface Bound {
  readonly credentials: Credentials;
  readonly signedIn: SignedIn;
  readonly controller: AbortController;
  readonly listening: { dispose(): void };
}

/**
 * The one way to the service, and the window's account. It makes the `Account` of the signed-in
 * one as the session changes (every read and write goes through it), moves the session to
 * "rejected" or "unreachable" on what that account's calls meet, and binds the store the views
 * read to it.
 */
export class Gateway extends Disposable implements WindowAccount {
  readonly onDidChange: vscode.Event<void>;
  private bound: Bound | undefined;
  /** Other accounts signed in to, as drafts written for them are sent (see `accountFor`). */
  private readonly others = new Map<
    string,
    { credentials: Credentials; account: Account; controller: AbortController; peeks: PostPeeks }
  >();

  constructor(
    private readonly session: Session,
    private readonly log: Log,
    /** Where what each account's lists were seen to hand back is kept (see ListKnowledge). */
    private readonly state: KnowledgeState,
    private readonly store: HelpdeskStore,
  ) {
    super();
    this.onDidChange = session.onDidChange;
    this.register(session.onDidChangeCredentials(() => this.follow()));
    // The session starts at activation and may be restored already (the gateway comes on first use).
    this.follow();
  }

  /** It follows the session's credentials the moment they change. */
  get current(): SignedIn | undefined {
    return this.bound?.signedIn;
  }

  async ready(): Promise<SignedIn | undefined> {
    await this.session.whenRestored();
    return this.current;
  }

  signedInAccounts(): Promise<string[]> {
    return this.session.signedInAccounts();
  }

  /**
   * The way to an account: this window's, or another one signed in to (a draft written for it);
   * undefined when no token for it is stored. Another account's calls go with its own token to
   * its own address; what they meet does not change this window's state or views.
   */
  async accountFor(accountUrl: string): Promise<Account | undefined> {
    const mine = this.current?.account;
    if (mine?.url === accountUrl) return mine;
    const credentials = await this.session.credentialsFor(accountUrl);
    const known = this.others.get(accountUrl);
    if (known && known.credentials.token === credentials?.token) return known.account;
    known?.controller.abort();
    this.others.delete(accountUrl);
    if (!credentials) return undefined;
    const controller = new AbortController();
    const account = this.makeAccount(credentials, controller.signal);
    this.others.set(accountUrl, { credentials, account, controller, peeks: new PostPeeks() });
    return account;
  }

  /** A post for a hover: from the store's short-lived cache, or one request; undefined when signed out. */
  peek(id: number): Promise<Peek> | undefined {
    const account = this.current?.account;
    return account && this.store.peeks.get(id, (postId) => account.post(postId));
  }

  /**
   * A post of another account signed in to, for a hover: cached as the window's own are (see
   * PostPeeks), apart from them, and dropped with that account's token; undefined when not signed in to it.
   */
  async peekOf(accountUrl: string, id: number): Promise<Peek | undefined> {
    const account = await this.accountFor(accountUrl);
    if (!account) return undefined;
    if (account === this.current?.account) return this.peek(id);
    const peeks = this.others.get(accountUrl)?.peeks;
    return (peeks ?? new PostPeeks()).get(id, (postId) => account.post(postId));
  }

  /** Checks the address and token with one cheap call, then stores them. Throws `ApiError` or `AccountUrlError`. */
  async signIn(address: string, token: string, signal?: AbortSignal): Promise<void> {
    const credentials = { accountUrl: parseAccountUrl(address), token: token.trim() };
    await this.createClient(credentials).posts.listHelpdesk({ perPage: 1 }, { signal });
    await this.session.save(credentials.accountUrl, credentials.token);
  }

  override dispose(): void {
    this.unbind();
    for (const other of this.others.values()) other.controller.abort();
    super.dispose();
  }

  /**
   * Follows the session: an account for its credentials, whose calls move the session and which
   * the store reads from. The calls of the one before are aborted, and the store starts again.
   */
  private follow(): void {
    const credentials = this.session.credentials;
    if (this.bound?.credentials === credentials) return;
    this.unbind();
    if (credentials) {
      const controller = new AbortController();
      const account = this.makeAccount(credentials, controller.signal);
      const listening = account.onDidMeet((met) => this.session.noteReachability(met === 'answered' ? 'signedIn' : met));
      const { session, store } = this;
      const signedIn: SignedIn = {
        url: account.url,
        account,
        store,
        get usable() {
          return session.state !== 'rejected';
        },
      };
      this.bound = { credentials, signedIn, controller, listening };
    }
    this.store.bind(this.bound?.signedIn.account);
  }

  private unbind(): void {
    this.bound?.listening.dispose();
    this.bound?.controller.abort();
    this.bound = undefined;
  }

  private makeAccount(credentials: Credentials, signal: AbortSignal): Account {
    return new Account(credentials.accountUrl, {
      api: this.clientFor(credentials),
      signal,
      knowledge: new ListKnowledge(this.state, credentials.accountUrl),
      log: (message) => this.log.info(message),
    });
  }

  /** The API client for these credentials, built again when the request timeout setting changes. */
  private clientFor(credentials: Credentials): () => HelpdeskClient {
    let built: { timeoutMs: number; api: HelpdeskClient } | undefined;
    return () => {
      const timeoutMs = readSettings().requestTimeoutSeconds * 1000;
      if (built?.timeoutMs !== timeoutMs) built = { timeoutMs, api: this.createClient(credentials, timeoutMs) };
      return built.api;
    };
  }

  private createClient({ accountUrl, token }: Credentials, timeoutMs = readSettings().requestTimeoutSeconds * 1000): HelpdeskClient {
    return new HelpdeskClient({
      accountUrl,
      token,
      timeoutMs,
      onRequest: (entry) => {
        this.log.request(entry);
        if (entry.status === 429) this.rateLimited(entry.retryInSeconds);
      },
    });
  }

  /**
   * Says so when the service asks to slow down, with the wait that comes: a GET waits as it says
   * (up to 10 s, within the call's time) and tries again; otherwise the call fails at once.
   */
  private rateLimited(seconds: number | undefined): void {
    const message =
      seconds === undefined
        ? l10n.t('The helpdesk asked to slow down (HTTP 429).')
        : l10n.t('The helpdesk asked to slow down (HTTP 429): waiting {0} s.', seconds);
    this.log.info(message);
    vscode.window.setStatusBarMessage(`$(watch) ${message}`, Math.min(10, seconds ?? 5) * 1000 + 1000);
  }
}
