import type { Client, Deal, ListRead, PagingStop, Post } from '../api';
import { readSettings } from '../settings';
import { PagedList, type PageFetcher } from './pagedList';
import { PostPeeks, type Peek } from './postPeeks';

/** How the store gets what it holds: the gateway's reads. */
export interface StoreLoaders {
  posts: PageFetcher<Post>;
  clients: PageFetcher<Client>;
  /** Every deal of one client (those read before a page that failed, and the error). */
  dealsOf: (clientId: number) => Promise<ListRead<Deal>>;
  /** Told when a list ends for another reason than an empty page. */
  onStop: (list: 'posts' | 'clients', why: PagingStop) => void;
}

/** Newest first. */
const byIdDescending = (a: { id: number }, b: { id: number }) => b.id - a.id;

/** By name as a person reads it (case and accents aside), then by id. */
export const byName = (a: { id: number; name?: unknown }, b: { id: number; name?: unknown }) => collator.compare(nameOf(a), nameOf(b)) || a.id - b.id;

/** The name as a row shows it (see labelText): a number reads as its digits, anything else as nothing. */
const nameOf = ({ name }: { name?: unknown }) => (typeof name === 'string' || typeof name === 'number' ? String(name) : '');
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * What the views show, loaded and cached in one place. Views read it; the gateway fills it and
 * updates it after every write; nothing else calls the service for a view.
 */
export class HelpdeskStore {
  readonly posts: PagedList<Post>;
  readonly clients: PagedList<Client>;
  /** Posts looked up one at a time, by hovers. */
  readonly peeks = new PostPeeks();
  private readonly deals = new Map<number, Promise<ListRead<Deal>>>();
  private readonly dealListeners = new Set<() => void>();
  private readonly statusListeners = new Set<() => void>();
  private statusNames: ReadonlyMap<number, string> | undefined;

  constructor(private readonly loaders: StoreLoaders) {
    const pageSize = () => readSettings().pageSize;
    this.posts = new PagedList<Post>(loaders.posts, pageSize, byIdDescending, (why) => loaders.onStop('posts', why));
    this.clients = new PagedList<Client>(loaders.clients, pageSize, byName, (why) => loaders.onStop('clients', why));
  }

  /**
   * Every deal of a client, loaded once until invalidated. Where a page after the first failed,
   * the deals read before it and the error, kept until `retryDeals`.
   */
  dealsOf(clientId: number): Promise<ListRead<Deal>> {
    let deals = this.deals.get(clientId);
    if (!deals) {
      deals = this.loaders.dealsOf(clientId).then((read) => ({ ...read, items: read.items.sort(byName) }));
      this.deals.set(clientId, deals);
      const loading = deals;
      loading.catch(() => this.deals.get(clientId) === loading && this.deals.delete(clientId));
    }
    return deals;
  }

  /** Reads a client's deals again (their last read failed). */
  retryDeals(clientId: number): void {
    this.deals.delete(clientId);
    for (const listener of this.dealListeners) listener();
  }

  invalidateDeals(): void {
    this.deals.clear();
    for (const listener of this.dealListeners) listener();
  }

  onDidChangeDeals(listener: () => void): { dispose(): void } {
    this.dealListeners.add(listener);
    return { dispose: () => this.dealListeners.delete(listener) };
  }

  /** Post status names by id; undefined until they were asked for (then empty if the service has none). */
  get statuses(): ReadonlyMap<number, string> | undefined {
    return this.statusNames;
  }

  setStatuses(names: ReadonlyMap<number, string>): void {
    this.statusNames = names;
    for (const listener of this.statusListeners) listener();
  }

  onDidChangeStatuses(listener: () => void): { dispose(): void } {
    this.statusListeners.add(listener);
    return { dispose: () => this.statusListeners.delete(listener) };
  }

  refreshAll(): Promise<unknown> {
    return Promise.all([this.posts.refresh(), this.refreshClients()]);
  }

  /** The clients list and, as they hang below it, their deals. */
  refreshClients(): Promise<void> {
    this.deals.clear();
    return this.clients.refresh();
  }

  /** Forgets everything (another account, or signed out). */
  reset(): void {
    this.peeks.clear();
    this.posts.reset();
    this.clients.reset();
    this.statusNames = undefined;
    this.invalidateDeals();
  }
}

export type { Peek };
