import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { parseAccountUrl } from '../api/address';
import type { Log } from '../log';
import { readSettings, SETTINGS } from '../settings';
import type { SignOutSignal } from './signOutSignal';

/**
 * - `signedOut`: no token for the account address.
 * - `signedIn`: a token, and the last call did not say otherwise.
 * - `rejected`: the service refused the token (401).
 * - `unreachable`: the last call could not reach the service.
 */
export type SessionState = 'signedOut' | 'signedIn' | 'rejected' | 'unreachable';

const SECRET_PREFIX = 'helpdesk.token:';
/** The account last chosen in this window (switched to or signed in to here), in its workspace state. */
const WINDOW_ACCOUNT_KEY = 'helpdesk.windowAccount';

/** The addresses signed in to in this VS Code (see AccountList). */
export interface SignedInList {
  all(): Promise<readonly string[]>;
  add(accountUrl: string): Promise<void>;
  remove(accountUrl: string): Promise<void>;
  /** Fires when another window changed the list. */
  readonly onDidChange: vscode.Event<void>;
}

/** One account's address and its API token. A new sign-in makes a new object. */
export interface Credentials {
  readonly accountUrl: string;
  readonly token: string;
}

/**
 * The account address (a setting) and its API token (only in SecretStorage, keyed by the
 * address), and the state the views show. It makes no calls: the gateway does, and tells it
 * what they met. Other windows follow through `secrets.onDidChange` and, where the editor does
 * not fire that in every window (the web workbench), through the sign-out signal.
 */
export class Session extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly signedOut = this.register(new vscode.EventEmitter<string>());
  /**
   * Fires with the address of an account signed out of, here (this window's or another one) or
   * in another window of this VS Code, once this window has followed it (`onDidChange` fired first).
   */
  readonly onDidSignOut = this.signedOut.event;
  private readonly credentialsChanged = this.register(new vscode.EventEmitter<void>());
  /**
   * Fires the moment `credentials` changes, before what goes with it is stored (a sign-in, a
   * sign-out), which `onDidChange` follows: whoever calls with the credentials (the gateway)
   * moves at once, and never goes on with a token the session has let go of.
   */
  readonly onDidChangeCredentials = this.credentialsChanged.event;
  private currentValue: Credentials | undefined;
  private stateValue: SessionState = 'signedOut';
  private firstRestore: Promise<void> | undefined;
  /** True while save() changes the secret and the address, which are then out of step. */
  private switching = false;
  /**
   * Counts the sign-ins, sign-outs (here or heard from another window), switches and bindings: a
   * restore() that began before one of them and reads its answers after (each read is a round trip
   * to the window) would undo it.
   */
  private moves = 0;
  /** Whether a restore() has begun: the first may leave a folder's account signed out of since. */
  private restoredOnce = false;
  /** The accounts signed in to, as last read (see `signedInAccounts`); undefined: to be read again. */
  private signedIn: Promise<string[]> | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
    private readonly signOutSignal: SignOutSignal,
    private readonly accountList: SignedInList,
    /** This window's own state (the workspace's): which account it chose. */
    private readonly windowState: Pick<vscode.Memento, 'get' | 'update'>,
  ) {
    super();
    log.redactWith(() => [this.current?.token]);
    this.register(
      signOutSignal.onDidSignOutElsewhere(
        (accountUrl) => void this.signedOutElsewhere(accountUrl).finally(() => this.signedOut.fire(accountUrl)),
      ),
    );
    this.register(
      secrets.onDidChange((event) => {
        if (!event.key.startsWith(SECRET_PREFIX)) return;
        this.signedIn = undefined;
        void this.restore();
      }),
    );
    this.register(accountList.onDidChange(() => (this.signedIn = undefined)));
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS.accountUrl) || event.affectsConfiguration(SETTINGS.workspaceAccount)) void this.restore();
      }),
    );
  }

  private get current(): Credentials | undefined {
    return this.currentValue;
  }

  private set current(credentials: Credentials | undefined) {
    if (credentials === this.currentValue) return;
    this.currentValue = credentials;
    this.credentialsChanged.fire();
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** The address and token while a token is stored; undefined when signed out. */
  get credentials(): Credentials | undefined {
    return this.current;
  }

  get accountUrl(): string | undefined {
    return this.current?.accountUrl;
  }

  /**
   * The first `restore()`, started at activation. Activation does not wait for it (reading a
   * secret is a round trip to the window); the gateway's `ready` does, and the views, commands, tools and hovers ask it.
   */
  whenRestored(): Promise<void> {
    this.firstRestore ??= this.restore().catch((error: unknown) => {
      this.log.error('Could not read the token from the secret storage', error);
      void this.publishState();
    });
    return this.firstRestore;
  }

  /**
   * Loads the token for this window's account, if any: the workspace's (see `bindWorkspace`),
   * else the one last chosen in this window, else the one last chosen in any (the setting a new
   * window starts with, and then keeps). A window whose account has no stored token is signed
   * out: it never sends another account's token, and never moves to another account by itself
   * (but a folder opened again whose account was signed out of meanwhile starts as a new window).
   */
  async restore(): Promise<void> {
    if (this.switching) return;
    const began = this.moves;
    const settings = readSettings();
    const chosen = this.windowState.get<string>(WINDOW_ACCOUNT_KEY);
    const first = !this.restoredOnce;
    this.restoredOnce = true;
    let { accountUrl, token } = await this.stored(settings.workspaceAccount || chosen || settings.accountUrl);
    if (!token && first && chosen && !settings.workspaceAccount) ({ accountUrl, token } = await this.stored(settings.accountUrl));
    // Overtaken: what the person did meanwhile stands (and any change after it runs a restore of its own).
    if (this.moves !== began) return;
    if (accountUrl && token) {
      // Kept as this window's choice (VS Code holds it at once; storing it is not waited for, so
      // that nothing heard meanwhile, such as a sign-out, is overtaken by this restore).
      if (!settings.workspaceAccount && chosen !== accountUrl && (!chosen || first))
        void this.windowState.update(WINDOW_ACCOUNT_KEY, accountUrl);
      if (this.current?.token === token && this.current.accountUrl === accountUrl) return;
      this.current = { accountUrl, token };
      this.setState('signedIn');
    } else if (this.current || this.stateValue !== 'signedOut') {
      this.current = undefined;
      this.setState('signedOut');
    } else {
      await this.publishState();
    }
  }

  /** An address from the settings or the window's state, if usable, and the token stored for it. */
  private async stored(address: string | undefined): Promise<{ accountUrl?: string; token?: string }> {
    let accountUrl: string | undefined;
    try {
      accountUrl = address ? parseAccountUrl(address) : undefined;
    } catch (error) {
      this.log.error('The account address in the settings is not usable', error);
    }
    return { accountUrl, token: accountUrl ? await this.secrets.get(secretKey(accountUrl)) : undefined };
  }

  /**
   * The accounts signed in to in this VS Code (a token stored under each address), the one of
   * this window among them. An address on the list whose token is gone (a sign-out this window
   * did not hear) is left out.
   */
  signedInAccounts(): Promise<string[]> {
    // Asked by every view, the status bar and the Accounts menu: read once until something changes.
    const read = (this.signedIn ??= this.readSignedIn());
    read.catch(() => this.signedIn === read && (this.signedIn = undefined));
    return read.then((urls) => [...urls]);
  }

  private async readSignedIn(): Promise<string[]> {
    const listed = [...(await this.accountList.all())];
    if (this.current && !listed.includes(this.current.accountUrl)) {
      listed.push(this.current.accountUrl);
      await this.accountList.add(this.current.accountUrl); // signed in before there was a list
    }
    const tokens = await Promise.all(listed.map((url) => this.secrets.get(secretKey(url))));
    return listed.filter((_, i) => tokens[i]);
  }

  /** An account's address and token: this window's, or another one signed in to; undefined when none is stored. */
  async credentialsFor(accountUrl: string): Promise<Credentials | undefined> {
    if (this.current?.accountUrl === accountUrl) return this.current;
    const token = await this.secrets.get(secretKey(accountUrl));
    return token ? { accountUrl, token } : undefined;
  }

  /** The address the workspace's settings bind it to (`helpdesk.workspaceAccount`), if any and usable. */
  get boundAccountUrl(): string | undefined {
    const bound = readSettings().workspaceAccount;
    try {
      return bound ? parseAccountUrl(bound) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Makes a signed-in account this window's (while no workspace binds it), and the one a new
   * window starts with; other windows stay on theirs. False when it has no token (signed out meanwhile).
   */
  async switchTo(accountUrl: string): Promise<boolean> {
    this.moves += 1;
    if (!(await this.secrets.get(secretKey(accountUrl)))) return false;
    await this.windowState.update(WINDOW_ACCOUNT_KEY, accountUrl);
    await vscode.workspace.getConfiguration().update(SETTINGS.accountUrl, accountUrl, vscode.ConfigurationTarget.Global);
    await this.restore();
    return true;
  }

  /** Binds this workspace to an account (its address goes into the workspace's settings), or unbinds it. */
  async bindWorkspace(accountUrl: string | undefined): Promise<void> {
    this.moves += 1;
    await vscode.workspace.getConfiguration().update(SETTINGS.workspaceAccount, accountUrl, vscode.ConfigurationTarget.Workspace);
    await this.restore();
  }

  /** Stores a token the service accepted (see `Gateway.signIn`) and makes it the current one. */
  async save(accountUrl: string, token: string): Promise<void> {
    this.moves += 1;
    // A workspace bound to another account stays on it: the new one is stored, and listed.
    const bound = this.boundAccountUrl;
    const here = bound === undefined || bound === accountUrl;
    // The same account and token again keep their object: the gateway goes on with its calls.
    if (here && (this.current?.accountUrl !== accountUrl || this.current.token !== token)) this.current = { accountUrl, token };
    // Storing the secret and then the address each fire an event that calls restore(); in
    // between, the address still names the previous account, whose token restore() would load.
    this.switching = true;
    try {
      await this.windowState.update(WINDOW_ACCOUNT_KEY, accountUrl);
      await this.secrets.store(secretKey(accountUrl), token);
      await vscode.workspace.getConfiguration().update(SETTINGS.accountUrl, accountUrl, vscode.ConfigurationTarget.Global);
    } finally {
      this.switching = false;
    }
    // The list the windows share only names the accounts: its failure (a pipe or a link in its
    // file's place) is logged, and the sign-in, made already, stands.
    await this.accountList
      .add(accountUrl)
      .catch((error: unknown) => this.log.error(`Could not add ${accountUrl} to the account list`, error));
    this.signedIn = undefined;
    this.log.info(`Signed in to ${accountUrl}`);
    if (here) this.setState('signedIn');
    else this.changed.fire();
  }

  /** Signs out of an account (this window's when none is named): its token is deleted, in every window. */
  async signOut(accountUrl = this.accountUrl): Promise<void> {
    if (!accountUrl) return;
    this.moves += 1;
    const mine = accountUrl === this.accountUrl;
    if (mine) this.current = undefined;
    await this.secrets.delete(secretKey(accountUrl));
    // As at sign-in: the token is gone, and the sign-out is told, whatever the list's file does.
    await this.accountList
      .remove(accountUrl)
      .catch((error: unknown) => this.log.error(`Could not remove ${accountUrl} from the account list`, error));
    this.signedIn = undefined;
    this.log.info(`Signed out of ${accountUrl}`);
    if (mine) this.setState('signedOut');
    else this.changed.fire();
    this.signedOut.fire(accountUrl);
    await this.signOutSignal
      .announce(accountUrl)
      .catch((error: unknown) => this.log.error('Could not tell other windows of the sign-out', error));
  }

  /**
   * Another window signed out of `accountUrl`. This window's secret storage may still hold the
   * token it was using (see SignOutSignal): delete that copy too, or a later restore() would
   * bring it back. A token stored since, by a new sign-in, stays.
   */
  private async signedOutElsewhere(accountUrl: string): Promise<void> {
    const previous = this.current;
    if (previous?.accountUrl !== accountUrl) return;
    this.moves += 1;
    this.current = undefined;
    const key = secretKey(accountUrl);
    if ((await this.secrets.get(key)) === previous.token) await this.secrets.delete(key);
    // Only now, so that whoever sees the state also sees the stale copy gone. The delete's own
    // onDidChange may have run restore(), which publishes it first.
    this.log.info('Signed out in another window');
    if (this.stateValue !== 'signedOut') this.setState('signedOut');
  }

  /** What the last call met, from the gateway: the service took the token, refused it, or was not reached. */
  noteReachability(state: 'signedIn' | 'rejected' | 'unreachable'): void {
    if (this.current && this.stateValue !== state) this.setState(state);
  }

  private setState(state: SessionState): void {
    this.signedIn = undefined; // this window's account may be one the list does not hold yet
    this.stateValue = state;
    void this.publishState();
    this.changed.fire();
  }

  private async publishState(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'helpdesk.state', this.stateValue);
    await vscode.commands.executeCommand(
      'setContext',
      'helpdesk.signedIn',
      this.stateValue === 'signedIn' || this.stateValue === 'unreachable',
    );
  }
}

function secretKey(accountUrl: string): string {
  return SECRET_PREFIX + accountUrl;
}
