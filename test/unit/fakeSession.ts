import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { Log } from '../../src/log';
import type { StandIn } from '../server';
import { EventEmitter } from './fakeVscode';
import { MemoryAccountList, memoryState } from './memoryState';

/** What a Session needs of the editor, faked: the secret storage and the sign-out signal. */

export class Secrets {
  readonly data = new Map<string, string>();
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;
  get = (key: string) => Promise.resolve(this.data.get(key));
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    this.changed.fire({ key });
  }
}

export class Signal {
  readonly heard = new EventEmitter<string>();
  readonly onDidSignOutElsewhere = this.heard.event;
  readonly announced: string[] = [];
  announce = (accountUrl: string) => Promise.resolve(void this.announced.push(accountUrl));
}

/** Secrets holding the token of each stand-in, as signing in to each would store it. */
export function signedInSecrets(...servers: StandIn[]): Secrets {
  const secrets = new Secrets();
  for (const server of servers) secrets.data.set(`helpdesk.token:${server.url}`, server.token);
  return secrets;
}

/** A window's session on `secrets` (the sign-out signal and the account list faked), once restored. */
export async function restoredSession(secrets: Secrets, log = new Log()): Promise<Session> {
  const session = new Session(secrets, log, new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  await session.whenRestored();
  return session;
}
