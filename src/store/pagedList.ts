import { Emitter } from '../api/emitter';
import { isLastPage, MAX_PAGES, readPage, stopReason, type Page, type PagingStop } from '../api/paging';
import { readLastPages, type SearchFrom } from './lastPages';

/** What a view shows of a paged list. */
export interface PagedListState<T> {
  readonly items: readonly T[];
  /** There may be more: the last page brought records not seen before (see `isLastPage`), or, going down, page 1 is still to read. */
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
  /** Goes up each time the list starts again (a refresh or a reset): loads before that are of another list. */
  readonly generation: number;
  /** The records are the last ones known (see `seed`): the service's answer is not in yet. */
  readonly lastKnown: boolean;
}

/**
 * What a change to a list touched, for views that redraw only that: the records at indexes
 * `from` on may differ (added, removed, moved or replaced); those before it did not change.
 * With `to`, only those in [from, to) were replaced, in place. Without `from`, no record
 * changed: only whether it loads, may have more, or failed.
 */
export interface ListChange {
  readonly from?: number;
  readonly to?: number;
}

export type PageFetcher<T> = (page: number, perPage: number, signal: AbortSignal) => Promise<Page<T>>;

/** Where the list stands in the service's pages, once a first load has been read. */
interface Walk {
  /** The page the next load reads; 0 when going down and page 1 was read. */
  readonly next: number;
  /** Up from page 1, or down from the service's last page (it lists in the reverse of this list's order). */
  readonly down: boolean;
  /** The page size every page of the walk is asked with, so that page numbers stay consistent. */
  readonly perPage: number;
}

/** Where the service listed the records a list shows first: its last page, for `perPage`, holding `full` a page. */
interface LastPage {
  readonly page: number;
  readonly perPage: number;
  readonly full: number;
}

/** What one load read: its pages, where the walk goes on, whether the list ended and why (when not at an empty page). */
interface Loaded<T> {
  readonly pages: Page<T>[];
  readonly walk: Walk;
  readonly ended: boolean;
  readonly stop?: PagingStop;
  /** A first load where the service lists in the reverse order: where it found its last page. */
  readonly lastPage?: LastPage;
}

/** The load in flight, and who waits for it: see `loadMore`. */
interface Flight {
  readonly promise: Promise<void>;
  readonly controller: AbortController;
  /** Someone waits for it who cannot give it up (a view): no signal aborts it. */
  kept: boolean;
  /** The signals of those who may give it up (a search) and have not. */
  holders: number;
}

/**
 * A list loaded one page at a time, kept in the order `compare` defines whatever order the
 * service sends. One load at most is in flight: `loadMore` during a load joins it, and
 * `refresh` aborts it, so a stale answer never overwrites a fresh one. Plain TypeScript (no
 * vscode), so its rules are unit-tested.
 *
 * Where the service sends page 1 in the reverse of this list's order (a service that ignores
 * `order` lists oldest first, and the Helpdesk view wants the newest first), the records to show
 * first are on its last page: that is found in O(log n) requests (see `readLastPages`) and shown
 * first, and "Load more" walks the pages down to 1. The last page found is remembered (until a
 * reset, for one page size), and a refresh probes from it, as the list may have grown.
 */
export class PagedList<T extends { id: number }> {
  private items: T[] = [];
  /** The ids of `items`; none where `compare` orders by id alone (see `has`). */
  private ids: Set<number> | undefined;
  /** What the load in flight changed, told when it settles. */
  private pending: ListChange = {};
  /** Records put in by `upsert` (made here) since the last reset: a first page does not drop them. */
  private readonly made = new Map<number, T>();
  /** The records made here since the last first load: the service may list them on a page read before. */
  private readonly madeSinceFirstLoad = new Set<number>();
  /**
   * What tells the records the service sent since the last first load from those loaded (see
   * `sent`): the loaded ones it did not send (made here), and those it sent that were removed
   * since. Both few, so that no second set holds every id.
   */
  private readonly unsent = new Set<number>();
  private readonly removedSent = new Set<number>();
  private sortedByService = false;
  /** Undefined until a first load was read (after a reset or refresh): the next load is a first one. */
  private walk: Walk | undefined;
  private lastPage: LastPage | undefined;
  private hasMore = true;
  private error: unknown = undefined;
  private errorLoadingMore = false;
  private started = false;
  private lastKnown = false;
  private generation = 0;
  private inFlight: Flight | undefined;
  private readonly changed = new Emitter<ListChange>();

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: () => number,
    private readonly compare: (a: T, b: T) => number,
    /** Told when the list ends for another reason than an empty page (see `pages`). */
    private readonly onStop: (why: PagingStop) => void = () => undefined,
    /** `byId`: `compare` orders by id alone, so that a record is found by bisection, with no set of the ids beside the records. */
    { byId = false }: { byId?: boolean } = {},
  ) {
    if (!byId) this.ids = new Set();
  }

  get state(): PagedListState<T> {
    return {
      items: this.items,
      hasMore: this.hasMore,
      loading: this.inFlight !== undefined,
      error: this.error,
      errorLoadingMore: this.errorLoadingMore,
      started: this.started,
      sortedByService: this.sortedByService,
      generation: this.generation,
      lastKnown: this.lastKnown,
    };
  }

  readonly onDidChange = this.changed.event;

  /**
   * Shows the records known from before (the rows shown last time) until the first load's answer
   * replaces them; only before anything was asked for or shown. False when it is too late.
   */
  seed(items: readonly T[]): boolean {
    if (this.started || this.items.length > 0 || items.length === 0) return false;
    this.setItems([...items].sort(this.compare));
    this.lastKnown = true;
    this.emit({ from: 0 });
    return true;
  }

  /** Loads the first page unless loading has started already. */
  ensureStarted(): Promise<void> {
    if (this.inFlight) return this.inFlight.promise;
    return this.started ? Promise.resolve() : this.loadMore();
  }

  /**
   * Loads the next page (the first: the records to show first); joins the load in flight, if any.
   * With a signal (a search's), the load is given up once every signal it was asked with is
   * aborted, unless it was asked for without one too (a view's): the page is asked for again by
   * the next load.
   */
  loadMore(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    if (this.inFlight) return this.hold(this.inFlight, signal);
    if (this.started && !this.hasMore) return Promise.resolve();
    this.started = true;
    const controller = new AbortController();
    const { walk } = this;
    const promise = (walk ? this.readNext(walk, controller.signal) : this.readFirst(controller.signal)).then(
      (loaded) => {
        if (!controller.signal.aborted) this.pending = this.apply(loaded, walk === undefined);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.error = error;
        this.errorLoadingMore = walk !== undefined;
      },
    );
    const flight: Flight = {
      controller,
      kept: false,
      holders: 0,
      promise: promise.finally(() => {
        if (this.inFlight === flight) {
          this.inFlight = undefined;
          const change = this.pending;
          this.pending = {};
          this.emit(change);
        }
      }),
    };
    this.inFlight = flight;
    this.emit({});
    return this.hold(flight, signal);
  }

  /** Counts who waits for the load, and gives it up once only aborted signals do. */
  private hold(flight: Flight, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) {
      flight.kept = true;
      return flight.promise;
    }
    flight.holders += 1;
    const giveUp = () => {
      flight.holders -= 1;
      if (flight.kept || flight.holders > 0 || this.inFlight !== flight) return;
      this.abort();
      // A first load given up leaves the list to start again.
      if (this.walk === undefined) this.started = false;
      this.pending = {};
      this.emit({});
    };
    signal.addEventListener('abort', giveUp, { once: true });
    void flight.promise.finally(() => signal.removeEventListener('abort', giveUp));
    return flight.promise;
  }

  /** Starts again from the records to show first. What is shown stays until they arrive. */
  refresh(): Promise<void> {
    this.abort();
    this.generation += 1;
    this.walk = undefined;
    this.hasMore = true;
    this.started = false;
    return this.loadMore();
  }

  /** Forgets everything (e.g. after signing out). */
  reset(): void {
    this.abort();
    this.generation += 1;
    this.setItems([]);
    this.lastKnown = false;
    this.made.clear();
    this.madeSinceFirstLoad.clear();
    this.unsent.clear();
    this.removedSent.clear();
    this.sortedByService = false;
    this.walk = undefined;
    this.lastPage = undefined;
    this.hasMore = true;
    this.error = undefined;
    this.errorLoadingMore = false;
    this.started = false;
    this.emit({ from: 0 });
  }

  /** Puts a record the user just created or changed in place, or at the top when new. */
  upsert(item: T): void {
    this.made.set(item.id, item);
    this.madeSinceFirstLoad.add(item.id);
    if (!this.replace(item)) {
      if (!this.removedSent.delete(item.id)) this.unsent.add(item.id);
      const items = [...this.items, item].sort(this.compare);
      this.setItems(items);
      this.emit({ from: items.indexOf(item) });
    }
  }

  /** Puts a fresher copy of a loaded record in place; false when it is not loaded. */
  replace(item: T): boolean {
    const index = this.items.findIndex((existing) => existing.id === item.id);
    if (index < 0) return false;
    // A copy that says what the loaded one says (a post read again, unchanged) changes nothing: no view is drawn again.
    if (sameRecord(this.items[index]!, item)) return true;
    if (this.made.has(item.id)) this.made.set(item.id, item);
    const items = this.items.map((existing, i) => (i === index ? item : existing)).sort(this.compare);
    const moved = items[index] !== item;
    this.setItems(items);
    this.emit(moved ? { from: Math.min(index, items.indexOf(item)) } : { from: index, to: index + 1 });
    return true;
  }

  find(id: number): T | undefined {
    return this.items.find((item) => item.id === id);
  }

  remove(id: number): void {
    this.made.delete(id);
    this.madeSinceFirstLoad.delete(id);
    const index = this.items.findIndex((item) => item.id === id);
    if (index < 0) return;
    if (!this.unsent.delete(id)) this.removedSent.add(id);
    this.setItems(this.items.filter((item) => item.id !== id));
    this.emit({ from: index });
  }

  /** Page 1, or where the service lists in the reverse order, its last pages (from the one found before, if any). */
  private async readFirst(signal: AbortSignal): Promise<Loaded<T>> {
    const perPage = this.pageSize();
    const read = this.reader(perPage, signal);
    const known = this.lastPage?.perPage === perPage ? this.lastPage : undefined;
    if (known) return this.readDown(read, { page: known.page }, known.full, perPage);
    const first = await read(1);
    if (this.reversed(first.items)) return this.readDown(read, { page: 1, read: first }, first.received, perPage);
    return { pages: [first], walk: { next: 2, down: false, perPage }, ...this.end(first, 1, new Set()) };
  }

  private async readDown(read: (page: number) => Promise<Page<T>>, from: SearchFrom<T>, full: number, perPage: number): Promise<Loaded<T>> {
    const found = await readLastPages(read, from, full);
    const stop = found.repeated ? 'repeated' : found.last === MAX_PAGES ? 'cap' : undefined;
    const lastPage = found.last > 0 ? { page: found.last, perPage, full } : undefined;
    return { pages: found.pages, walk: { next: found.next, down: true, perPage }, ended: found.next < 1, stop, lastPage };
  }

  private async readNext(walk: Walk, signal: AbortSignal): Promise<Loaded<T>> {
    const page = walk.next;
    const result = await this.reader(walk.perPage, signal)(page);
    if (walk.down) return { pages: [result], walk: { ...walk, next: page - 1 }, ended: page <= 1 };
    return { pages: [result], walk: { ...walk, next: page + 1 }, ...this.end(result, page, { has: (id) => this.sent(id) }) };
  }

  /** Reads pages of `perPage`; a 404 past page 1 is the empty page that ends the list; nothing is read once aborted. */
  private reader(perPage: number, signal: AbortSignal): (page: number) => Promise<Page<T>> {
    return async (page) => {
      const result = await readPage(page, () => this.fetchPage(page, perPage, signal));
      signal.throwIfAborted();
      return result;
    };
  }

  /** Going up: whether `page` ends the list (see `isLastPage`) or the cap does, and why when not at an empty page. */
  private end(result: Page<T>, page: number, seen: Pick<ReadonlySet<number>, 'has'>): { ended: boolean; stop?: PagingStop } {
    if (isLastPage(result, seen)) return { ended: true, stop: result.received > 0 ? stopReason(result) : undefined };
    return page < MAX_PAGES ? { ended: false } : { ended: true, stop: 'cap' };
  }

  /** Puts what a load read in the list; returns what changed. */
  private apply({ pages, walk, ended, stop, lastPage }: Loaded<T>, first: boolean): ListChange {
    const read = pages.flatMap((page) => page.items);
    if (first) {
      this.lastKnown = false;
      this.sortedByService = !walk.down && this.inOrder(read);
      this.lastPage = lastPage;
      this.madeSinceFirstLoad.clear();
    }
    const before = this.items;
    let from: number | undefined;
    if (first) {
      // A first load replaces what a refresh left on screen, but for records made here that the
      // service may list on a later page. What a first load read holds the list's first records
      // where the service sorts as this list does, or where it sorts the other way and these, its
      // last pages, are in that order too.
      const holdsFirst = this.sortedByService || (walk.down && this.reversed([...pages].reverse().flatMap((page) => page.items)));
      const made = this.madeNotIn(read, holdsFirst);
      const kept = new Map(made.map((item) => [item.id, item]));
      for (const item of read) if (!kept.has(item.id)) kept.set(item.id, item);
      this.setItems([...kept.values()].sort(this.compare));
      this.unsent.clear();
      this.removedSent.clear();
      for (const item of made) this.unsent.add(item.id);
      from = firstDifference(before, this.items);
    } else {
      from = this.append(read);
      for (const item of read) {
        this.unsent.delete(item.id);
        this.removedSent.delete(item.id);
      }
    }
    // The whole list read up to its empty page: a record made here before the first load that the
    // service did not send is gone. (One made since may stand on a page read before it: the service
    // lists it from the next first load on. Not going down: it stands past the last page read.)
    if (!walk.down && pages[0]!.received === 0) {
      const dropped = this.dropMadeNotSent();
      if (dropped !== undefined) from = Math.min(from ?? dropped, dropped);
    }
    this.walk = walk;
    this.hasMore = !ended;
    if (stop) this.onStop(stop);
    this.error = undefined;
    this.errorLoadingMore = false;
    return from === undefined ? {} : { from };
  }

  /**
   * A later page's records not loaded yet; returns the index of the first that changed. Where
   * they all sort after the last one loaded (a service that sorts as this list does), they are
   * added at the end without sorting or scanning the rest.
   */
  private append(read: readonly T[]): number | undefined {
    const fresh = new Map<number, T>();
    for (const item of read) if (!this.has(item.id) && !fresh.has(item.id)) fresh.set(item.id, item);
    if (fresh.size === 0) return undefined;
    const added = [...fresh.values()].sort(this.compare);
    const last = this.items.at(-1);
    const before = this.items;
    if (last === undefined || this.compare(last, added[0]!) <= 0) {
      this.items = this.items.concat(added);
      for (const item of added) this.ids?.add(item.id);
      return before.length;
    }
    this.setItems([...this.items, ...added].sort(this.compare));
    return firstDifference(before, this.items);
  }

  private setItems(items: T[]): void {
    this.items = items;
    if (this.ids) this.ids = new Set(items.map((item) => item.id));
  }

  /** Whether a record of this id is loaded. */
  private has(id: number): boolean {
    if (this.ids) return this.ids.has(id);
    // `compare` reads the id alone: a record that holds nothing else sorts where the loaded one does.
    const probe = { id } as T;
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(this.items[middle]!, probe) < 0) low = middle + 1;
      else high = middle;
    }
    return this.items[low]?.id === id;
  }

  /**
   * The records made here that a first load leaves out and may still exist. Where what it read
   * holds the list's first records, one that would sort among them is gone (deleted elsewhere)
   * and is dropped; otherwise it may stand on a later page, and stays.
   */
  private madeNotIn(read: readonly T[], holdsFirst: boolean): T[] {
    const last = read.reduce<T | undefined>((a, b) => (a && this.compare(a, b) >= 0 ? a : b), undefined);
    for (const made of this.made.values()) {
      if (read.some((item) => item.id === made.id) || (holdsFirst && last && this.compare(made, last) < 0)) this.made.delete(made.id);
    }
    return [...this.made.values()];
  }

  /** Returns the index of the first record dropped; undefined when none was. */
  private dropMadeNotSent(): number | undefined {
    const gone = [...this.made.keys()].filter((id) => !this.sent(id) && !this.madeSinceFirstLoad.has(id));
    for (const id of gone) {
      this.made.delete(id);
      this.unsent.delete(id);
    }
    const first = this.items.findIndex((item) => gone.includes(item.id));
    if (first < 0) return undefined;
    this.setItems(this.items.filter((item) => !gone.includes(item.id)));
    return first;
  }

  /** Whether the service sent a record of this id since the last first load. */
  private sent(id: number): boolean {
    return (this.has(id) && !this.unsent.has(id)) || this.removedSent.has(id);
  }

  /** Two records or more, each sorting no later than the next: the order this list keeps. */
  private inOrder(items: readonly T[]): boolean {
    return items.length >= 2 && items.every((item, i) => i === 0 || this.compare(items[i - 1]!, item) <= 0);
  }

  /** Two records or more, each sorting after the next: the reverse of the order this list keeps. */
  private reversed(items: readonly T[]): boolean {
    return items.length >= 2 && items.every((item, i) => i === 0 || this.compare(items[i - 1]!, item) > 0);
  }

  private abort(): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
  }

  private emit(change: ListChange): void {
    this.changed.fire(change);
  }
}

/** The first index where `after` holds another record than `before`, or their common length; undefined when they are the same. */
function firstDifference<T>(before: readonly T[], after: readonly T[]): number | undefined {
  const common = Math.min(before.length, after.length);
  let i = 0;
  // Appended records (the usual later page) leave `before` a prefix of `after`: the scan is of
  // references, cheap even for a long list.
  while (i < common && before[i] === after[i]) i++;
  return i === before.length && i === after.length ? undefined : i;
}

/**
 * Whether two copies of a record say the same: the same fields, each with the same value (a
 * nested value compared as its JSON, so one in another key order counts as changed). Linear in
 * their size.
 */
function sameRecord(a: object, b: object): boolean {
  const fields = Object.keys(a);
  if (fields.length !== Object.keys(b).length) return false;
  for (const field of fields) {
    if (!Object.hasOwn(b, field)) return false;
    const [x, y] = [(a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field]];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}
