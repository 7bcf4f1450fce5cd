// How far a search of a helpdesk list reads, one rule for the agent's search (helpdesk_searchPosts)
// and the editor's picks: the list the views show, newest first, loaded further as its
// "Load more…" does, up to a bound. Reading through the views' list keeps one copy of each record:
// what a search finds is a row of the view, which every later write or fresh read updates. No vscode.
import type { PagedListState } from '../store/pagedList';

/** Records a search reads at most, per round: the newest this many (a person may look further, a round at a time). */
export const SEARCH_RECORDS = 500;

/** The part of a `PagedList` a search reads. */
export interface SearchableList<T extends { id: number } = { id: number }> {
  readonly state: PagedListState<T>;
  loadMore(signal?: AbortSignal): Promise<void>;
}

export interface ReadOptions {
  /** Stop once the list holds this many records (default SEARCH_RECORDS). */
  most?: number;
  /** Aborted: stop at once; a page under way is given up unless a view waits for it too (see PagedList.loadMore). */
  signal: AbortSignal;
  /** Whether what was read so far is enough. */
  enough?: () => boolean;
  /** A failure the list holds from before this read is tried again (a person's new search), not taken as the end. */
  retry?: boolean;
}

/**
 * Why a read stopped: the list has no more records (every one was searched); the bound was met
 * (the list holds `most`); `enough`; a page failed (the list holds the error); or it was
 * cancelled (the signal, or the list started again: another account, a refresh).
 */
export type ReadEnd = 'complete' | 'bound' | 'enough' | 'failed' | 'cancelled';

/** Loads the list further, a page at a time, until one of the ends in `ReadEnd`. */
export async function readFurther(
  list: SearchableList,
  { most = SEARCH_RECORDS, signal, enough = () => false, retry = false }: ReadOptions,
): Promise<ReadEnd> {
  const generation = list.state.generation;
  const gone = () => signal.aborted || list.state.generation !== generation;
  let stop: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (stop = resolve));
  signal.addEventListener('abort', stop, { once: true });
  let loads = 0;
  try {
    for (;;) {
      if (gone()) return 'cancelled';
      const { items, hasMore, error, started } = list.state;
      if (started && enough()) return 'enough';
      if (error !== undefined && (loads > 0 || !retry)) return 'failed';
      if (started && !hasMore) return 'complete';
      if (items.length >= most) return 'bound';
      await Promise.race([list.loadMore(signal), aborted]);
      loads += 1;
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
