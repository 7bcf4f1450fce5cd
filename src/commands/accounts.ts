import vscode = require('vscode');
import type { Session } from '../accounts/session';
import type { Notifier } from '../ui/notifier';

const { l10n } = vscode;

/**
 * Switch Account… to a signed-in account (an address as the argument: the menu's choice).
 * Windows no workspace binds take it; a workspace bound to another account is asked first,
 * as switching there means binding it anew.
 */
export async function switchAccount(session: Session, ui: Notifier, accountUrl: string): Promise<void> {
  if (accountUrl === session.accountUrl) return;
  const bound = session.boundAccountUrl;
  if (bound && bound !== accountUrl) {
    const useHere = l10n.t('Use It for This Workspace');
    const choice = await ui.info(
      l10n.t('This workspace uses {0} (its settings say so). Use {1} for this workspace instead?', bound, accountUrl),
      { modal: true },
      useHere,
    );
    if (choice !== useHere) return;
    if (!(await session.signedInAccounts()).includes(accountUrl)) return void ui.info(l10n.t('You are not signed in to {0}.', accountUrl));
    await session.bindWorkspace(accountUrl);
    return;
  }
  if (!(await session.switchTo(accountUrl))) void ui.info(l10n.t('You are not signed in to {0}.', accountUrl));
}

/** Binds the workspace to this window's account: its address (never the token) into the workspace settings. */
export async function useAccountForWorkspace(session: Session, ui: Notifier): Promise<void> {
  const accountUrl = session.accountUrl;
  if (!accountUrl) return void ui.info(l10n.t('Sign in first: the workspace is bound to an account you are signed in to.'));
  if (!vscode.workspace.workspaceFolders?.length)
    return void ui.info(l10n.t('Open a folder or workspace first: the binding is kept in its settings.'));
  await session.bindWorkspace(accountUrl);
  void ui.info(
    l10n.t('This workspace now uses {0}. Its address is in the workspace settings; the token stays in the secret storage.', accountUrl),
  );
}

export async function stopUsingAccountForWorkspace(session: Session): Promise<void> {
  await session.bindWorkspace(undefined);
}
