/**
 * The fields of each record type, in the order the spec lists them, with their types and
 * defaults. A stored record always has every field here (null unless a default is given), so
 * answers have the same shape whatever was sent. Unknown fields sent by a caller are dropped.
 */

export const POST_KINDS = ['suggestion', 'error', 'question', 'praise', 'private'] as const;
export const TASK_KINDS = ['feedback', 'email', 'task', 'help', 'chat', 'phone', 'lead', 'error', 'idea'] as const;
export const CLIENT_KINDS = ['buyer', 'seller'] as const;
export const EMAIL_ROUTES = ['helpdesk', 'mail'] as const;

export type FieldType =
  'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'externalIds' | 'stringOrInteger' | { enum: readonly string[] };

export interface FieldSpec {
  type: FieldType;
  /** Value of a new record when the caller does not send the field; null when absent. */
  default?: string | number | boolean | null;
  /** Set by the service only: ignored when sent. */
  readOnly?: boolean;
}

export type Schema = Readonly<Record<string, FieldSpec>>;

const str: FieldSpec = { type: 'string' };
const int: FieldSpec = { type: 'integer' };
const dec: FieldSpec = { type: 'decimal' };
const bool: FieldSpec = { type: 'boolean' };
const boolFalse: FieldSpec = { type: 'boolean', default: false };
const date: FieldSpec = { type: 'date' };
const datetime: FieldSpec = { type: 'datetime' };
const id: FieldSpec = { type: 'integer', readOnly: true };
const stamp: FieldSpec = { type: 'datetime', readOnly: true };
const counter: FieldSpec = { type: 'integer', readOnly: true, default: 0 };
const oneOf = (values: readonly string[]): FieldSpec => ({ type: { enum: values } });

/** string1..10, integer1..10, decimal1..10, checkbox1..10, date1..10, text1..10, datetime1..10. */
function customFields(): Record<string, FieldSpec> {
  const families: [string, FieldSpec][] = [
    ['string', str],
    ['integer', int],
    ['decimal', dec],
    ['checkbox', bool],
    ['date', date],
    ['text', str],
    ['datetime', datetime],
  ];
  const fields: Record<string, FieldSpec> = {};
  for (const [family, spec] of families) for (let n = 1; n <= 10; n++) fields[`${family}${n}`] = spec;
  return fields;
}

export const CLIENT_SCHEMA: Schema = {
  id,
  name: str,
  tax_no: str,
  post_code: str,
  city: str,
  street: str,
  street_no: str,
  province: str,
  country: str,
  first_name: str,
  last_name: str,
  email: str,
  phone: str,
  mobile_phone: str,
  fax: str,
  www: str,
  created_at: stamp,
  updated_at: stamp,
  kind: oneOf(CLIENT_KINDS),
  bank: str,
  bank_account: str,
  bank_account_id: int,
  shortcut: str,
  note: str,
  discount: dec,
  payment_to_kind: { type: 'stringOrInteger' },
  use_delivery_address: boolFalse,
  delivery_address: str,
  company: boolFalse,
  register_number: str,
  description: str,
  project_id: int,
  contact_id: int,
  appendixes_count: counter,
  posts_count: counter,
  contacts_count: counter,
  last_activity: { type: 'datetime', readOnly: true },
  ...customFields(),
  avatar_file_name: { type: 'string', readOnly: true },
  avatar_content_type: { type: 'string', readOnly: true },
  avatar_file_size: { type: 'integer', readOnly: true },
  avatar_updated_at: { type: 'datetime', readOnly: true },
  status_id: int,
  category_id: int,
  department_id: int,
  position: { type: 'stringOrInteger' },
  creator_id: { type: 'integer', readOnly: true },
  updater_id: { type: 'integer', readOnly: true },
  responsible_id: int,
  sensitive_data: boolFalse,
  external_id: str,
  external_ids: { type: 'externalIds' },
  token: { type: 'string', readOnly: true },
  paid_from: date,
  paid_to: date,
  paid_total: { type: 'decimal', readOnly: true, default: 0 },
};

export const POST_SCHEMA: Schema = {
  id,
  title: str,
  content: str,
  kind: oneOf(POST_KINDS),
  task_kind: oneOf([...TASK_KINDS, 'comment']),
  user_id: int,
  points: int,
  nick: str,
  votes_cache: counter,
  comments_cache: counter,
  forum_id: int,
  category_id: int,
  created_at: stamp,
  updated_at: stamp,
  ip: str,
  agent: str,
  response: str,
  response_user_id: int,
  referrer: str,
  responsible_id: int,
  last_action_status: str,
  email: str,
  uid: str,
  spam_kind: str,
  answer: str,
  answered: boolFalse,
  duplicate_from_id: int,
  abstract: str,
  status_id: int,
  view_count: counter,
  tags: str,
  social_likes: int,
  min_votes_to_start: int,
  use_html: boolFalse,
  email_to: str,
  email_cc: str,
  email_bcc: str,
  spam_score: dec,
  spam_report: str,
  user_spam_report: str,
  closed: boolFalse,
  scheduled_at: datetime,
  priority: { type: 'stringOrInteger' },
  title_note: str,
  client_id: int,
  project_id: int,
  help_link: str,
  help_content: str,
  post_id: int,
  www: str,
  private: boolFalse,
  unread: boolFalse,
  email_recipient: oneOf(EMAIL_ROUTES),
  email_reply_to: oneOf(EMAIL_ROUTES),
};

/** The spec shows only the fields sent; `url` and `status_id` come from a real integration. */
export const DEAL_SCHEMA: Schema = {
  id,
  name: str,
  description: str,
  client_id: int,
  price: dec,
  external_ids: { type: 'externalIds' },
  url: str,
  status_id: int,
  created_at: stamp,
  updated_at: stamp,
};

export const CONTACT_SCHEMA: Schema = {
  id,
  name: str,
  description: str,
  first_name: str,
  last_name: str,
  responsible_id: int,
  email: str,
  phone: str,
  created_at: stamp,
  updated_at: stamp,
};

export const CONTACT_LIST_SCHEMA: Schema = { id, name: str, created_at: stamp, updated_at: stamp };

export const SCHEMAS = {
  clients: CLIENT_SCHEMA,
  posts: POST_SCHEMA,
  deals: DEAL_SCHEMA,
  contacts: CONTACT_SCHEMA,
  contact_lists: CONTACT_LIST_SCHEMA,
} as const;

export type CollectionName = keyof typeof SCHEMAS;
export const COLLECTIONS = Object.keys(SCHEMAS) as CollectionName[];
