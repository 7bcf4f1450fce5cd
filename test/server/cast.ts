/**
 * Type checks of sent field values, with Rails-like casting: numeric strings become numbers,
 * "" becomes null, "true"/"1" and "false"/"0" become booleans. A value that cannot be cast is
 * a validation error with a Rails-like message for that field.
 */
import type { FieldErrors } from './http';
import type { FieldType, Schema } from './fields';
import { formatTime, isPlainDate, parseTime } from './time';

type Cast = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Cast => ({ ok: true, value });
const fail = (message: string): Cast => ({ ok: false, message });

export const BLANK = "can't be blank";

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

function castNumber(value: unknown, integer: boolean): Cast {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(value)) number = Number(value);
  else return fail('is not a number');
  if (!Number.isFinite(number)) return fail('is not a number');
  if (integer && !Number.isInteger(number)) return fail('must be an integer');
  return ok(number);
}

export function castValue(type: FieldType, value: unknown): Cast {
  if (value === null || value === '') return ok(null);
  if (typeof type === 'object') {
    return typeof value === 'string' && type.enum.includes(value) ? ok(value) : fail('is not included in the list');
  }
  switch (type) {
    case 'string':
      if (typeof value === 'string') return ok(value);
      return typeof value === 'number' ? ok(String(value)) : fail('is invalid');
    case 'integer':
      return castNumber(value, true);
    case 'decimal':
      return castNumber(value, false);
    case 'stringOrInteger':
      if (typeof value === 'string') return ok(value);
      return typeof value === 'number' && Number.isInteger(value) ? ok(value) : fail('is invalid');
    case 'boolean':
      if (value === true || value === 'true' || value === '1' || value === 1) return ok(true);
      if (value === false || value === 'false' || value === '0' || value === 0) return ok(false);
      return fail('must be true or false');
    case 'date':
      return typeof value === 'string' && isPlainDate(value) ? ok(value) : fail('is not a valid date');
    case 'datetime': {
      const ms = typeof value === 'string' ? parseTime(value) : undefined;
      return ms === undefined ? fail('is not a valid date-time') : ok(formatTime(ms));
    }
    case 'externalIds':
      return castExternalIds(value);
  }
}

/** An object whose keys are non-empty and whose values are strings (the external system's ids). */
export function castExternalIds(value: unknown): Cast {
  if (value === null) return ok(null);
  if (typeof value !== 'object' || Array.isArray(value)) return fail('must be an object with string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.some(([key, id]) => key.trim() === '' || typeof id !== 'string')) return fail('must be an object with string values');
  return ok(Object.fromEntries(entries));
}

/**
 * The writable schema fields present in `input`, cast to their types. Unknown and read-only
 * fields are dropped; errors go to `errors` under `keyPrefix + field`.
 */
export function castFields(schema: Schema, input: Record<string, unknown>, errors: FieldErrors, keyPrefix = ''): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    const spec = Object.hasOwn(schema, field) ? schema[field] : undefined;
    if (!spec || spec.readOnly || value === undefined) continue;
    const cast = castValue(spec.type, value);
    if (cast.ok) values[field] = cast.value;
    else addError(errors, keyPrefix + field, cast.message);
  }
  return values;
}

/** On create: each field must be present and not blank. */
export function requirePresent(values: Record<string, unknown>, fields: string[], errors: FieldErrors, keyPrefix = ''): void {
  for (const field of fields) if (isBlank(values[field]) && !errors[keyPrefix + field]) addError(errors, keyPrefix + field, BLANK);
}

/** On update: a required field may be left out, but not blanked. */
export function forbidBlanking(values: Record<string, unknown>, fields: string[], errors: FieldErrors): void {
  for (const field of fields) if (Object.hasOwn(values, field) && isBlank(values[field])) addError(errors, field, BLANK);
}
