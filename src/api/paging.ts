import type { CallOptions, Query } from './http';
import { receivedCount } from './parse';

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

export function clampPerPage(perPage: number | undefined): number {
  if (perPage === undefined || !Number.isFinite(perPage)) return DEFAULT_PER_PAGE;
  return Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(perPage)));
}

export function pageQuery(params: PageParams): Query {
  return { page: params.page, per_page: params.perPage === undefined ? undefined : clampPerPage(params.perPage), order: params.order };
}

/**
 * Every page of a list, in order, starting at `params.page` (default 1). It stops after an
 * empty page or one shorter than the page size, so it never asks for a page past the end
 * when the last one is short.
 */
export async function* pages<T>(
  fetchPage: (params: PageParams, call: CallOptions) => Promise<T[]>,
  params: PageParams = {},
  call: CallOptions = {},
): AsyncGenerator<T[], void, undefined> {
  const perPage = clampPerPage(params.perPage);
  for (let page = params.page ?? 1; ; page++) {
    call.signal?.throwIfAborted();
    const items = await fetchPage({ ...params, page, perPage }, call);
    if (items.length > 0) yield items;
    if (receivedCount(items) < perPage) return;
  }
}
