import vscode = require('vscode');
import type { Session } from '../accounts/session';
import type { Identity } from '../accounts/identity';
import { pickText } from '../text/serverText';

const { l10n } = vscode;

type Item = vscode.QuickPickItem & { run?: () => Thenable<unknown> };

/** "You are user 7 · anna" where known. */
function whoText(identity: Identity, accountUrl: string): string | undefined {
  const me = identity.me(accountUrl);
  if (!me) return undefined;
  const nick = pickText(me.nick, 40);
  return nick ? l10n.t('You are user {0} · {1}', me.id, nick) : l10n.t('You are user {0}', me.id);
}

/**
 * The account menu (the status bar item, Switch Account…): the accounts signed in to, this
 * window's checked (another one picked switches to it); Sign In to Another Account…; and for this
 * window's account, who you are in it, its web app, binding this workspace to it, Sign Out (and
 * Sign Out of Another Account… where there are others).
 */
export async function showAccountMenu(
  session: Pick<Session, 'accountUrl' | 'boundAccountUrl' | 'signedInAccounts'>,
  identity: Identity,
): Promise<void> {
  const current = session.accountUrl;
  const bound = session.boundAccountUrl;
  const accounts = await session.signedInAccounts();
  const items: Item[] = [];
  const others = accounts.filter((url) => url !== current);
  if (others.length > 0) {
    items.push({ label: l10n.t('Accounts'), kind: vscode.QuickPickItemKind.Separator });
    for (const accountUrl of accounts) {
      const here = accountUrl === current;
      items.push({
        label: `${here ? '$(check)' : '$(blank)'} ${new URL(accountUrl).host}`,
        description: [whoText(identity, accountUrl), accountUrl === bound ? l10n.t("this workspace's account") : undefined]
          .filter(Boolean)
          .join(' · '),
        detail: accountUrl,
        run: here ? undefined : () => vscode.commands.executeCommand('helpdesk.switchAccount', accountUrl),
      });
    }
  }
  if (current) {
    if (others.length > 0) items.push({ label: new URL(current).host, kind: vscode.QuickPickItemKind.Separator });
    const setWhoIAm = () => vscode.commands.executeCommand('helpdesk.setWhoIAm');
    const me = identity.me(current);
    const who = whoText(identity, current);
    if (me && who) {
      items.push({
        label: `$(account) ${who}`,
        description: me.source === 'set' ? l10n.t('set by you · change…') : l10n.t('learned from a post you filed · change…'),
        run: setWhoIAm,
      });
    } else {
      items.push({
        label: `$(account) ${l10n.t('Set Who I Am…')}`,
        description: l10n.t('not known yet: Assigned to Me needs it'),
        run: setWhoIAm,
      });
    }
    items.push({
      label: `$(link-external) ${l10n.t('Open the Web App')}`,
      description: current,
      run: () => vscode.env.openExternal(vscode.Uri.parse(`${current}/app`)),
    });
    if (bound === current) {
      items.push({
        label: `$(unlock) ${l10n.t('Stop Using This Account for This Workspace')}`,
        run: () => vscode.commands.executeCommand('helpdesk.stopUsingAccountForWorkspace'),
      });
    } else if (vscode.workspace.workspaceFolders?.length) {
      items.push({
        label: `$(lock) ${l10n.t('Use This Account for This Workspace')}`,
        description: l10n.t('its address (never the token) goes into the workspace settings'),
        run: () => vscode.commands.executeCommand('helpdesk.useAccountForWorkspace'),
      });
    }
  }
  items.push({
    label: `$(sign-in) ${current || accounts.length > 0 ? l10n.t('Sign In to Another Account…') : l10n.t('Sign In…')}`,
    run: () => vscode.commands.executeCommand('helpdesk.signIn'),
  });
  if (current)
    items.push({
      label: `$(sign-out) ${l10n.t('Sign Out')}`,
      description: new URL(current).host,
      run: () => vscode.commands.executeCommand('helpdesk.signOut'),
    });
  if (others.length > 0)
    items.push({ label: `$(sign-out) ${l10n.t('Sign Out of Another Account…')}`, run: () => signOutOfAnother(others) });
  const picked = await vscode.window.showQuickPick(items, { title: l10n.t('Helpdesk Account') });
  await picked?.run?.();
}

async function signOutOfAnother(accounts: readonly string[]): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    accounts.map((accountUrl) => ({ label: new URL(accountUrl).host, detail: accountUrl, accountUrl })),
    { title: l10n.t('Sign Out of Which Account?') },
  );
  if (picked) await vscode.commands.executeCommand('helpdesk.signOut', picked.accountUrl);
}
