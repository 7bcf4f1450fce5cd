import { isApiError } from './errors';
import type { CallOptions, Query } from './http';

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;

export interface PageParams {
  /** From 1. */
  page?: number;
  /** At most 100; larger values are sent as 100. */
  perPage?: number;
  /** A field name, or `field.desc` for descending order. */
  order?: string;
}

/**
 * One page of a list: the records kept, and how many items the service sent (broken records
 * included), since whether there may be another page depends on what was sent.
 */
export interface Page<T> {
  readonly items: T[];
  readonly received: number;
}

export function clampPerPage(perPage: number | undefined): number {
  if (perPage === undefined || !Number.isFinite(perPage)) return DEFAULT_PER_PAGE;
  return Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(perPage)));
}

export function pageQuery(params: PageParams): Query {
  return { page: params.page, per_page: params.perPage === undefined ? undefined : clampPerPage(params.perPage), order: params.order };
}

/** At most this many pages are read in one go, whatever the service sends. */
export const MAX_PAGES = 1000;

/** Why reading a list stopped before an empty page: a page seen before, a page of nothing readable, or too many. */
export type PagingStop = 'repeated' | 'unreadable' | 'cap';

/** Why a non-empty page ended the list (see `isLastPage`). */
export function stopReason(page: Page<unknown>): PagingStop {
  return page.items.length === 0 ? 'unreadable' : 'repeated';
}

/**
 * The one rule for the end of a list: an empty page, or a page whose records were all seen
 * before (a service that ignores `page` sends the first one again), or none of which could be
 * read (reading on could loop for ever on such a service). A short page is not the end: a
 * service may send fewer records than asked for.
 */
export function isLastPage(page: Page<{ id: number }>, seen: Pick<ReadonlySet<number>, 'has'>): boolean {
  return page.received === 0 || page.items.every((item) => seen.has(item.id));
}

/** A whole list as read: every record, or, where a page after the first failed, those read before it and the `error`. */
export interface ListRead<T> {
  readonly items: T[];
  readonly error?: unknown;
}

/** A page that holds nothing: the end of a list. */
export const EMPTY_PAGE: Page<never> = { items: [], received: 0 };

/**
 * Whether a failed page read means the list ended there: a 404 for a page after the first (a
 * page past the end may be `[]` or a 404, the service documents neither). On page 1 it is an error.
 */
export function endsList(error: unknown, page: number): boolean {
  return page > 1 && isApiError(error, 'notFound');
}

/** `read` of page `page`, where a 404 past the first page is read as the empty page that ends the list (see `endsList`). */
export async function readPage<T>(page: number, read: () => Promise<Page<T>>): Promise<Page<T>> {
  try {
    return await read();
  } catch (error) {
    if (endsList(error, page)) return EMPTY_PAGE;
    throw error;
  }
}

/**
 * Every page of a list, in order, from `params.page` (default 1) to the last (see
 * `isLastPage`; a 404 past the first page ends it too), at most `MAX_PAGES`. Only records not seen before are yielded. `onStop` is told
 * when it stopped for another reason than an empty page.
 */
export async function* pages<T extends { id: number }>(
  fetchPage: (params: PageParams, call: CallOptions) => Promise<Page<T>>,
  params: PageParams = {},
  call: CallOptions = {},
  onStop?: (why: PagingStop) => void,
): AsyncGenerator<T[], void, undefined> {
  const perPage = clampPerPage(params.perPage);
  const seen = new Set<number>();
  const first = params.page ?? 1;
  for (let page = first; ; page++) {
    if (page - first >= MAX_PAGES) return onStop?.('cap');
    const result = await readPage(page, () => fetchPage({ ...params, page, perPage }, call));
    const fresh = result.items.filter((item) => !seen.has(item.id));
    if (isLastPage(result, seen)) return void (result.received > 0 && onStop?.(stopReason(result)));
    for (const item of fresh) seen.add(item.id);
    yield fresh;
  }
}
