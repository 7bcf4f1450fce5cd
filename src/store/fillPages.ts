import type { PagedListState } from './pagedList';

/** The part of a `PagedList` a fill works with. */
export interface FillableList {
  readonly state: PagedListState<{ id: number }>;
  ensureStarted(): Promise<void>;
  loadMore(): Promise<void>;
}

export interface FillOptions {
  /** Whether what the view shows is enough (a screenful of rows that match its filter). Called unbound. */
  enough: () => boolean;
  /** The most pages read by this fill. */
  maxPages: number;
  /** Aborted when what the view shows changes (another filter, another account). */
  signal: AbortSignal;
  /** Reads one page first whatever `enough` says (a click on "Load more…", or its retry). */
  atLeastOne?: boolean;
  /** Told after each page read, with how many this fill read so far. Called unbound. */
  onPage?: (pages: number) => void;
}

/**
 * Why a fill stopped: the view shows enough; the list has no more pages; `maxPages` were read
 * (from then on "Load more…" goes on); a page failed (the list holds the error, shown as a
 * retry row); or it was cancelled (the filter or the account changed, or the list started again).
 */
export type FillEnd = 'enough' | 'ended' | 'bound' | 'failed' | 'cancelled';

/**
 * Loads pages of a list one after the other until what a filtered view shows is enough, for a
 * filter the service cannot apply: only the loaded pages can be filtered. Bounded by `maxPages`.
 */
export async function fillPages(
  list: FillableList,
  { enough, maxPages, signal, atLeastOne = false, onPage }: FillOptions,
): Promise<FillEnd> {
  const generation = list.state.generation;
  const gone = () => signal.aborted || list.state.generation !== generation;
  // A first load under way (or none started yet) is the list's, not one of this fill's pages.
  if (!list.state.started || list.state.loading) await list.ensureStarted();
  let pages = 0;
  for (;;) {
    if (gone()) return 'cancelled';
    const forced = atLeastOne && pages === 0;
    if (!forced && enough()) return 'enough';
    const { error, hasMore } = list.state;
    if (!forced && error !== undefined) return 'failed';
    if (!hasMore) return 'ended';
    if (pages >= maxPages) return 'bound';
    await list.loadMore();
    pages += 1;
    if (gone()) return 'cancelled';
    onPage?.(pages);
    if (list.state.error !== undefined) return 'failed';
  }
}
