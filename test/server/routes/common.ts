/** What every resource handler shares: its context, wrapper reading, 404/422 and generic CRUD. */
import type { CollectionName } from '../fields';
import { SCHEMAS } from '../fields';
import { error, invalid, isObject, json, notFound, type Answer, type FieldErrors } from '../http';
import { listPage, pageParams, type Query } from '../listing';
import type { Profile } from '../profile';
import type { Account, RecordTypes, User } from '../records';
import type { Store } from '../store';

export interface ApiContext {
  store: Store;
  account: Account;
  user: User;
  query: Query;
  /** The parsed JSON body, or {} when there was none. */
  body: Record<string, unknown>;
  /** The numeric id from the path, for member routes. */
  id: number;
  /** The stand-in's own address, e.g. http://127.0.0.1:4321. */
  baseUrl: string;
  profile: Profile;
}

export type Handler = (context: ApiContext) => Answer;

/** Thrown by a handler to answer at once (404, 422). */
export class Reply extends Error {
  constructor(readonly answer: Answer) {
    super(`HTTP ${answer.status}`);
  }
}

/** The wrapper object of a POST/PUT body; 422 when it is missing or not an object. */
export function wrapper(context: ApiContext, name: string): Record<string, unknown> {
  const value = context.body[name];
  if (value === undefined || value === null) throw new Reply(error(422, { [name]: ["can't be blank"] }));
  if (!isObject(value)) throw new Reply(error(422, { [name]: ['is invalid'] }));
  return value;
}

export function check(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new Reply(invalid(errors));
}

/** The record named by the path's id in the caller's account, or a 404. */
export function find<C extends CollectionName>(context: ApiContext, collection: C): RecordTypes[C] {
  const record = context.store.get(context.account.prefix, collection, context.id);
  if (!record) throw new Reply(notFound());
  return record;
}

export function getHandler(collection: CollectionName): Handler {
  return (context) => json(200, find(context, collection));
}

export function deleteHandler(collection: CollectionName): Handler {
  return (context) => {
    find(context, collection);
    context.store.remove(context.account.prefix, collection, context.id);
    return context.profile.deleteAnswer === 'ok' ? json(200, 'ok') : { status: 200, text: '' };
  };
}

/**
 * Lists a collection, keeping records the filter accepts, ordered and paged from the query, each
 * as `present` hands it back. A profile may refuse `order=….asc` (422) and answer a page past the
 * end with a 404.
 */
export function listHandler<C extends CollectionName>(
  collection: C,
  filter?: (record: RecordTypes[C], context: ApiContext) => boolean,
  present: (record: RecordTypes[C], context: ApiContext) => unknown = (record) => record,
): Handler {
  return (context) => {
    const { profile, query } = context;
    if (profile.ascOrder === 'refused' && /\.asc\s*$/i.test(query.order ?? ''))
      throw new Reply(invalid({ order: ['is not included in the list'] }));
    let records = context.store.list(context.account.prefix, collection);
    if (filter) records = records.filter((record) => filter(record, context));
    const page = listPage(records, query, SCHEMAS[collection], profile);
    if (page.length === 0 && profile.pastEnd === 'notFound' && pageParams(query).page > 1) throw new Reply(notFound());
    return json(
      200,
      page.map((record) => present(record, context)),
    );
  };
}

/** A non-null id must name a record of the account, else the field gets "must exist". */
export function checkExists(context: ApiContext, collection: CollectionName, id: unknown, field: string, errors: FieldErrors): void {
  if (typeof id === 'number' && !context.store.get(context.account.prefix, collection, id)) (errors[field] ??= []).push('must exist');
}
