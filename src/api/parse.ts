/**
 * Shape checks for answers. They throw plain errors that say what was expected; the transport
 * reports them as `badResponse`.
 */
import type { Page } from './paging';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record: an object whose id is a positive whole number. Other fields are kept as they came. */
export function asRecord<T extends { id: number }>(value: unknown): T {
  if (!isObject(value)) throw new Error(`a record, got ${describe(value)}`);
  if (!isId(value.id)) throw new Error('a record with a positive whole id');
  return value as T;
}

/**
 * A list: the service answers plain JSON arrays of records. An item without a usable id, or
 * with an id seen before in the list, is skipped: one broken record does not hide the others,
 * and no view shows two rows for one id.
 */
export function asPage<T extends { id: number }>(value: unknown): Page<T> {
  if (!Array.isArray(value)) throw new Error(`a list, got ${describe(value)}`);
  const seen = new Set<number>();
  const items = value.filter((item): item is T => isObject(item) && isId(item.id) && !seen.has(item.id) && Boolean(seen.add(item.id)));
  return { items, received: value.length };
}

function isId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** Record ids go into paths: accept only positive integers. */
export function assertId(id: number, what: string): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`${what} must be a positive whole number (got ${String(id)}).`);
  return id;
}
