import vscode = require('vscode');
import { HelpdeskClient, isApiError, parseAccountUrl } from '../api';
import type { Log } from '../log';
import { readSettings, SETTINGS } from '../settings';
import type { SignOutSignal } from './signOutSignal';

/**
 * - `signedOut`: no token for the account address.
 * - `signedIn`: a token, and the last call did not say otherwise.
 * - `rejected`: the service refused the token (401/403 on a read).
 * - `unreachable`: the last call could not reach the service.
 */
export type SessionState = 'signedOut' | 'signedIn' | 'rejected' | 'unreachable';

const SECRET_PREFIX = 'helpdesk.token:';

/**
 * The account address (a setting) and its API token (only in SecretStorage, keyed by the
 * address), the API client built from them, and the state the views show. Other windows
 * follow through `secrets.onDidChange` and, where the editor does not fire that in every window
 * (the web workbench), through the sign-out signal.
 */
export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private current: { client: HelpdeskClient; token: string } | undefined;
  private stateValue: SessionState = 'signedOut';
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private firstRestore: Promise<void> | undefined;
  /** True while signIn() changes the secret and the address, which are then out of step. */
  private switching = false;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
    private readonly signOutSignal: SignOutSignal,
  ) {
    log.redactWith(() => [this.current?.token]);
    this.disposables.push(
      signOutSignal.onDidSignOutElsewhere((accountUrl) => void this.signedOutElsewhere(accountUrl)),
      secrets.onDidChange((event) => {
        if (event.key.startsWith(SECRET_PREFIX)) void this.restore();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS.accountUrl)) void this.restore();
        else if (event.affectsConfiguration(SETTINGS.requestTimeoutSeconds) && this.current) {
          this.current = { ...this.current, client: this.createClient(this.current.client.accountUrl, this.current.token) };
        }
      }),
    );
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** The API client while a token is stored; undefined when signed out. */
  get client(): HelpdeskClient | undefined {
    return this.current?.client;
  }

  get accountUrl(): string | undefined {
    return this.current?.client.accountUrl;
  }

  /**
   * The first `restore()`, started on first use. Activation does not wait for it (reading a
   * secret is a round trip to the window); views and commands do, before they look at `client`.
   */
  whenRestored(): Promise<void> {
    this.firstRestore ??= this.restore().catch((error: unknown) => {
      this.log.error('Could not read the token from the secret storage', error);
      void this.publishState();
    });
    return this.firstRestore;
  }

  /** Loads the token for the configured address, if any. */
  async restore(): Promise<void> {
    if (this.switching) return;
    const address = readSettings().accountUrl;
    let accountUrl: string | undefined;
    try {
      accountUrl = address ? parseAccountUrl(address) : undefined;
    } catch (error) {
      this.log.error('The account address in the settings is not usable', error);
    }
    const token = accountUrl ? await this.secrets.get(secretKey(accountUrl)) : undefined;
    if (accountUrl && token) {
      if (this.current?.token === token && this.current.client.accountUrl === accountUrl) return;
      this.current = { client: this.createClient(accountUrl, token), token };
      this.setState('signedIn');
    } else if (this.current || this.stateValue !== 'signedOut') {
      this.current = undefined;
      this.setState('signedOut');
    } else {
      await this.publishState();
    }
  }

  /** Checks the address and token with one cheap call, then stores them. Throws `ApiError` or `AccountUrlError`. */
  async signIn(address: string, token: string, signal?: AbortSignal): Promise<void> {
    const accountUrl = parseAccountUrl(address);
    const cleanToken = token.trim();
    const client = this.createClient(accountUrl, cleanToken);
    await client.posts.listHelpdesk({ perPage: 1 }, { signal });
    this.current = { client, token: cleanToken };
    // Storing the secret and then the address each fire an event that calls restore(); in
    // between, the address still names the previous account, whose token restore() would load.
    this.switching = true;
    try {
      await this.secrets.store(secretKey(accountUrl), cleanToken);
      await vscode.workspace.getConfiguration().update(SETTINGS.accountUrl, accountUrl, vscode.ConfigurationTarget.Global);
    } finally {
      this.switching = false;
    }
    this.log.info(`Signed in to ${accountUrl}`);
    this.setState('signedIn');
  }

  async signOut(): Promise<void> {
    const accountUrl = this.accountUrl;
    this.current = undefined;
    if (accountUrl) await this.secrets.delete(secretKey(accountUrl));
    this.log.info('Signed out');
    this.setState('signedOut');
    if (accountUrl) await this.signOutSignal.announce(accountUrl).catch((error: unknown) => this.log.error('Could not tell other windows of the sign-out', error));
  }

  /**
   * Another window signed out of `accountUrl`. This window's secret storage may still hold the
   * token it was using (see SignOutSignal): delete that copy too, or a later restore() would
   * bring it back. A token stored since, by a new sign-in, stays.
   */
  private async signedOutElsewhere(accountUrl: string): Promise<void> {
    const previous = this.current;
    if (previous?.client.accountUrl !== accountUrl) return;
    this.current = undefined;
    const key = secretKey(accountUrl);
    if ((await this.secrets.get(key)) === previous.token) await this.secrets.delete(key);
    // Only now, so that whoever sees the state also sees the stale copy gone. The delete's own
    // onDidChange may have run restore(), which publishes it first.
    this.log.info('Signed out in another window');
    if (this.stateValue !== 'signedOut') this.setState('signedOut');
  }

  /** Called by whoever made a call: moves to `rejected` or `unreachable`, or back to `signedIn`. */
  noteOutcome(error?: unknown): void {
    if (!this.current) return;
    if (error === undefined) {
      if (this.stateValue !== 'signedIn') this.setState('signedIn');
    } else if (isApiError(error, 'auth') && error.status === 401) {
      this.setState('rejected');
    } else if (isApiError(error, 'network') || isApiError(error, 'timeout')) {
      this.setState('unreachable');
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private createClient(accountUrl: string, token: string): HelpdeskClient {
    return new HelpdeskClient({
      accountUrl,
      token,
      timeoutMs: readSettings().requestTimeoutSeconds * 1000,
      onRequest: (entry) => {
        this.log.request(entry);
        if (entry.status === 429) this.rateLimited(entry.retryAfterSeconds);
      },
    });
  }

  /** Says so when the service asks to slow down; a GET waits as it says (up to 10 s) and tries again. */
  private rateLimited(seconds: number | undefined): void {
    const message =
      seconds === undefined
        ? vscode.l10n.t('The helpdesk asked to slow down (HTTP 429).')
        : vscode.l10n.t('The helpdesk asked to slow down (HTTP 429): waiting {0} s.', seconds);
    this.log.info(message);
    vscode.window.setStatusBarMessage(`$(watch) ${message}`, Math.min(10, seconds ?? 5) * 1000 + 1000);
  }

  private setState(state: SessionState): void {
    this.stateValue = state;
    void this.publishState();
    this.changed.fire();
  }

  private async publishState(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'helpdesk.state', this.stateValue);
    await vscode.commands.executeCommand('setContext', 'helpdesk.signedIn', this.stateValue === 'signedIn' || this.stateValue === 'unreachable');
  }
}

function secretKey(accountUrl: string): string {
  return SECRET_PREFIX + accountUrl;
}
