import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import type { Session } from './session';

export const AUTH_PROVIDER_ID = 'helpdesk';

/**
 * The helpdesk accounts where VS Code shows accounts (the Accounts menu): each account signed in
 * to is listed, and signing out there signs out of it. Signing in there runs Sign In…. It hands no
 * token to anyone: a session's accessToken is empty, as the token goes only to its own account's
 * address, by this extension (another extension asking for a helpdesk session gets the address).
 */
export class AccountsProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.changed.event;
  private listed: readonly string[] = [];

  constructor(
    private readonly session: Session,
    onDidChangeAccounts: vscode.Event<void>,
  ) {
    super();
    const update = () => void this.update();
    this.register(session.onDidChange(update));
    this.register(onDidChangeAccounts(update));
    update();
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    return (await this.session.signedInAccounts()).map(sessionOf);
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const before = new Set(await this.session.signedInAccounts());
    await vscode.commands.executeCommand('helpdesk.signIn');
    const added = (await this.session.signedInAccounts()).find((url) => !before.has(url)) ?? this.session.accountUrl;
    if (!added) throw new Error(vscode.l10n.t('Not signed in.'));
    return sessionOf(added);
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.session.signOut(sessionId);
  }

  /** Tells VS Code which accounts came and went. */
  private async update(): Promise<void> {
    const now = await this.session.signedInAccounts().catch(() => this.listed);
    const added = now.filter((url) => !this.listed.includes(url)).map(sessionOf);
    const removed = this.listed.filter((url) => !now.includes(url)).map(sessionOf);
    this.listed = now;
    if (added.length > 0 || removed.length > 0) this.changed.fire({ added, removed, changed: [] });
  }
}

function sessionOf(accountUrl: string): vscode.AuthenticationSession {
  return { id: accountUrl, accessToken: '', account: { id: accountUrl, label: new URL(accountUrl).host }, scopes: [] };
}

/** Registers the provider with VS Code (several accounts at once). */
export function registerAccountsProvider(session: Session, onDidChangeAccounts: vscode.Event<void>): vscode.Disposable {
  const provider = new AccountsProvider(session, onDidChangeAccounts);
  const registration = vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Helpdesk', provider, {
    supportsMultipleAccounts: true,
  });
  return vscode.Disposable.from(registration, provider);
}
