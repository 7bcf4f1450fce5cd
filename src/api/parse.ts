/** Shape checks for answers. They throw plain errors; the transport reports them as `badResponse`. */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record: an object whose id is a positive whole number. Other fields are kept as they came. */
export function asRecord<T extends { id: number }>(value: unknown): T {
  if (!isObject(value)) throw new Error(`expected a record, got ${describe(value)}`);
  if (!isId(value.id)) throw new Error('the record has no positive whole id');
  return value as T;
}

/**
 * A list: the service answers plain JSON arrays of records. An item without a usable id, or
 * with an id seen before in the list, is skipped: one broken record does not hide the others,
 * and no view shows two rows for one id.
 */
export function asList<T extends { id: number }>(value: unknown): T[] {
  if (!Array.isArray(value)) throw new Error(`expected a list, got ${describe(value)}`);
  const seen = new Set<number>();
  const list = value.filter((item): item is T => isObject(item) && isId(item.id) && !seen.has(item.id) && Boolean(seen.add(item.id)));
  if (list.length !== value.length) received.set(list, value.length);
  return list;
}

const received = new WeakMap<readonly unknown[], number>();

/**
 * How many items the service sent for this list, skipped ones included: a page is full (and
 * there may be another) by that count, not by the records kept.
 */
export function receivedCount(list: readonly unknown[]): number {
  return received.get(list) ?? list.length;
}

/** Delete answers `"ok"`; any 2xx answer means the record is gone, so the body is not checked. */
export function asDeleted(_value: unknown): void {}

export function asObject<T>(value: unknown, required: readonly string[]): T {
  if (!isObject(value)) throw new Error(`expected an object, got ${describe(value)}`);
  for (const key of required) {
    if (typeof value[key] !== 'string') throw new Error(`the answer has no "${key}"`);
  }
  return value as T;
}

function isId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** Record ids go into paths: accept only positive integers. */
export function assertId(id: number, what: string): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`${what} must be a positive whole number (got ${String(id)}).`);
  return id;
}
