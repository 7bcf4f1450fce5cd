import vscode = require('vscode');
import { HelpdeskClient, isApiError, parseAccountUrl } from '../api';
import type { Credentials, Session } from '../auth/session';
import type { Log } from '../log';
import { readSettings, SETTINGS } from '../settings';
import { HelpdeskStore, type Peek } from '../store/helpdeskStore';
import { Account, stopMessage } from '../account/account';
import { ListKnowledge, type KnowledgeState } from '../account/listKnowledge';

const { l10n } = vscode;

/**
 * The one way to the service. It builds the API client for the signed-in account, hands out
 * that `Account` (through which every read and write goes), moves the session to "rejected" or
 * "unreachable" on what any call meets, and owns the store the views read.
 */
export class Gateway implements vscode.Disposable {
  readonly store: HelpdeskStore;
  private bound: { credentials: Credentials; account: Account; controller: AbortController } | undefined;
  private client: { credentials: Credentials; api: HelpdeskClient } | undefined;
  private readonly disposables: vscode.Disposable[];
  private readonly noted = new Set<string>();
  /** Other accounts signed in to, as drafts written for them are sent (see `accountFor`). */
  private readonly others = new Map<string, { credentials: Credentials; account: Account; controller: AbortController }>();
  /** The account whose statuses are being asked for. */
  private statusesLoading: Account | undefined;

  constructor(
    private readonly session: Session,
    private readonly log: Log,
    /** Where what each account's lists were seen to hand back is kept (see ListKnowledge). */
    private readonly state: KnowledgeState,
  ) {
    // Not `this.account`: a loader runs inside a list's load, which following the session (and
    // resetting the store) must not happen in the middle of.
    const signedIn = () => this.bound?.account ?? Promise.reject(new Error('Not signed in.'));
    this.store = new HelpdeskStore({
      posts: async (page, perPage, signal) => {
        const account = await signedIn();
        const result = await account.postsPage(page, perPage, signal);
        if (page === 1) this.loadStatuses(account);
        return result;
      },
      clients: async (page, perPage, signal) => (await signedIn()).clientsPage(page, perPage, signal),
      dealsOf: async (clientId) => (await signedIn()).dealsOf(clientId),
      onStop: (list, why) => this.noteOnce(`${list}:${why}`, stopMessage(list, why)),
    });
    this.disposables = [
      session.onDidChange(() => this.follow()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS.requestTimeoutSeconds)) this.client = undefined;
      }),
    ];
    // The session starts at activation and may be restored already (the gateway comes on first use).
    this.follow();
  }

  /** The signed-in account; undefined when signed out. */
  get account(): Account | undefined {
    this.follow();
    return this.bound?.account;
  }

  /**
   * The way to an account: this window's, or another one signed in to (a draft written for it);
   * undefined when no token for it is stored. Another account's calls go with its own token to
   * its own address; what they meet does not change this window's state or views.
   */
  async accountFor(accountUrl: string): Promise<Account | undefined> {
    const mine = this.account;
    if (mine?.url === accountUrl) return mine;
    const credentials = await this.session.credentialsFor(accountUrl);
    const known = this.others.get(accountUrl);
    if (known && known.credentials.token === credentials?.token) return known.account;
    known?.controller.abort();
    this.others.delete(accountUrl);
    if (!credentials) return undefined;
    const controller = new AbortController();
    const api = this.createClient(credentials);
    const account = new Account(accountUrl, {
      signal: controller.signal,
      api: () => api,
      noteOutcome: () => undefined,
      store: () => undefined,
      noteOnce: (key, message) => this.noteOnce(`${accountUrl} ${key}`, message),
      knowledge: new ListKnowledge(this.state, accountUrl),
    });
    this.others.set(accountUrl, { credentials, account, controller });
    return account;
  }

  /** A post for a hover: from the store's short-lived cache, or one request; undefined when signed out. */
  peek(id: number): Promise<Peek> | undefined {
    const account = this.account;
    return account && this.store.peeks.get(id, (postId) => account.post(postId));
  }

  /** Checks the address and token with one cheap call, then stores them. Throws `ApiError` or `AccountUrlError`. */
  async signIn(address: string, token: string, signal?: AbortSignal): Promise<void> {
    const credentials = { accountUrl: parseAccountUrl(address), token: token.trim() };
    await this.createClient(credentials).posts.listHelpdesk({ perPage: 1 }, { signal });
    await this.session.save(credentials.accountUrl, credentials.token);
  }

  dispose(): void {
    this.bound?.controller.abort();
    for (const other of this.others.values()) other.controller.abort();
    for (const d of this.disposables) d.dispose();
  }

  /** Binds an account to the session's credentials; calls of the one before are aborted and the store starts again. */
  private follow(): void {
    const credentials = this.session.credentials;
    if (this.bound?.credentials === credentials) return;
    this.bound?.controller.abort();
    this.bound = undefined;
    this.noted.clear();
    this.store.reset();
    if (!credentials) return;
    const controller = new AbortController();
    const current = () => this.bound?.credentials === credentials;
    const account = new Account(credentials.accountUrl, {
      signal: controller.signal,
      api: () => this.clientFor(credentials),
      noteOutcome: (error) => current() && this.noteOutcome(error),
      store: () => (current() ? this.store : undefined),
      noteOnce: (key, message) => current() && this.noteOnce(key, message),
      knowledge: new ListKnowledge(this.state, credentials.accountUrl),
    });
    this.bound = { credentials, account, controller };
  }

  /**
   * Post status names, once per account, beside the first page of posts. A failure is logged and
   * tried again with the next first page; a service without statuses (404) is not asked again.
   */
  private loadStatuses(account: Account): void {
    if (this.store.statuses || this.statusesLoading === account) return;
    this.statusesLoading = account;
    const current = () => this.bound?.account === account;
    void account
      .statuses()
      .then(
        (names) => current() && this.store.setStatuses(names),
        (error: unknown) => {
          if (!current()) return;
          if (isApiError(error, 'notFound')) this.store.setStatuses(new Map());
          this.log.error('Could not load the post statuses; posts show status ids', error);
        },
      )
      .finally(() => this.statusesLoading === account && (this.statusesLoading = undefined));
  }

  /** Logs a fact about how the service behaves, once per account. */
  private noteOnce(key: string, message: string): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.log.info(message);
  }

  private noteOutcome(error: unknown): void {
    if (error === undefined) this.session.noteReachability('signedIn');
    else if (isApiError(error, 'auth') && error.status === 401) this.session.noteReachability('rejected');
    else if (isApiError(error, 'network') || isApiError(error, 'timeout')) this.session.noteReachability('unreachable');
  }

  private clientFor(credentials: Credentials): HelpdeskClient {
    if (this.client?.credentials !== credentials) this.client = { credentials, api: this.createClient(credentials) };
    return this.client.api;
  }

  private createClient({ accountUrl, token }: Credentials): HelpdeskClient {
    return new HelpdeskClient({
      accountUrl,
      token,
      timeoutMs: readSettings().requestTimeoutSeconds * 1000,
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
