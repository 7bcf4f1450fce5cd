/**
 * The stand-in server: a local, faithful implementation of the service's API on 127.0.0.1,
 * for tests and the demo. See README.md in this folder for the choices it makes.
 */
import { seedDemo } from './demoData';
import { seedLargeAccount } from './generator';
import { loadStore, persist } from './persistence';
import { StandInServer, type ResponseLogEntry, type StandIn } from './server';
import { PROFILES, type Profile, type ProfileName } from './profile';
import { randomToken, Store } from './store';

export interface StandInOptions {
  /** Default 0 = a free port. */
  port?: number;
  /** Default: 32 random hex characters + '/' + prefix (tokens look like SECRET/prefix). */
  token?: string;
  /** Account prefix, default 'acme'. */
  prefix?: string;
  /** Default 'empty'. `{posts: N}` is the large-account generator. Ignored when `dataFile` exists and has the account. */
  seed?: 'demo' | 'empty' | { posts: number; clients?: number };
  /** Load state from it when it exists; persist after every change (temporary file + rename). */
  dataFile?: string;
  /** Called when each API or control exchange ends (for a console log); the token is redacted. */
  onResponse?: (entry: ResponseLogEntry) => void;
  /** Default 'likely' (see profile.ts); a Profile of its own mixes the profiles' behaviours. */
  profile?: ProfileName | Profile;
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const prefix = options.prefix ?? 'acme';
  const store = (options.dataFile ? loadStore(options.dataFile) : undefined) ?? new Store();
  let owner = store.accounts.get(prefix)?.users[0];
  if (!owner) {
    const token = options.token ?? randomToken(prefix);
    owner = store.createAccount({ prefix, login: 'owner', email: `owner@${prefix}.example`, token }).user;
    const seed = options.seed ?? 'empty';
    if (seed === 'demo') seedDemo(store, prefix);
    else if (typeof seed === 'object') seedLargeAccount(store, prefix, seed);
  } else if (options.token && options.token !== owner.api_token) {
    store.setToken(owner, options.token);
  }
  const stopSaving = options.dataFile ? persist(store, options.dataFile) : undefined;
  const profile = typeof options.profile === 'object' ? options.profile : PROFILES[options.profile ?? 'likely'];
  const server = new StandInServer({ store, profile, token: owner.api_token, prefix, onResponse: options.onResponse, onClose: stopSaving });
  try {
    await server.listen(options.port ?? 0);
  } catch (error) {
    stopSaving?.();
    throw error;
  }
  return server;
}

export type { StandIn, RecordedRequest, ResponseLogEntry } from './server';
export type { FaultRule } from './faults';
export { Store, type NewAccountOptions } from './store';
export type * from './records';
export { SCHEMAS, COLLECTIONS, POST_KINDS, TASK_KINDS, type CollectionName } from './fields';
export { formatTime } from './time';
export { PROFILES, isProfileName, type Profile, type ProfileName } from './profile';
export { DEMO_NOW } from './demoData';
