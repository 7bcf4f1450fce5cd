import { EMPTY_PAGE, MAX_PAGES, type Page } from '../api/paging';

/**
 * The last page of a list that holds records, in O(log n) reads of `holds`: from a page that
 * holds records, steps doubling up until one does not; from one that does not, steps doubling
 * down until one does; then the gap between the two halved. 0 when no page does. Pages past
 * `MAX_PAGES` are not read.
 */
export async function findLastPage(holds: (page: number) => Promise<boolean>, from: number, fromHolds: boolean): Promise<number> {
  let below = 0; // The highest page known to hold records (0: none known).
  let above = MAX_PAGES + 1; // The lowest page known not to, or past the cap.
  if (fromHolds) {
    below = from;
    for (let step = 1; below + step < above; step *= 2) {
      if (await holds(below + step)) below += step;
      else above = below + step;
    }
  } else {
    above = from;
    for (let step = 1; above - step > below; step *= 2) {
      if (await holds(above - step)) below = above - step;
      else above -= step;
    }
  }
  while (above - below > 1) {
    const middle = Math.floor((below + above) / 2);
    if (await holds(middle)) below = middle;
    else above = middle;
  }
  return below;
}

/** What a list shows first where the service lists in the reverse of its order. */
export interface LastPages<T> {
  /** The service's last page that holds records, then (when it is short) the one before it. */
  readonly pages: Page<T>[];
  /** The service's last page that holds records; 0: none does. */
  readonly last: number;
  /** The page to read next, down towards page 1; 0: none left. */
  readonly next: number;
  /** Another page held only records of the search's first page: the service ignores `page`. */
  readonly repeated: boolean;
}

/** Where a search starts: page 1 as read, or the last page found before. */
export type SearchFrom<T> = { page: 1; read: Page<T> } | { page: number };

/**
 * The pages a list shows first where the service lists in the reverse of the list's order (oldest
 * first for a list of the newest first): its last page that holds records, and the one before
 * when that is short of `full` (what page 1 holds), so that a full page's worth shows. `from` is
 * page 1 as read (a first search), or the last page found before (a refresh: since then the
 * list may have grown or shrunk). A page past the end reads as empty (see `readPage`).
 */
export async function readLastPages<T extends { id: number }>(
  read: (page: number) => Promise<Page<T>>,
  from: SearchFrom<T>,
  full: number,
): Promise<LastPages<T>> {
  const pages = new Map<number, Page<T>>();
  // The search's first page, page 1 or the one found before: a service that has come to ignore
  // `page` since then answers every page with it, and each would seem to hold records up to the cap.
  let first: { page: number; ids: Set<number> } | undefined;
  let repeated = false;
  const holds = async (page: number) => {
    const result = pages.get(page) ?? (await read(page));
    pages.set(page, result);
    if (!first) first = { page, ids: new Set(result.items.map((item) => item.id)) };
    else if (page !== first.page && result.items.length > 0 && result.items.every((item) => first!.ids.has(item.id))) {
      repeated = true;
      return false;
    }
    return result.received > 0;
  };
  if ('read' in from) pages.set(1, from.read);
  const last = await findLastPage(holds, from.page, await holds(from.page));
  if (last === 0) return { pages: [EMPTY_PAGE], last, next: 0, repeated };
  const shown = [pages.get(last)!];
  if (last > 1 && shown[0]!.items.length < full) shown.push(pages.get(last - 1) ?? (await read(last - 1)));
  return { pages: shown, last, next: last - shown.length, repeated };
}
