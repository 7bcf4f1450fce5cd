import type { Client, Deal, HelpdeskClient, Post } from '../api';
import type { Session } from '../auth/session';
import { readSettings } from '../settings';
import { PagedList } from './pagedList';

/**
 * What the views show, loaded and cached in one place. Views read it; commands update it after
 * they change something; nothing else calls the server for a view.
 */
export class HelpdeskStore {
  readonly posts: PagedList<Post>;
  readonly clients: PagedList<Client>;
  private readonly deals = new Map<number, Promise<Deal[]>>();
  private readonly dealListeners = new Set<() => void>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly session: Session) {
    const pageSize = () => readSettings().pageSize;
    const outcome = (error?: unknown) => session.noteOutcome(error);
    this.posts = new PagedList<Post>(
      (page, perPage, signal) => this.api().posts.listHelpdesk({ page, perPage, order: 'id.desc' }, { signal }),
      pageSize,
      outcome,
    );
    this.clients = new PagedList<Client>(
      (page, perPage, signal) => this.api().clients.list({ page, perPage, order: 'name' }, { signal }),
      pageSize,
      outcome,
    );
    let account = session.accountUrl;
    this.subscription = session.onDidChange(() => {
      if (session.accountUrl !== account || !session.client) {
        account = session.accountUrl;
        this.reset();
      }
    });
  }

  /** Every deal of a client (all pages), loaded once until invalidated. */
  dealsOf(clientId: number): Promise<Deal[]> {
    let deals = this.deals.get(clientId);
    if (!deals) {
      deals = this.loadDeals(clientId);
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

  dispose(): void {
    this.subscription.dispose();
  }

  private reset(): void {
    this.posts.reset();
    this.clients.reset();
    this.invalidateDeals();
  }

  private async loadDeals(clientId: number): Promise<Deal[]> {
    const all: Deal[] = [];
    try {
      for await (const page of this.api().deals.pages({ client_id: clientId, perPage: 100 })) all.push(...page);
      this.session.noteOutcome();
    } catch (error) {
      this.session.noteOutcome(error);
      throw error;
    }
    return all;
  }

  private api(): HelpdeskClient {
    const client = this.session.client;
    if (!client) throw new Error('Not signed in.');
    return client;
  }
}
