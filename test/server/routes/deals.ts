/**
 * Deals: list (filter `client_id`), get, create, update, delete. A deal names its client by
 * `client_id` or by a nested `client` {name, email, external_ids}: the nested client is matched
 * to a client of the account sharing an `external_ids` entry, else created (stand-in's choice).
 */
import { addError, castFields, forbidBlanking, requirePresent } from '../cast';
import { CLIENT_SCHEMA, DEAL_SCHEMA } from '../fields';
import { isObject, json, type FieldErrors } from '../http';
import type { ExternalIds } from '../records';
import { check, checkExists, deleteHandler, find, getHandler, listHandler, wrapper, type ApiContext, type Handler } from './common';
import { findByExternalIds } from './clients';

const NESTED_CLIENT_FIELDS = ['name', 'email', 'external_ids'];

/** How the deal gets its client: none to settle, an existing id, or a client to create first. */
type ClientPlan = { kind: 'none' } | { kind: 'existing'; id: number } | { kind: 'new'; values: Record<string, unknown> };

/** `client_id` wins when both are sent; a nested client is used when `client_id` is absent or null. */
function planClient(context: ApiContext, input: Record<string, unknown>, values: Record<string, unknown>, errors: FieldErrors): ClientPlan {
  checkExists(context, 'clients', values.client_id, 'client_id', errors);
  const nested = input.client;
  if ((values.client_id !== undefined && values.client_id !== null) || nested === undefined || nested === null) return { kind: 'none' };
  if (!isObject(nested)) {
    addError(errors, 'client', 'is invalid');
    return { kind: 'none' };
  }
  const picked = Object.fromEntries(Object.entries(nested).filter(([key]) => NESTED_CLIENT_FIELDS.includes(key)));
  const clientValues = castFields(CLIENT_SCHEMA, picked, errors, 'client.');
  const match = findByExternalIds(context.store.list(context.account.prefix, 'clients'), clientValues.external_ids as ExternalIds | null);
  if (match) return { kind: 'existing', id: match.id };
  requirePresent(clientValues, ['name'], errors, 'client.');
  return { kind: 'new', values: clientValues };
}

/** Creates the planned client (if any) and returns the deal's values with its `client_id`. */
function settleClient(context: ApiContext, plan: ClientPlan, values: Record<string, unknown>): Record<string, unknown> {
  if (plan.kind === 'existing') return { ...values, client_id: plan.id };
  if (plan.kind === 'new') {
    const { user, account, store } = context;
    const client = store.insert(account.prefix, 'clients', { ...plan.values, creator_id: user.id, updater_id: user.id });
    return { ...values, client_id: client.id };
  }
  return values;
}

const create: Handler = (context) => {
  const input = wrapper(context, 'deal');
  const errors: FieldErrors = {};
  const values = castFields(DEAL_SCHEMA, input, errors);
  const plan = planClient(context, input, values, errors);
  requirePresent(values, ['name'], errors);
  check(errors);
  const { store, account } = context;
  return json(
    201,
    store.batch(() => store.insert(account.prefix, 'deals', settleClient(context, plan, values))),
  );
};

const update: Handler = (context) => {
  const deal = find(context, 'deals');
  const input = wrapper(context, 'deal');
  const errors: FieldErrors = {};
  const values = castFields(DEAL_SCHEMA, input, errors);
  const plan = planClient(context, input, values, errors);
  forbidBlanking(values, ['name'], errors);
  check(errors);
  const { store, account } = context;
  return json(
    200,
    store.batch(() => store.update(account.prefix, 'deals', deal.id, settleClient(context, plan, values))),
  );
};

export const deals = {
  list: listHandler(
    'deals',
    (deal, { query, profile }) => !profile.filtersDealsByClient || !query.client_id || String(deal.client_id) === query.client_id.trim(),
  ),
  create,
  get: getHandler('deals'),
  update,
  delete: deleteHandler('deals'),
};
