/**
 * Reading answers. The service's own shape is the bare record and the plain array (service
 * notes, confirmed); what else a real account may send is accepted where its meaning is
 * unambiguous: the record in an envelope with its own key (`{"post": {...}}`), a list in one
 * with its plural (`{"posts": [...]}`), ids and counts as numeric strings, booleans spelled
 * `"yes"`/`"no"`/`"1"`/`"0"`/`"true"`/`"false"`. A record without a usable id is refused (a
 * page skips it); a known field whose value cannot be read is left out rather than guessed,
 * so a view shows nothing there instead of something wrong. The checks throw plain errors that
 * say what was expected; the transport reports them as `badResponse`.
 */
import type { Page } from './paging';

/** A kind of record: its envelope keys and the fields read as ids, numbers and booleans. */
export interface Shape {
  /** The wrapper key, e.g. `post`. */
  key: string;
  /** The plural, e.g. `posts`. */
  plural: string;
  /** Positive whole numbers (or null). `id` is always one, and must be there. */
  ids: readonly string[];
  numbers: readonly string[];
  booleans: readonly string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record of this shape: an object whose id is a positive whole number, its known fields read as their type. */
export function asRecord<T extends { id: number }>(shape: Shape): (value: unknown) => T {
  return (value) => readRecord<T>(shape, value);
}

/**
 * A page of records. An item that is not a usable record of this shape, or repeats an id seen
 * before in the page, is skipped: one broken record does not hide the others, and no view shows
 * two rows for one id. `received` counts every item sent.
 */
export function asPage<T extends { id: number }>(shape: Shape): (value: unknown) => Page<T> {
  return (value) => {
    const list = isObject(value) && Array.isArray(value[shape.plural]) ? (value[shape.plural] as unknown[]) : value;
    if (!Array.isArray(list)) throw new Error(`a list of ${shape.plural}, got ${describe(value)}`);
    const seen = new Set<number>();
    const items: T[] = [];
    for (const item of list) {
      let record: T;
      try {
        record = readRecord<T>(shape, item);
      } catch {
        continue;
      }
      if (!seen.has(record.id)) {
        seen.add(record.id);
        items.push(record);
      }
    }
    return { items, received: list.length };
  };
}

function readRecord<T extends { id: number }>(shape: Shape, value: unknown): T {
  const record = isObject(value) && !('id' in value) && isObject(value[shape.key]) ? value[shape.key] : value;
  if (!isObject(record)) throw new Error(`a ${shape.key} record, got ${describe(value)}`);
  const read: Record<string, unknown> = { ...record, id: wholeId(record.id) };
  if (read.id === undefined) throw new Error(`a ${shape.key} record with a positive whole id`);
  const fields: Array<[readonly string[], (value: unknown) => unknown]> = [
    [shape.ids, wholeId],
    [shape.numbers, number],
    [shape.booleans, boolean],
  ];
  for (const [names, convert] of fields) {
    for (const field of names) {
      if (field === 'id' || !(field in record) || record[field] === null) continue;
      const converted = convert(record[field]);
      if (converted === undefined) delete read[field];
      else read[field] = converted;
    }
  }
  return read as T;
}

function wholeId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\s*\d{1,16}\s*$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function number(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

function boolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return text === undefined ? undefined : TRUE.has(text) ? true : FALSE.has(text) ? false : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  // Not the value itself: this text may be shown, and a string from the service is not to be trusted.
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
}

/** Record ids go into paths: accept only positive integers. */
export function assertId(id: number, what: string): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`${what} must be a positive whole number (got ${String(id)}).`);
  return id;
}
