import type { Client, Deal, Post } from '../api';
import { readSettings } from '../settings';
import { PagedList, type PageFetcher } from './pagedList';

/** How the store gets what it holds: the gateway's reads. */
export interface StoreLoaders {
  posts: PageFetcher<Post>;
  clients: PageFetcher<Client>;
  /** Every deal of one client. */
  dealsOf: (clientId: number) => Promise<Deal[]>;
}

/**
 * What the views show, loaded and cached in one place. Views read it; the gateway fills it and
 * updates it after every write; nothing else calls the service for a view.
 */
export class HelpdeskStore {
  readonly posts: PagedList<Post>;
  readonly clients: PagedList<Client>;
  private readonly deals = new Map<number, Promise<Deal[]>>();
  private readonly dealListeners = new Set<() => void>();

  constructor(private readonly loaders: StoreLoaders) {
    const pageSize = () => readSettings().pageSize;
    this.posts = new PagedList<Post>(loaders.posts, pageSize);
    this.clients = new PagedList<Client>(loaders.clients, pageSize);
  }

  /** Every deal of a client, loaded once until invalidated. */
  dealsOf(clientId: number): Promise<Deal[]> {
    let deals = this.deals.get(clientId);
    if (!deals) {
      deals = this.loaders.dealsOf(clientId);
      this.deals.set(clientId, deals);
      deals.catch(() => this.deals.delete(clientId));
    }
    return deals;
  }

  invalidateDeals(): void {
    this.deals.clear();
    for (const listener of this.dealListeners) listener();
  }

  onDidChangeDeals(listener: () => void): { dispose(): void } {
    this.dealListeners.add(listener);
    return { dispose: () => this.dealListeners.delete(listener) };
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
    this.posts.reset();
    this.clients.reset();
    this.invalidateDeals();
  }
}
