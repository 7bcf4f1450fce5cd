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

/** The one rule for the end of a list: a page shorter than asked for is the last one. */
export function isLastPage(page: Page<unknown>, perPage: number): boolean {
  return page.received < perPage;
}

/** Every page of a list, in order, from `params.page` (default 1) to the last (see `isLastPage`). */
export async function* pages<T>(
  fetchPage: (params: PageParams, call: CallOptions) => Promise<Page<T>>,
  params: PageParams = {},
  call: CallOptions = {},
): AsyncGenerator<T[], void, undefined> {
  const perPage = clampPerPage(params.perPage);
  for (let page = params.page ?? 1; ; page++) {
    call.signal?.throwIfAborted();
    const result = await fetchPage({ ...params, page, perPage }, call);
    if (result.items.length > 0) yield result.items;
    if (isLastPage(result, perPage)) return;
  }
}
