import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { Gateway } from '../../src/accounts/gateway';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Identity } from '../../src/accounts/identity';
import { Log } from '../../src/log';
import { postTools, type PostTools } from '../../src/agent/tools/postTools';
import type { StandIn } from '../server';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';

/** The read tools signed in to a stand-in, the editor faked. */
export function postToolsRig(server: StandIn) {
  fake.reset();
  fake.config.set('helpdesk.accountUrl', server.url);
  fake.config.set('helpdesk.requestTimeoutSeconds', 3);
  const secrets = new Secrets();
  secrets.data.set(`helpdesk.token:${server.url}`, server.token);
  const session = new Session(secrets, new Log(), new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  const store = new HelpdeskStore(new Log());
  const gateway = new Gateway(session, new Log(), memoryState(), store);
  const tools: PostTools = postTools(gateway, new Identity(memoryState()));
  return { session, gateway, store, tools };
}

export type Token = {
  isCancellationRequested: boolean;
  onCancellationRequested: (listener: (e: unknown) => unknown) => { dispose(): void };
};
export const never: Token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
