/** Clients: list (with filters), get, create (with `try_update`), update, delete. */
import { addError, castFields, castValue, forbidBlanking, requirePresent } from '../cast';
import { CLIENT_SCHEMA } from '../fields';
import { json, type FieldErrors } from '../http';
import type { Query } from '../listing';
import type { ClientRecord, ExternalIds } from '../records';
import { check, deleteHandler, find, getHandler, listHandler, wrapper, type ApiContext, type Handler } from './common';

const REQUIRED = ['name'];

const lower = (text: unknown) => (typeof text === 'string' ? text.trim().toLowerCase() : '');

/** The first client with an equal entry (same key, same value) in `external_ids`. */
export function findByExternalIds(clients: Iterable<ClientRecord>, ids: ExternalIds | null | undefined): ClientRecord | undefined {
  const wanted = Object.entries(ids ?? {});
  if (wanted.length === 0) return undefined;
  for (const client of clients) {
    const own = client.external_ids ?? {};
    if (wanted.some(([key, value]) => Object.hasOwn(own, key) && own[key] === value)) return client;
  }
  return undefined;
}

/**
 * The existing client that `try_update` updates: one sharing an `external_ids` entry, else one
 * with the same `external_id`, else one with the same name and email (case-insensitive).
 */
function findExisting(clients: ClientRecord[], values: Record<string, unknown>): ClientRecord | undefined {
  const byIds = findByExternalIds(clients, values.external_ids as ExternalIds | null | undefined);
  if (byIds) return byIds;
  if (typeof values.external_id === 'string') return clients.find((c) => c.external_id === values.external_id);
  if (lower(values.name) && lower(values.email)) {
    return clients.find((c) => lower(c.name) === lower(values.name) && lower(c.email) === lower(values.email));
  }
  return undefined;
}

/** Filters of the client list: name (substring, any case), email (any case), shortcut, tax_no, external_id. */
function matchesFilters(client: ClientRecord, query: Query): boolean {
  if (query.name && !lower(client.name).includes(lower(query.name))) return false;
  if (query.email && lower(client.email) !== lower(query.email)) return false;
  if (query.shortcut && client.shortcut !== query.shortcut) return false;
  if (query.tax_no && client.tax_no !== query.tax_no) return false;
  if (query.external_id) {
    const id = query.external_id;
    if (client.external_id !== id && !Object.values(client.external_ids ?? {}).includes(id)) return false;
  }
  return true;
}

const create: Handler = (context) => {
  const input = wrapper(context, 'client');
  const errors: FieldErrors = {};
  const values = castFields(CLIENT_SCHEMA, input, errors);
  const tryUpdate = input.try_update === undefined ? { ok: true as const, value: null } : castValue('boolean', input.try_update);
  if (!tryUpdate.ok) addError(errors, 'try_update', tryUpdate.message);
  const { store, account, user } = context;
  const existing = tryUpdate.ok && tryUpdate.value === true ? findExisting(store.list(account.prefix, 'clients'), values) : undefined;
  if (existing) {
    forbidBlanking(values, REQUIRED, errors);
    check(errors);
    if (values.external_ids) values.external_ids = { ...existing.external_ids, ...(values.external_ids as ExternalIds) };
    return json(200, store.update(account.prefix, 'clients', existing.id, { ...values, updater_id: user.id }));
  }
  requirePresent(values, REQUIRED, errors);
  check(errors);
  return json(201, store.insert(account.prefix, 'clients', { ...values, creator_id: user.id, updater_id: user.id }));
};

const update: Handler = (context: ApiContext) => {
  const client = find(context, 'clients');
  const errors: FieldErrors = {};
  const values = castFields(CLIENT_SCHEMA, wrapper(context, 'client'), errors);
  forbidBlanking(values, REQUIRED, errors);
  check(errors);
  const { store, account, user } = context;
  if (Object.keys(values).length > 0) values.updater_id = user.id;
  return json(200, store.update(account.prefix, 'clients', client.id, values));
};

export const clients = {
  list: listHandler('clients', (client, { query }) => matchesFilters(client, query)),
  create,
  get: getHandler('clients'),
  update,
  delete: deleteHandler('clients'),
};
