/**
 * A window as the views and the doors read it, faked: fixed on one account and its store (or
 * signed out), and news that has nothing to tell. For the views' tests, which need no session.
 */
import type { SignedIn, WindowAccount } from '../../src/accounts/signedIn';
import type { Account } from '../../src/api/account';
import type { HelpdeskStore } from '../../src/store/helpdeskStore';
import type { PostsNews } from '../../src/views/postsTree';
import { EventEmitter } from './fakeVscode';

/** A window signed in to `account` (none: signed out), its rows in `store`, its token usable; `changed` says when it is another. */
export function windowOn(
  account: Account | undefined,
  store: HelpdeskStore,
  changed = new EventEmitter<void>(),
): { window: WindowAccount; signedIn: SignedIn | undefined } {
  const signedIn: SignedIn | undefined = account && { url: account.url, usable: true, account, store };
  const window: WindowAccount = {
    current: signedIn,
    ready: async () => signedIn,
    onDidChange: changed.event,
    signedInAccounts: async () => (account ? [account.url] : []),
  };
  return { window, signedIn };
}

/** The news watcher's side of the Helpdesk view with no news (and `changed` to say there is some). */
export function noNews(changed = new EventEmitter<void>()): PostsNews {
  return { onDidChange: changed.event, itemOf: () => undefined, isSeen: () => undefined, posts: () => [], status: { off: false } };
}
