/**
 * DraftSender with the real account, draft store and notifier against a stand-in, for the unit
 * tests: the gateway is a plain object that hands out the rig's accounts; the editor's part is
 * fakeVscode.ts.
 */
import { HelpdeskClient } from '../../src/api';
import { DraftStore } from '../../src/drafts/drafts';
import { DraftSender } from '../../src/drafts/sendDraft';
import { Account, type AccountParts } from '../../src/api/account';
import type { Gateway } from '../../src/accounts/gateway';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import type { StandIn } from '../server';
import type { Memento } from './fakeVscode';
import { MemoryFolder, memoryState } from './memoryState';

export interface Rig {
  url: string;
  sender: DraftSender;
  drafts: DraftStore;
  /** This window's account, while signed in. */
  account(): Account | undefined;
  signIn(url?: string): void;
  /** Signed in to the stand-in's account too, but not as this window's account. */
  signInElsewhere(): void;
  signOut(): void;
}

/** `state` is the global state, `folder` the drafts' and `presence` the windows' (shared by the windows of one test, if it makes several rigs). */
export function rig(server: StandIn, state: Memento = memoryState(), presence = new MemoryFolder(), folder = new MemoryFolder()): Rig {
  let account: Account | undefined;
  let elsewhere: Account | undefined;
  const gateway = {
    get current() {
      return account && { url: account.url, usable: true, account };
    },
    accountFor: async (url: string) => (account?.url === url ? account : elsewhere?.url === url ? elsewhere : undefined),
  } as unknown as Gateway;
  const log = new Log();
  const drafts = new DraftStore(state, folder, presence);
  const api = new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
  const parts: AccountParts = {
    api: () => api,
    signal: new AbortController().signal,
    knowledge: new ListKnowledge(state, server.url),
    log: () => undefined,
  };
  return {
    url: server.url,
    sender: new DraftSender(gateway, drafts, new Notifier(log), log),
    drafts,
    account: () => account,
    signIn: (url = server.url) => void (account = new Account(url, parts)),
    signInElsewhere: () => void (elsewhere = new Account(server.url, parts)),
    signOut: () => void (account = undefined),
  };
}
