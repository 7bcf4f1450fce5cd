import type { Shape } from './parse';

/**
 * Records as the service returns them. The spec gives names, not types, so every field but
 * `id` is optional and may be null, and records may carry fields not listed here.
 */

type Nullable<T> = T | null | undefined;
type Numbered = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

/** Seven families of client custom fields, each numbered 1 to 10 (`string1`…`datetime10`). */
export type ClientCustomFields = { [N in Numbered as `string${N}`]?: Nullable<string> } & {
  [N in Numbered as `integer${N}`]?: Nullable<number>;
} & { [N in Numbered as `decimal${N}`]?: Nullable<number | string> } & {
  [N in Numbered as `checkbox${N}`]?: Nullable<boolean>;
} & { [N in Numbered as `date${N}`]?: Nullable<string> } & { [N in Numbered as `text${N}`]?: Nullable<string> } & {
  [N in Numbered as `datetime${N}`]?: Nullable<string>;
};

/** Keys are names the external system chose; values are its identifiers, as strings. */
export type ExternalIds = Record<string, string>;

export type ClientKind = 'buyer' | 'seller';

export type Client = ClientCustomFields & {
  id: number;
  name?: Nullable<string>;
  tax_no?: Nullable<string>;
  post_code?: Nullable<string>;
  city?: Nullable<string>;
  street?: Nullable<string>;
  street_no?: Nullable<string>;
  province?: Nullable<string>;
  country?: Nullable<string>;
  first_name?: Nullable<string>;
  last_name?: Nullable<string>;
  email?: Nullable<string>;
  phone?: Nullable<string>;
  mobile_phone?: Nullable<string>;
  fax?: Nullable<string>;
  www?: Nullable<string>;
  created_at?: Nullable<string>;
  updated_at?: Nullable<string>;
  kind?: Nullable<ClientKind>;
  bank?: Nullable<string>;
  bank_account?: Nullable<string>;
  bank_account_id?: Nullable<number | string>;
  shortcut?: Nullable<string>;
  note?: Nullable<string>;
  discount?: Nullable<number | string>;
  payment_to_kind?: Nullable<string | number>;
  use_delivery_address?: Nullable<boolean>;
  delivery_address?: Nullable<string>;
  company?: Nullable<boolean>;
  register_number?: Nullable<string>;
  description?: Nullable<string>;
  project_id?: Nullable<number>;
  contact_id?: Nullable<number>;
  appendixes_count?: Nullable<number>;
  posts_count?: Nullable<number>;
  contacts_count?: Nullable<number>;
  last_activity?: Nullable<string>;
  avatar_file_name?: Nullable<string>;
  avatar_content_type?: Nullable<string>;
  avatar_file_size?: Nullable<number>;
  avatar_updated_at?: Nullable<string>;
  status_id?: Nullable<number>;
  category_id?: Nullable<number>;
  department_id?: Nullable<number>;
  position?: Nullable<number | string>;
  creator_id?: Nullable<number>;
  updater_id?: Nullable<number>;
  responsible_id?: Nullable<number>;
  sensitive_data?: Nullable<boolean>;
  external_id?: Nullable<string>;
  external_ids?: Nullable<ExternalIds>;
  token?: Nullable<string>;
  paid_from?: Nullable<string>;
  paid_to?: Nullable<string>;
  paid_total?: Nullable<number | string>;
};

export const POST_KINDS = ['suggestion', 'error', 'question', 'praise', 'private'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export const TASK_KINDS = ['feedback', 'email', 'task', 'help', 'chat', 'phone', 'lead', 'error', 'idea'] as const;
/** `comment` is only sent, to create a comment on the post named by `post_id`. */
export type TaskKind = (typeof TASK_KINDS)[number] | 'comment';

export type EmailRoute = 'helpdesk' | 'mail';

export interface Post {
  id: number;
  title?: Nullable<string>;
  content?: Nullable<string>;
  kind?: Nullable<PostKind>;
  task_kind?: Nullable<TaskKind>;
  user_id?: Nullable<number>;
  points?: Nullable<number>;
  nick?: Nullable<string>;
  votes_cache?: Nullable<number>;
  comments_cache?: Nullable<number>;
  forum_id?: Nullable<number>;
  category_id?: Nullable<number>;
  created_at?: Nullable<string>;
  updated_at?: Nullable<string>;
  ip?: Nullable<string>;
  agent?: Nullable<string>;
  response?: Nullable<string>;
  response_user_id?: Nullable<number>;
  referrer?: Nullable<string>;
  responsible_id?: Nullable<number>;
  last_action_status?: Nullable<string>;
  email?: Nullable<string>;
  uid?: Nullable<string>;
  spam_kind?: Nullable<string>;
  answer?: Nullable<string>;
  answered?: Nullable<boolean>;
  duplicate_from_id?: Nullable<number>;
  abstract?: Nullable<string>;
  status_id?: Nullable<number>;
  view_count?: Nullable<number>;
  tags?: Nullable<string | string[]>;
  social_likes?: Nullable<number>;
  min_votes_to_start?: Nullable<number>;
  use_html?: Nullable<boolean>;
  email_to?: Nullable<string>;
  email_cc?: Nullable<string>;
  email_bcc?: Nullable<string>;
  spam_score?: Nullable<number | string>;
  spam_report?: Nullable<string>;
  user_spam_report?: Nullable<string>;
  closed?: Nullable<boolean>;
  scheduled_at?: Nullable<string>;
  priority?: Nullable<number | string>;
  title_note?: Nullable<string>;
  client_id?: Nullable<number>;
  project_id?: Nullable<number>;
  help_link?: Nullable<string>;
  help_content?: Nullable<string>;
  post_id?: Nullable<number>;
  www?: Nullable<string>;
  private?: Nullable<boolean>;
  unread?: Nullable<boolean>;
  email_recipient?: Nullable<EmailRoute>;
  email_reply_to?: Nullable<EmailRoute>;
}

/** The spec does not show deal answers: these are the fields sent. */
export interface Deal {
  id: number;
  name?: Nullable<string>;
  description?: Nullable<string>;
  client_id?: Nullable<number>;
  price?: Nullable<number | string>;
  external_ids?: Nullable<ExternalIds>;
  url?: Nullable<string>;
  status_id?: Nullable<number>;
  created_at?: Nullable<string>;
  updated_at?: Nullable<string>;
}

/** What may be sent for a record: its fields without the ones the service sets. */
type Writable<T> = { -readonly [K in Exclude<keyof T, 'id' | 'created_at' | 'updated_at'>]?: T[K] };

export type ClientInput = Writable<Client> & {
  external_ids?: ExternalIds;
  /** Sent by a real integration (service notes): update the client when it exists already. */
  try_update?: boolean;
};
export type ClientChanges = Writable<Client>;

export interface NewTask {
  title: string;
  content?: string;
  task_kind?: Exclude<TaskKind, 'comment'>;
  kind?: PostKind;
  client_id?: number | null;
  responsible_id?: number | null;
}

export interface NewErrorReport {
  title: string;
  content: string;
  client_id?: number | null;
  responsible_id?: number | null;
}

export interface NewComment {
  content: string;
  title: string;
  client_id?: number | null;
  responsible_id?: number | null;
}

/**
 * What an update of a post may change (`PUT /app/posts/<id>.json`, not in the spec): closed or
 * open, its status, the person assigned. Only the fields given are sent.
 */
export interface PostChanges {
  closed?: boolean;
  status_id?: number | null;
  responsible_id?: number | null;
}

export interface NestedDealClient {
  name?: string;
  email?: string;
  external_ids?: ExternalIds;
}

export interface DealInput {
  name?: string;
  description?: string;
  client_id?: number | null;
  price?: number;
  /** Sent in place of `client_id`: the service finds or creates the client. */
  client?: NestedDealClient;
  external_ids?: ExternalIds;
  url?: string;
  status_id?: number;
}
export type NewDeal = DealInput & { name: string };

/** A comment: a post with a `post_id` (its parent), or of task kind `comment`. */
export function isComment(post: Post): boolean {
  return typeof post.post_id === 'number' || post.task_kind === 'comment';
}

/** A status of posts, clients or deals (`GET /app/statuses.json`, service notes). */
export interface Status {
  id: number;
  code?: Nullable<string>;
  name?: Nullable<string>;
  kind?: Nullable<string>;
}

/** How each kind of record is read (see parse.ts). */
export const SHAPES = {
  post: {
    key: 'post',
    plural: 'posts',
    ids: [
      'id',
      'client_id',
      'post_id',
      'responsible_id',
      'user_id',
      'status_id',
      'forum_id',
      'category_id',
      'project_id',
      'response_user_id',
      'duplicate_from_id',
    ],
    numbers: ['comments_cache', 'votes_cache', 'points', 'view_count', 'priority'],
    booleans: ['closed', 'private', 'unread', 'answered', 'use_html'],
  },
  client: {
    key: 'client',
    plural: 'clients',
    ids: ['id', 'contact_id', 'status_id', 'category_id', 'department_id', 'creator_id', 'updater_id', 'responsible_id', 'project_id'],
    numbers: ['posts_count', 'contacts_count', 'appendixes_count'],
    booleans: ['company', 'use_delivery_address', 'sensitive_data'],
  },
  deal: { key: 'deal', plural: 'deals', ids: ['id', 'client_id', 'status_id'], numbers: [], booleans: [] },
  status: { key: 'status', plural: 'statuses', ids: ['id'], numbers: [], booleans: [] },
} as const satisfies Record<string, Shape>;
