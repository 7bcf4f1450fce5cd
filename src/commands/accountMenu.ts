import vscode = require('vscode');
import type { Session } from '../auth/session';

const { l10n } = vscode;

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
