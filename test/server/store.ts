/**
 * The stand-in's state: accounts, their users (one token each) and their records. Plain
 * TypeScript with no HTTP in it, so tests can seed and inspect it directly. Records handed out
 * are the live stored objects; change them through `update` so listeners (persistence) hear it.
 */
import { randomBytes } from 'node:crypto';
import { COLLECTIONS, SCHEMAS, type CollectionName } from './fields';
import type { Account, RecordTypes, RecordValues, StoreSnapshot, User } from './records';
import { MonotonicClock } from './time';

export interface NewAccountOptions {
  prefix: string;
  login?: string | null;
  email?: string | null;
  /** The first user's token; default: 32 random hex characters + '/' + prefix. */
  token?: string;
  initial_module?: string | null;
  from_partner?: string | null;
}

/** Field names of each collection, in schema order, without `id`. */
const FIELD_NAMES = Object.fromEntries(COLLECTIONS.map((c) => [c, Object.keys(SCHEMAS[c]).filter((f) => f !== 'id')])) as Record<
  CollectionName,
  string[]
>;

type IdCounter = CollectionName | 'users';

export function randomToken(prefix: string): string {
  return `${randomBytes(16).toString('hex')}/${prefix}`;
}

function emptyRecords(): Account['records'] {
  return { clients: new Map(), posts: new Map(), deals: new Map(), contacts: new Map(), contact_lists: new Map() };
}

function copyValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}

/** Later of two date-times (both as written by the service or by a test). */
function later(a: unknown, b: string): string {
  return typeof a === 'string' && Date.parse(a) >= Date.parse(b) ? a : b;
}

export class Store {
  readonly clock: MonotonicClock;
  private readonly accountMap = new Map<string, Account>();
  private readonly tokenMap = new Map<string, { account: Account; user: User }>();
  private nextIds: Record<IdCounter, number> = { clients: 1, posts: 1, deals: 1, contacts: 1, contact_lists: 1, users: 1 };
  private readonly listeners = new Set<() => void>();
  private batchDepth = 0;
  private dirty = false;

  constructor(options: { now?: () => number } = {}) {
    this.clock = new MonotonicClock(options.now);
  }

  get accounts(): ReadonlyMap<string, Account> {
    return this.accountMap;
  }

  account(prefix: string): Account {
    const account = this.accountMap.get(prefix);
    if (!account) throw new Error(`No account with prefix ${prefix}`);
    return account;
  }

  /** The prefix itself when free, else the first free one of `prefix-2`, `prefix-3`, … */
  freePrefix(wanted: string): string {
    if (!this.accountMap.has(wanted)) return wanted;
    let n = 2;
    while (this.accountMap.has(`${wanted}-${n}`)) n++;
    return `${wanted}-${n}`;
  }

  createAccount(options: NewAccountOptions): { account: Account; user: User } {
    if (this.accountMap.has(options.prefix)) throw new Error(`Prefix ${options.prefix} is taken`);
    const account: Account = {
      prefix: options.prefix,
      initial_module: options.initial_module ?? null,
      from_partner: options.from_partner ?? null,
      created_at: this.clock.now(),
      users: [],
      records: emptyRecords(),
    };
    this.accountMap.set(account.prefix, account);
    const user = this.addUser(account.prefix, options);
    return { account, user };
  }

  addUser(prefix: string, options: { login?: string | null; email?: string | null; token?: string }): User {
    const account = this.account(prefix);
    const token = options.token ?? randomToken(prefix);
    if (this.tokenMap.has(token)) throw new Error('That token belongs to another user already');
    const user: User = {
      id: this.nextId('users'),
      login: options.login ?? null,
      email: options.email ?? null,
      api_token: token,
      created_at: this.clock.now(),
    };
    account.users.push(user);
    this.tokenMap.set(token, { account, user });
    this.changed();
    return user;
  }

  /** Gives a user a new token; the old one stops working. */
  setToken(user: User, token: string): void {
    const owner = this.tokenMap.get(token);
    if (owner && owner.user !== user) throw new Error('That token belongs to another user already');
    const entry = this.tokenMap.get(user.api_token);
    if (!entry) throw new Error('Unknown user');
    this.tokenMap.delete(user.api_token);
    user.api_token = token;
    this.tokenMap.set(token, entry);
    this.changed();
  }

  authenticate(token: string): { account: Account; user: User } | undefined {
    return this.tokenMap.get(token);
  }

  /** Every record of a collection, in id order. */
  list<C extends CollectionName>(prefix: string, collection: C): RecordTypes[C][] {
    return [...this.account(prefix).records[collection].values()];
  }

  get<C extends CollectionName>(prefix: string, collection: C, id: number): RecordTypes[C] | undefined {
    return this.account(prefix).records[collection].get(id);
  }

  /**
   * Adds a record with every schema field (defaults where not given), a new id and timestamps
   * (`created_at`/`updated_at` may be given, for seeding). A post with `post_id` is a comment:
   * its parent's `comments_cache` goes up and the parent is touched; a post with a client
   * counts in the client's `posts_count` and `last_activity`.
   */
  insert<C extends CollectionName>(prefix: string, collection: C, values: RecordValues<C>): RecordTypes[C] {
    const account = this.account(prefix);
    const schema = SCHEMAS[collection];
    const given = values as Record<string, unknown>;
    const now = typeof given.created_at === 'string' ? given.created_at : this.clock.now();
    const record: Record<string, unknown> = { id: this.nextId(collection) };
    for (const field of FIELD_NAMES[collection]) {
      if (field === 'created_at') record[field] = now;
      else if (field === 'updated_at') record[field] = typeof given.updated_at === 'string' ? given.updated_at : now;
      else record[field] = given[field] !== undefined ? copyValue(given[field]) : (schema[field]!.default ?? null);
    }
    const stored = record as RecordTypes[C];
    account.records[collection].set(stored.id, stored);
    if (collection === 'posts') this.countPost(account, stored as RecordTypes['posts'], +1);
    this.changed();
    return stored;
  }

  /**
   * Applies the given fields; `updated_at` moves only when a value really changed (as Rails does).
   * Undefined when there is no such record.
   */
  update<C extends CollectionName>(prefix: string, collection: C, id: number, changes: RecordValues<C>): RecordTypes[C] | undefined {
    const record = this.get(prefix, collection, id) as Record<string, unknown> | undefined;
    if (!record) return undefined;
    let changed = false;
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined || field === 'id' || field === 'created_at' || field === 'updated_at' || !Object.hasOwn(record, field))
        continue;
      if (JSON.stringify(record[field]) === JSON.stringify(value)) continue;
      record[field] = copyValue(value);
      changed = true;
    }
    if (changed) {
      record.updated_at = this.clock.now();
      this.changed();
    }
    return record as RecordTypes[C];
  }

  /** Removes a record; a removed comment no longer counts in its parent. */
  remove(prefix: string, collection: CollectionName, id: number): boolean {
    const account = this.account(prefix);
    const record = account.records[collection].get(id);
    if (!record) return false;
    account.records[collection].delete(id);
    if (collection === 'posts') this.countPost(account, record as RecordTypes['posts'], -1);
    this.changed();
    return true;
  }

  /** Runs several changes and tells listeners once, at the end. */
  batch<T>(work: () => T): T {
    this.batchDepth++;
    try {
      return work();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.dirty) this.changed();
    }
  }

  /** Calls the listener after every change (after a whole batch); returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  toJSON(): StoreSnapshot {
    const accounts = [...this.accountMap.values()].map(({ records, ...account }) => ({
      ...account,
      clients: [...records.clients.values()],
      posts: [...records.posts.values()],
      deals: [...records.deals.values()],
      contacts: [...records.contacts.values()],
      contact_lists: [...records.contact_lists.values()],
    }));
    return { format: 'standin-store/1', nextIds: { ...this.nextIds }, accounts };
  }

  static fromJSON(snapshot: StoreSnapshot, options: { now?: () => number } = {}): Store {
    if (snapshot?.format !== 'standin-store/1' || !Array.isArray(snapshot.accounts))
      throw new Error('Not a stand-in data file (format standin-store/1)');
    const store = new Store(options);
    Object.assign(store.nextIds, snapshot.nextIds);
    for (const saved of snapshot.accounts) {
      const { clients, posts, deals, contacts, contact_lists, ...rest } = saved;
      const account: Account = { ...rest, records: emptyRecords() };
      const lists = { clients, posts, deals, contacts, contact_lists };
      for (const collection of COLLECTIONS) {
        for (const record of lists[collection]) {
          (account.records[collection] as Map<number, unknown>).set(record.id, record);
          store.clock.advanceTo(Date.parse(record.updated_at));
        }
      }
      store.accountMap.set(account.prefix, account);
      for (const user of account.users) store.tokenMap.set(user.api_token, { account, user });
    }
    return store;
  }

  private nextId(counter: IdCounter): number {
    return this.nextIds[counter]++;
  }

  private countPost(account: Account, post: RecordTypes['posts'], delta: 1 | -1): void {
    if (post.post_id !== null) {
      const parent = account.records.posts.get(post.post_id);
      if (!parent) return;
      parent.comments_cache = Math.max(0, parent.comments_cache + delta);
      if (delta > 0) parent.updated_at = later(parent.updated_at, post.created_at);
    } else if (post.client_id !== null) {
      const client = account.records.clients.get(post.client_id);
      if (!client) return;
      client.posts_count = Math.max(0, client.posts_count + delta);
      if (delta > 0) client.last_activity = later(client.last_activity, post.created_at);
    }
  }

  private changed(): void {
    if (this.batchDepth > 0) {
      this.dirty = true;
      return;
    }
    this.dirty = false;
    for (const listener of this.listeners) listener();
  }
}
