import type vscode = require('vscode');
import type { Session } from './session';

/** This window's account, as what shows it sees it. */
export interface WindowAccount {
  readonly url: string;
  /**
   * Signed in and its token not rejected: its rows and posts are shown. While the service is
   * unreachable it still is (the rows read stay); a rejected token is explained by a welcome view.
   */
  readonly usable: boolean;
}

/**
 * The one answer to "which account now, if any" for the views, prompts, hovers, post documents
 * and the drafts offer: they depend on this, never on the session's credentials or state.
 * (With several accounts at once, VS Code's AuthenticationProvider is the convention, see
 * accountsProvider.ts; this stays the window's one.)
 */
export interface AccountNow {
  /** This window's account once the session is restored; undefined while signed out. */
  now(): Promise<WindowAccount | undefined>;
  /** The same answer without waiting: undefined while no token is known yet (before the first restore) or signed out. */
  readonly current: WindowAccount | undefined;
  /** Fires when the answer, or the accounts signed in to, may have changed (every change of the session). */
  readonly onDidChange: vscode.Event<void>;
  /** The accounts signed in to in this VS Code, this window's among them. */
  signedInAccounts(): Promise<string[]>;
}

/** The session's answer. */
export function accountNowOf(session: Session): AccountNow {
  const current = (): WindowAccount | undefined => {
    const credentials = session.credentials;
    return credentials && { url: credentials.accountUrl, usable: session.state !== 'rejected' };
  };
  return {
    async now() {
      await session.whenRestored();
      return current();
    },
    get current() {
      return current();
    },
    onDidChange: session.onDidChange,
    signedInAccounts: () => session.signedInAccounts(),
  };
}
