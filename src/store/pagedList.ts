import { isLastPage, type Page } from '../api/paging';

/** What a view shows of a paged list. */
export interface PagedListState<T> {
  readonly items: readonly T[];
  /** The last page was full, so there may be more. */
  readonly hasMore: boolean;
  readonly loading: boolean;
  /** The last load failed; what was loaded before stays. */
  readonly error: unknown;
  /** At least one page has been asked for since the last reset. */
  readonly started: boolean;
}

export type PageFetcher<T> = (page: number, perPage: number, signal: AbortSignal) => Promise<Page<T>>;

/**
 * A list loaded one page at a time. One load at most is in flight: `loadMore` during a load
 * joins it, and `refresh` aborts it, so a stale answer never overwrites a fresh one.
 * Plain TypeScript (no vscode), so its rules are unit-tested.
 */
export class PagedList<T extends { id: number }> {
  private items: T[] = [];
  private nextPage = 1;
  private hasMore = true;
  private error: unknown = undefined;
  private started = false;
  private inFlight: { promise: Promise<void>; controller: AbortController } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: () => number,
  ) {}

  get state(): PagedListState<T> {
    return { items: this.items, hasMore: this.hasMore, loading: this.inFlight !== undefined, error: this.error, started: this.started };
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
    const promise = this.fetchPage(page, perPage, controller.signal).then(
      (result) => {
        if (controller.signal.aborted) return;
        // Page 1 replaces what a refresh left on screen; later pages skip records that moved
        // into them since the page before was read.
        const base = page === 1 ? [] : this.items;
        const known = new Set(base.map((item) => item.id));
        this.items = [...base, ...result.items.filter((item) => !known.has(item.id))];
        this.nextPage = page + 1;
        this.hasMore = !isLastPage(result, perPage);
        this.error = undefined;
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.error = error;
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
    this.nextPage = 1;
    this.hasMore = true;
    this.error = undefined;
    this.started = false;
    this.emit();
  }

  /** Puts a record the user just created or changed in place, or at the top when new. */
  upsert(item: T): void {
    if (!this.replace(item)) {
      this.items = [item, ...this.items];
      this.emit();
    }
  }

  /** Puts a fresher copy of a loaded record in place; false when it is not loaded. */
  replace(item: T): boolean {
    const index = this.items.findIndex((existing) => existing.id === item.id);
    if (index < 0) return false;
    this.items = this.items.map((existing, i) => (i === index ? item : existing));
    this.emit();
    return true;
  }

  find(id: number): T | undefined {
    return this.items.find((item) => item.id === id);
  }

  remove(id: number): void {
    this.items = this.items.filter((item) => item.id !== id);
    this.emit();
  }

  private abort(): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
