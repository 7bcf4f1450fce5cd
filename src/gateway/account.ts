import type { Client, Deal, HelpdeskClient, NewDeal, NewErrorReport, NewTask, Page, Post, WebResource } from '../api';
import { isApiError } from '../api';
import type { HelpdeskStore } from '../store/helpdeskStore';

/** What an account's calls need from the gateway that made it. */
export interface Connection {
  /** The API client, built with the current settings. */
  api(): HelpdeskClient;
  /** Aborted once this account is signed out of, or signed in to again. */
  readonly signal: AbortSignal;
  /** Tells the session what a call met. */
  noteOutcome(error?: unknown): void;
  /** The store, while this account is the signed-in one. */
  store(): HelpdeskStore | undefined;
}

/**
 * One signed-in account: every call the extension makes to it. A sign-in check hands it out,
 * so whoever holds one is signed in to this account, and its calls go nowhere else. Each call
 * tells the session what it met, and each write brings the store up to date.
 */
export class Account {
  constructor(
    readonly url: string,
    private readonly connection: Connection,
  ) {}

  /** A record's page in the web app. */
  link(resource: WebResource, id: number): string {
    return this.connection.api().link(resource, id);
  }

  postsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Post>> {
    return this.run((api, s) => api.posts.listHelpdesk({ page, perPage, order: 'id.desc' }, s), signal);
  }

  clientsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Client>> {
    return this.run((api, s) => api.clients.list({ page, perPage, order: 'name' }, s), signal);
  }

  /** One post, fresh: the store's copy is replaced, or dropped when the post is gone. */
  async post(id: number, signal?: AbortSignal): Promise<Post> {
    try {
      const post = await this.run((api, s) => api.posts.get(id, s), signal);
      this.connection.store()?.posts.replace(post);
      return post;
    } catch (error) {
      if (isApiError(error, 'notFound')) this.connection.store()?.posts.remove(id);
      throw error;
    }
  }

  client(id: number): Promise<Client> {
    return this.run((api, s) => api.clients.get(id, s));
  }

  deal(id: number): Promise<Deal> {
    return this.run((api, s) => api.deals.get(id, s));
  }

  /** Every deal of one client. */
  dealsOf(clientId: number): Promise<Deal[]> {
    return this.run((api, s) => collect(api.deals.pages({ client_id: clientId, perPage: 100 }, s)));
  }

  /** Every deal of the account. */
  deals(): Promise<Deal[]> {
    return this.run((api, s) => collect(api.deals.pages({ perPage: 100 }, s)));
  }

  /** The newest posts (one page of 50), to look for one whose answer was lost. */
  newestPosts(signal?: AbortSignal): Promise<Post[]> {
    return this.run(async (api, s) => (await api.posts.listHelpdesk({ page: 1, perPage: 50, order: 'id.desc' }, s)).items, signal);
  }

  async createTask(task: NewTask, signal?: AbortSignal): Promise<Post> {
    return this.filed(await this.run((api, s) => api.posts.createTask(task, s), signal));
  }

  async reportError(report: NewErrorReport, signal?: AbortSignal): Promise<Post> {
    return this.filed(await this.run((api, s) => api.posts.reportError(report, s), signal));
  }

  async addComment(parentId: number, comment: { content: string; client_id?: number | null; responsible_id?: number | null }, signal?: AbortSignal): Promise<Post> {
    const created = await this.run((api, s) => api.posts.addComment(parentId, comment, s), signal);
    const posts = this.connection.store()?.posts;
    const parent = posts?.find(parentId);
    if (parent) posts!.replace({ ...parent, comments_cache: (Number(parent.comments_cache) || 0) + 1 });
    return created;
  }

  /** A post this extension filed, found after its answer was lost: the views show it as if just filed. */
  filed(post: Post): Post {
    this.connection.store()?.posts.upsert(post);
    return post;
  }

  async linkDeal(dealId: number, clientId: number): Promise<Deal> {
    return this.dealsChanged(await this.run((api, s) => api.deals.update(dealId, { client_id: clientId }, s)));
  }

  async createDeal(deal: NewDeal): Promise<Deal> {
    return this.dealsChanged(await this.run((api, s) => api.deals.create(deal, s)));
  }

  private dealsChanged(deal: Deal): Deal {
    this.connection.store()?.invalidateDeals();
    return deal;
  }

  private async run<T>(call: (api: HelpdeskClient, options: { signal: AbortSignal }) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const combined = signal ? AbortSignal.any([signal, this.connection.signal]) : this.connection.signal;
    try {
      const result = await call(this.connection.api(), { signal: combined });
      this.connection.noteOutcome();
      return result;
    } catch (error) {
      this.connection.noteOutcome(error);
      throw error;
    }
  }
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}
