/** Contacts and contact lists: list, get, create, update, delete. */
import { castFields, forbidBlanking, isBlank, requirePresent } from '../cast';
import { CONTACT_LIST_SCHEMA, CONTACT_SCHEMA, type CollectionName, type Schema } from '../fields';
import { json, type FieldErrors } from '../http';
import { check, deleteHandler, find, getHandler, listHandler, wrapper, type Handler } from './common';

/** A contact without a name is named from its first and last name, when it has them. */
function nameFromParts(values: Record<string, unknown>): void {
  if (!isBlank(values.name)) return;
  const parts = [values.first_name, values.last_name].filter((part) => !isBlank(part)) as string[];
  if (parts.length > 0) values.name = parts.join(' ');
}

function createHandler(
  collection: CollectionName,
  name: string,
  schema: Schema,
  prepare?: (values: Record<string, unknown>) => void,
): Handler {
  return (context) => {
    const errors: FieldErrors = {};
    const values = castFields(schema, wrapper(context, name), errors);
    prepare?.(values);
    requirePresent(values, ['name'], errors);
    check(errors);
    return json(201, context.store.insert(context.account.prefix, collection, values));
  };
}

function updateHandler(collection: CollectionName, name: string, schema: Schema): Handler {
  return (context) => {
    const record = find(context, collection);
    const errors: FieldErrors = {};
    const values = castFields(schema, wrapper(context, name), errors);
    forbidBlanking(values, ['name'], errors);
    check(errors);
    return json(200, context.store.update(context.account.prefix, collection, record.id, values));
  };
}

export const contacts = {
  list: listHandler('contacts'),
  create: createHandler('contacts', 'contact', CONTACT_SCHEMA, nameFromParts),
  get: getHandler('contacts'),
  update: updateHandler('contacts', 'contact', CONTACT_SCHEMA),
  delete: deleteHandler('contacts'),
};

export const contactLists = {
  list: listHandler('contact_lists'),
  create: createHandler('contact_lists', 'contact_list', CONTACT_LIST_SCHEMA),
  get: getHandler('contact_lists'),
  update: updateHandler('contact_lists', 'contact_list', CONTACT_LIST_SCHEMA),
  delete: deleteHandler('contact_lists'),
};
