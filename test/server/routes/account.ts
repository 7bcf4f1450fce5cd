/**
 * Account creation: any known token may create one. The new account is empty and its first
 * user gets a new token; a taken prefix gets `-2`, `-3`, … appended. The answer's `url` is the
 * stand-in's own address: it has no per-account subdomains, the token selects the account.
 */
import { addError, BLANK, isBlank } from '../cast';
import { error, isObject, json, type FieldErrors } from '../http';
import { check, type Handler } from './common';

const PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A string field of a nested object: errors go under `object.field`. */
function text(object: Record<string, unknown>, field: string, key: string, errors: FieldErrors, required: boolean): string | null {
  const value = object[field];
  if (isBlank(value)) {
    if (required) addError(errors, key, BLANK);
    return null;
  }
  if (typeof value !== 'string') {
    addError(errors, key, 'is invalid');
    return null;
  }
  return value.trim();
}

export const createAccount: Handler = (context) => {
  const { account: accountInput, user: userInput } = context.body;
  const missing: FieldErrors = {};
  for (const [name, value] of [
    ['account', accountInput],
    ['user', userInput],
  ] as const) {
    if (!isObject(value)) addError(missing, name, value === undefined || value === null ? BLANK : 'is invalid');
  }
  if (Object.keys(missing).length > 0) return error(422, missing);
  const account = accountInput as Record<string, unknown>;
  const user = userInput as Record<string, unknown>;

  const errors: FieldErrors = {};
  const wanted = text(account, 'prefix', 'account.prefix', errors, true)?.toLowerCase() ?? null;
  if (wanted !== null && !PREFIX.test(wanted)) addError(errors, 'account.prefix', 'is invalid');
  const initialModule = text(account, 'initial_module', 'account.initial_module', errors, false);
  const fromPartner = text(account, 'from_partner', 'account.from_partner', errors, false);
  const login = text(user, 'login', 'user.login', errors, true);
  const email = text(user, 'email', 'user.email', errors, true);
  if (email !== null && !/^[^@\s]+@[^@\s]+$/.test(email)) addError(errors, 'user.email', 'is invalid');
  text(user, 'password', 'user.password', errors, true);
  check(errors);

  const prefix = context.store.freePrefix(wanted!);
  const created = context.store.createAccount({ prefix, login, email, initial_module: initialModule, from_partner: fromPartner });
  return json(201, { prefix, api_token: created.user.api_token, url: context.baseUrl, login, email });
};
