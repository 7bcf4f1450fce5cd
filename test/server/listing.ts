/**
 * Lists: `order=field` / `order=field.desc` (unknown fields ignored; default id ascending), then
 * `page` (from 1) and `per_page` (default 25, larger than 100 is clamped to 100). A profile may
 * ignore `order` and hold fewer records a page (see profile.ts).
 */
import type { Profile } from './profile';
import type { Schema } from './fields';
import type { StoredRecord } from './records';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export type Query = Record<string, string>;

/** A whole number ≥ 1 from the query, or the fallback when absent or not one. */
function positive(text: string | undefined, fallback: number): number {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return fallback;
  const value = Number(text);
  return value >= 1 ? value : fallback;
}

export function pageParams(query: Query, maxPerPage = MAX_PER_PAGE): { page: number; perPage: number } {
  return { page: positive(query.page, 1), perPage: Math.min(positive(query.per_page, DEFAULT_PER_PAGE), maxPerPage) };
}

/** Nulls last when ascending, first when descending (as PostgreSQL sorts); ties by id. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function sortRecords<T extends StoredRecord>(records: T[], order: string | undefined, schema: Schema): T[] {
  const match = /^\s*(\w+)(?:\.(asc|desc))?\s*$/i.exec(order ?? '');
  const field = match?.[1];
  if (!field || field === 'id' || !Object.hasOwn(schema, field)) {
    return match?.[1] === 'id' && match[2]?.toLowerCase() === 'desc' ? [...records].reverse() : records;
  }
  const sign = match[2]?.toLowerCase() === 'desc' ? -1 : 1;
  return [...records].sort((a, b) => {
    const byField = compare(a[field], b[field]);
    return byField !== 0 ? sign * byField : a.id - b.id;
  });
}

/** Sorts and pages records already in id order; a page past the end is empty. */
export function listPage<T extends StoredRecord>(records: T[], query: Query, schema: Schema, profile?: Profile): T[] {
  const { page, perPage } = pageParams(query, profile?.maxPerPage);
  const sorted = profile && !profile.honoursOrder ? records : sortRecords(records, query.order, schema);
  return sorted.slice((page - 1) * perPage, page * perPage);
}
