/** Types of the stored records and accounts. Every record has every field of its schema. */
import type { CollectionName, POST_KINDS, TASK_KINDS } from './fields';

export type ExternalIds = Record<string, string>;
export type PostKind = (typeof POST_KINDS)[number];
export type TaskKind = (typeof TASK_KINDS)[number] | 'comment';

export interface StoredRecord {
  id: number;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export interface ClientRecord extends StoredRecord {
  name: string | null;
  first_name: string | null;
  email: string | null;
  shortcut: string | null;
  tax_no: string | null;
  external_id: string | null;
  external_ids: ExternalIds | null;
  posts_count: number;
  last_activity: string | null;
}

export interface PostRecord extends StoredRecord {
  title: string | null;
  content: string | null;
  kind: PostKind | null;
  task_kind: TaskKind | null;
  post_id: number | null;
  client_id: number | null;
  responsible_id: number | null;
  comments_cache: number;
  closed: boolean;
}

export interface DealRecord extends StoredRecord {
  name: string | null;
  description: string | null;
  client_id: number | null;
  price: number | null;
  external_ids: ExternalIds | null;
}

export interface ContactRecord extends StoredRecord {
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

export interface ContactListRecord extends StoredRecord {
  name: string | null;
}

export interface RecordTypes {
  clients: ClientRecord;
  posts: PostRecord;
  deals: DealRecord;
  contacts: ContactRecord;
  contact_lists: ContactListRecord;
}

/** Values for a new record or for an update: any schema fields but `id`. */
export type RecordValues<C extends CollectionName> = Partial<Omit<RecordTypes[C], 'id'>>;

/** One person of an account; each user has their own token. */
export interface User {
  id: number;
  login: string | null;
  email: string | null;
  api_token: string;
  created_at: string;
}

export interface Account {
  prefix: string;
  initial_module: string | null;
  from_partner: string | null;
  created_at: string;
  users: User[];
  records: { [C in CollectionName]: Map<number, RecordTypes[C]> };
}

/** The JSON form of the whole store, as written to a data file. */
export interface StoreSnapshot {
  format: 'standin-store/1';
  nextIds: Record<string, number>;
  accounts: AccountSnapshot[];
}

export type AccountSnapshot = Omit<Account, 'records'> & { [C in CollectionName]: RecordTypes[C][] };
