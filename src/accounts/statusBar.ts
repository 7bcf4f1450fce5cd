import vscode = require('vscode');
import type { Session } from './session';

const { l10n } = vscode;

/** The account in the status bar: its address's first label, or what is wrong; opens the account menu. */
export class AccountStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('helpdesk.account', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;
  private updates = 0;

  constructor(
    private readonly session: Session,
    onDidChangeAccounts: vscode.Event<void>,
  ) {
    this.item.name = l10n.t('Helpdesk Account');
    this.item.command = 'helpdesk.accountMenu';
    this.subscription = vscode.Disposable.from(
      session.onDidChange(() => void this.update()),
      onDidChangeAccounts(() => void this.update()),
    );
    void this.update();
  }

  private async update(): Promise<void> {
    const update = ++this.updates;
    this.show();
    // With several accounts, the tooltip names them all (the click switches).
    const accounts = await this.session.signedInAccounts().catch(() => []);
    if (update === this.updates && accounts.length > 1 && this.session.accountUrl) {
      const { tooltip } = this.item; // show()'s text; a MarkdownString's text is its value
      const shown = typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
      this.item.tooltip = `${shown}\n${l10n.t('Signed in to: {0}. Click to switch.', accounts.map((url) => new URL(url).host).join(', '))}`;
    }
  }

  private show(): void {
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
