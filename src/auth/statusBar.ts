import vscode = require('vscode');
import type { Session } from './session';

const { l10n } = vscode;

/** The account in the status bar: its address's first label, or what is wrong; opens the account menu. */
export class AccountStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('helpdesk.account', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly session: Session) {
    this.item.name = l10n.t('Helpdesk Account');
    this.item.command = 'helpdesk.accountMenu';
    this.subscription = session.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const { state, accountUrl } = this.session;
    if (!accountUrl) {
      this.item.hide();
      return;
    }
    const { host, hostname } = new URL(accountUrl);
    // The account prefix is the first label of a name; an address like 127.0.0.1 is shown whole.
    const name = /^[\d.]+$|^\[|^localhost$/i.test(hostname) ? host : (hostname.split('.')[0] ?? host);
    const icons = { signedIn: '$(comment-discussion)', rejected: '$(warning)', unreachable: '$(debug-disconnect)', signedOut: '' };
    this.item.text = `${icons[state]} ${name}`;
    this.item.tooltip =
      state === 'rejected'
        ? l10n.t('Helpdesk: the token for {0} was rejected. Click to sign in again.', host)
        : state === 'unreachable'
          ? l10n.t('Helpdesk: {0} cannot be reached.', host)
          : l10n.t('Helpdesk: signed in to {0}', host);
    this.item.backgroundColor = state === 'rejected' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** Open the web app, sign in to another account, or sign out. */
export async function showAccountMenu(session: Session): Promise<void> {
  const accountUrl = session.accountUrl;
  type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> };
  const items: Item[] = [];
  if (accountUrl) {
    items.push({ label: `$(link-external) ${l10n.t('Open the Web App')}`, description: accountUrl, run: () => vscode.env.openExternal(vscode.Uri.parse(`${accountUrl}/app`)) });
  }
  items.push({ label: `$(sign-in) ${accountUrl ? l10n.t('Sign In to Another Account…') : l10n.t('Sign In…')}`, run: () => vscode.commands.executeCommand('helpdesk.signIn') });
  if (accountUrl) items.push({ label: `$(sign-out) ${l10n.t('Sign Out')}`, run: () => vscode.commands.executeCommand('helpdesk.signOut') });
  const picked = await vscode.window.showQuickPick(items, { title: l10n.t('Helpdesk Account') });
  await picked?.run();
}
