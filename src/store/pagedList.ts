import { isLastPage, MAX_PAGES, readPage, stopReason, type Page, type PagingStop } from '../api/paging';

/** What a view shows of a paged list. */
export interface PagedListState<T> {
  readonly items: readonly T[];
  /** The last page brought records not seen before, so there may be more (see `isLastPage`). */
  readonly hasMore: boolean;
  readonly loading: boolean;
  /** The last load failed; what was loaded before stays. */
  readonly error: unknown;
  /** The failed load was of a page after the first: the rows shown are the list's first, only more failed. */
  readonly errorLoadingMore: boolean;
  /** At least one page has been asked for since the last reset. */
  readonly started: boolean;
  /**
   * The service sent the first page (of two records or more) in this list's own order: it
   * sorts as asked, so that page held the first records there are.
   */
  readonly sortedByService: boolean;
}

export type PageFetcher<T> = (page: number, perPage: number, signal: AbortSignal) => Promise<Page<T>>;

/**
 * A list loaded one page at a time, kept in the order `compare` defines whatever order the
 * service sends. One load at most is in flight: `loadMore` during a load joins it, and
 * `refresh` aborts it, so a stale answer never overwrites a fresh one. Plain TypeScript (no
 * vscode), so its rules are unit-tested.
 */
export class PagedList<T extends { id: number }> {
  private items: T[] = [];
  /** Records put in by `upsert` (made here) since the last reset: a first page does not drop them. */
  private readonly made = new Map<number, T>();
  /** The ids the service sent since the last first page. */
  private fromService = new Set<number>();
  private sortedByService = false;
  private nextPage = 1;
  private hasMore = true;
  private error: unknown = undefined;
  private errorLoadingMore = false;
  private started = false;
  private inFlight: { promise: Promise<void>; controller: AbortController } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: () => number,
    private readonly compare: (a: T, b: T) => number,
    /** Told when the list ends for another reason than an empty page (see `pages`). */
    private readonly onStop: (why: PagingStop) => void = () => undefined,
  ) {}

  get state(): PagedListState<T> {
    return { items: this.items, hasMore: this.hasMore, loading: this.inFlight !== undefined, error: this.error, errorLoadingMore: this.errorLoadingMore, started: this.started, sortedByService: this.sortedByService };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Loads the first page unless loading has started already. */
  ensureStarted(): Promise<void> {
    if (this.inFlight) return this.inFlight.promise;
    return this.started ? Promise.resolve() : this.loadMore();
  }

  /** Loads the next page; joins the load in flight, if any. */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight.promise;
    if (this.started && !this.hasMore) return Promise.resolve();
    this.started = true;
    const controller = new AbortController();
    const page = this.nextPage;
    const perPage = this.pageSize();
    const promise = readPage(page, () => this.fetchPage(page, perPage, controller.signal)).then(
      (result) => {
        if (controller.signal.aborted) return;
        if (page === 1) {
          this.fromService = new Set();
          this.sortedByService = this.inOrder(result.items);
        }
        const last = isLastPage(result, this.fromService);
        for (const item of result.items) this.fromService.add(item.id);
        // Page 1 replaces what a refresh left on screen, but for records made here that the
        // service may list on a later page; later pages skip records already loaded.
        const base = page === 1 ? this.madeNotIn(result.items) : this.items;
        const known = new Set(base.map((item) => item.id));
        this.items = [...base, ...result.items.filter((item) => !known.has(item.id))].sort(this.compare);
        // The whole list read: a record made here that the service did not send is gone.
        if (result.received === 0) this.dropMadeNotSent();
        this.nextPage = page + 1;
        this.hasMore = !last && page < MAX_PAGES;
        if (last && result.received > 0) this.onStop(stopReason(result));
        else if (!last && !this.hasMore) this.onStop('cap');
        this.error = undefined;
        this.errorLoadingMore = false;
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.error = error;
        this.errorLoadingMore = page > 1;
      },
    );
    const flight = {
      controller,
      promise: promise.finally(() => {
        if (this.inFlight === flight) {
          this.inFlight = undefined;
          this.emit();
        }
      }),
    };
    this.inFlight = flight;
    this.emit();
    return flight.promise;
  }

  /** Starts again from the first page. What is shown stays until the new page arrives. */
  refresh(): Promise<void> {
    this.abort();
    this.nextPage = 1;
    this.hasMore = true;
    this.started = false;
    return this.loadMore();
  }

  /** Forgets everything (e.g. after signing out). */
  reset(): void {
    this.abort();
    this.items = [];
    this.made.clear();
    this.fromService = new Set();
    this.sortedByService = false;
    this.nextPage = 1;
    this.hasMore = true;
    this.error = undefined;
    this.errorLoadingMore = false;
    this.started = false;
    this.emit();
  }

  /** Puts a record the user just created or changed in place, or at the top when new. */
  upsert(item: T): void {
    this.made.set(item.id, item);
    if (!this.replace(item)) {
      this.items = [...this.items, item].sort(this.compare);
      this.emit();
    }
  }

  /** Puts a fresher copy of a loaded record in place; false when it is not loaded. */
  replace(item: T): boolean {
    const index = this.items.findIndex((existing) => existing.id === item.id);
    if (index < 0) return false;
    if (this.made.has(item.id)) this.made.set(item.id, item);
    this.items = this.items.map((existing, i) => (i === index ? item : existing)).sort(this.compare);
    this.emit();
    return true;
  }

  find(id: number): T | undefined {
    return this.items.find((item) => item.id === id);
  }

  remove(id: number): void {
    this.made.delete(id);
    this.items = this.items.filter((item) => item.id !== id);
    this.emit();
  }

  /**
   * The records made here that a first page leaves out and may still exist. Where the service
   * sent the page in this list's own order, one that would sort into the page is gone (deleted
   * elsewhere) and is dropped; otherwise it may stand on a later page, and stays.
   */
  private madeNotIn(firstPage: readonly T[]): T[] {
    const last = firstPage.at(-1);
    for (const made of this.made.values()) {
      if (firstPage.some((item) => item.id === made.id) || (this.sortedByService && last && this.compare(made, last) < 0)) this.made.delete(made.id);
    }
    return [...this.made.values()];
  }

  private dropMadeNotSent(): void {
    const gone = [...this.made.keys()].filter((id) => !this.fromService.has(id));
    for (const id of gone) this.made.delete(id);
    if (gone.length) this.items = this.items.filter((item) => !gone.includes(item.id));
  }

  /** Two records or more, each sorting no later than the next: the order this list keeps. */
  private inOrder(items: readonly T[]): boolean {
    return items.length >= 2 && items.every((item, i) => i === 0 || this.compare(items[i - 1]!, item) <= 0);
  }

  private abort(): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
