import type vscode = require('vscode');
import type { Session } from './accounts/session';
import type { ReferenceAccounts } from './editor/referenceOptions';
import type { DraftStore } from './drafts/drafts';
import type { DraftSender } from './drafts/sendDraft';
import type { Gateway } from './accounts/gateway';
import type { Log } from './log';
import type { Notifier } from './ui/notifier';
import type { BranchPosts } from './branch/branchPosts';

/** What commands and actions work with; made once, at activation (see extension.ts). */
export interface Services {
  readonly session: Session;
  /** The way to the service, and this window's account now, or none (what views, prompts and hovers go by). */
  readonly gateway: Gateway;
  readonly drafts: DraftStore;
  readonly sender: DraftSender;
  readonly ui: Notifier;
  readonly log: Log;
  /** The accounts post references name (this window's, and all signed in to), as the in-code providers see them. */
  readonly referenceAccounts: () => ReferenceAccounts;
  /** The post each repository's branch is about, and the current one. */
  readonly branchPosts: BranchPosts;
  /** The extension's global state (the last token prefix, for the sign-in box). */
  readonly state: vscode.Memento;
}

/** What writing actions need: drafts, and the sender that files them. */
export type WriteServices = Pick<Services, 'drafts' | 'sender' | 'ui'>;
