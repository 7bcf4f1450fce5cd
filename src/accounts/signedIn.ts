// The one door to this window's signed-in account. Whatever acts on it (the command table, the
// trees' roots, the post documents, the hover, the agent's tools, the MCP endpoint) is handed its
// context by `withSignedIn`, beside what it does signed out; what is drawn or decided at once (a
// row's facts, a view's description) asks `withSignedInNow`. Nothing else waits for the session or
// reads the window's account (the layers test holds that): readiness is decided here, once.
import type vscode = require('vscode');
import type { Account } from '../api/account';
import type { HelpdeskStore } from '../store/helpdeskStore';

/** This window's account signed in to, with what views, commands, tools and the watcher read from it. */
export interface SignedIn {
  readonly url: string;
  /** The way to it: every read and write of this window's account goes through it. */
  readonly account: Account;
  /** What the views show of it. */
  readonly store: HelpdeskStore;
  /**
   * Its token was not rejected: its rows and posts are shown. While the service is unreachable
   * it still is (the rows read stay); a rejected token is explained by a welcome view.
   */
  readonly usable: boolean;
}

/**
 * Which account this window is on: the one answer for views, commands, tools, hovers, post
 * documents and the watcher. (With several accounts at once, VS Code's AuthenticationProvider is
 * the convention, see accountsProvider.ts; this stays the window's one.) Read it through
 * `withSignedIn` and `withSignedInNow`.
 */
export interface WindowAccount {
  /** Signed in, without waiting: undefined before the session's first restore and while signed out. */
  readonly current: SignedIn | undefined;
  /** The same, once the session was restored (at once after that). */
  ready(): Promise<SignedIn | undefined>;
  /** Fires when the answer, or the accounts signed in to, may have changed (every change of the session). */
  readonly onDidChange: vscode.Event<void>;
  /** The accounts signed in to in this VS Code, this window's among them. */
  signedInAccounts(): Promise<string[]>;
}

/**
 * `handler` with the window's signed-in context once the session was restored, else `signedOut`:
 * made once, called with whatever the door passes (the command table wraps every handler so).
 */
export function withSignedIn<A extends unknown[], R, S = R>(
  window: Pick<WindowAccount, 'ready'>,
  handler: (signedIn: SignedIn, ...args: A) => R | PromiseLike<R>,
  signedOut: (...args: NoInfer<A>) => S | PromiseLike<S>,
): (...args: A) => Promise<R | S> {
  return async (...args) => {
    const signedIn = await window.ready();
    return signedIn ? handler(signedIn, ...args) : signedOut(...args);
  };
}

/** The same at once, as the window is now (signed out before the session's first restore): for what is drawn or decided without waiting. */
export function withSignedInNow<A extends unknown[], R, S = R>(
  window: Pick<WindowAccount, 'current'>,
  handler: (signedIn: SignedIn, ...args: A) => R,
  signedOut: (...args: NoInfer<A>) => S,
): (...args: A) => R | S {
  return (...args) => {
    const signedIn = window.current;
    return signedIn ? handler(signedIn, ...args) : signedOut(...args);
  };
}
