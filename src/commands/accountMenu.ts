import vscode = require('vscode');
import type { Session } from '../auth/session';
import type { Identity } from '../identity/identity';
import { pickText } from '../text/serverText';

const { l10n } = vscode;

/** Who you are in the account (and Set Who I Am…), open the web app, sign in to another account, or sign out. */
export async function showAccountMenu(session: Session, identity: Identity): Promise<void> {
  const accountUrl = session.accountUrl;
  type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> };
  const items: Item[] = [];
  if (accountUrl) {
    const me = identity.me(accountUrl);
    const setWhoIAm = () => vscode.commands.executeCommand('helpdesk.setWhoIAm');
    if (me) {
      const nick = pickText(me.nick, 40);
      items.push({
        label: `$(account) ${nick ? l10n.t('You are user {0} · {1}', me.id, nick) : l10n.t('You are user {0}', me.id)}`,
        description: me.source === 'set' ? l10n.t('set by you · change…') : l10n.t('learned from a post you filed · change…'),
        run: setWhoIAm,
      });
    } else {
      items.push({ label: `$(account) ${l10n.t('Set Who I Am…')}`, description: l10n.t('not known yet: Assigned to Me needs it'), run: setWhoIAm });
    }
    items.push({ label: `$(link-external) ${l10n.t('Open the Web App')}`, description: accountUrl, run: () => vscode.env.openExternal(vscode.Uri.parse(`${accountUrl}/app`)) });
  }
  items.push({ label: `$(sign-in) ${accountUrl ? l10n.t('Sign In to Another Account…') : l10n.t('Sign In…')}`, run: () => vscode.commands.executeCommand('helpdesk.signIn') });
  if (accountUrl) items.push({ label: `$(sign-out) ${l10n.t('Sign Out')}`, run: () => vscode.commands.executeCommand('helpdesk.signOut') });
  const picked = await vscode.window.showQuickPick(items, { title: l10n.t('Helpdesk Account') });
  await picked?.run();
}
