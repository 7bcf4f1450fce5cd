import type { Client, Deal, HelpdeskClient, ListRead, NewComment, NewDeal, NewErrorReport, NewTask, Page, Post, WebResource } from '../api';
import { isApiError, isLastPage, MAX_PAGES, type PageParams, type PagingStop } from '../api';
import { carriesDraftRef } from '../drafts/draftRef';
import type { HelpdeskStore } from '../store/helpdeskStore';
import type { FiledKind, ListKnowledge } from './listKnowledge';

/** How many posts the lost-answer search reads at most (in pages of up to 100). */
const FIND_POSTS = 1000;

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
  /** Logs a fact about how the service behaves, once per account. */
  noteOnce(key: string, message: string): void;
  /** What this account's list of posts has been seen to hand back. */
  readonly knowledge: ListKnowledge;
}

/** What a search for a filed post concluded when it did not find it (see `Account.findFiled`). */
export type FindOutcome = 'absent' | 'unproven' | 'unsure';

/** A call was stopped because its account was signed out of, or signed in to with another token. */
export class SignedOutError extends Error {
  override readonly name = 'SignedOutError';

  constructor(readonly accountUrl: string) {
    super(`Signed out of ${accountUrl} before the call finished.`);
  }
}

/**
 * One signed-in account: every call the extension makes to it. A sign-in check hands it out;
 * its calls go to this account only, and once it is signed out of they fail with
 * `SignedOutError` instead of going out with an old token. Each call tells the session what it
 * met, and each write brings the store up to date.
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
    return this.run(async (api, s) => {
      const result = await this.listPosts(api, { page, perPage, order: 'id.desc' }, s);
      void this.connection.knowledge.notePage(result.items);
      return result;
    }, signal);
  }

  /** A post this extension filed, with the marker it carried: a list that shows it teaches what the list shows. */
  noteFiled(kind: FiledKind, id: number, ref: string): Promise<void> {
    return this.connection.knowledge.noteFiled(kind, id, ref);
  }

  /**
   * A page of `/app.json`. `order` is a convention of the sister product, not documented here:
   * a service that refuses it (422) is asked again without it, and from then on never with it.
   */
  private async listPosts(api: HelpdeskClient, params: PageParams, call: { signal: AbortSignal }): Promise<Page<Post>> {
    const { knowledge } = this.connection;
    if (params.order === undefined || knowledge.orderRefused) return api.posts.listHelpdesk({ ...params, order: undefined }, call);
    try {
      return await api.posts.listHelpdesk(params, call);
    } catch (error) {
      if (!isApiError(error, 'validation')) throw error;
      await knowledge.noteOrderRefused();
      this.connection.noteOnce('posts:order', `The service refused "order=${params.order}" (HTTP 422): posts are listed in the order it chooses.`);
      return api.posts.listHelpdesk({ ...params, order: undefined }, call);
    }
  }

  /**
   * Whether the service really sorts posts by id: its first post oldest first (`order=id`, the
   * sister product's ascending form) is the oldest of all it listed newest first, or older still.
   * A service that sorts by something else (or nothing) and happened to send descending ids
   * answers the same first post both ways; one that refuses `order` does not sort.
   */
  private async sortsById(api: HelpdeskClient, call: { signal: AbortSignal }, newestFirst: ReadonlySet<number>): Promise<boolean> {
    if (this.connection.knowledge.orderRefused) return false;
    let oldest: Post | undefined;
    try {
      oldest = (await api.posts.listHelpdesk({ page: 1, perPage: 1, order: 'id' }, call)).items[0];
    } catch (error) {
      if (isApiError(error, 'validation')) return false;
      throw error;
    }
    const ids = [...newestFirst];
    return oldest !== undefined && ids.length > 1 && oldest.id <= Math.min(...ids) && oldest.id !== Math.max(...ids);
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

  /**
   * Every deal of one client; where a page after the first fails, those read before it and the
   * error. The service is asked for them, and what it sends is checked: it may not filter.
   */
  async dealsOf(clientId: number): Promise<ListRead<Deal>> {
    const deals: Deal[] = [];
    let error: unknown;
    try {
      await this.run(async (api, s) => {
        for await (const page of api.deals.pages({ client_id: clientId, perPage: 100 }, s, this.onStop('deals'))) deals.push(...page);
      });
    } catch (failed) {
      if (deals.length === 0 || failed instanceof SignedOutError) throw failed;
      error = failed;
    }
    const own = deals.filter((deal) => deal.client_id === clientId);
    if (own.length < deals.length) this.connection.noteOnce('deals:unfiltered', 'The service sent deals of other clients for one client: it seems to ignore "client_id". They are left out.');
    return { items: own, error };
  }

  /** Every deal of the account. */
  deals(): Promise<Deal[]> {
    return this.run((api, s) => collect(api.deals.pages({ perPage: 100 }, s, this.onStop('deals'))));
  }

  /**
   * Status names by id, for posts. A nicety: what this call meets does not move the session
   * (a token may see posts without seeing statuses).
   */
  async statuses(): Promise<Map<number, string>> {
    const statuses = await this.run((api, s) => api.statuses('post', s), undefined, { quiet: true });
    return new Map(statuses.flatMap((status) => (typeof status.name === 'string' && status.name.trim() ? [[status.id, status.name]] : [])));
  }

  /**
   * The post this extension filed with the marker `ref`, after an attempt whose answer was lost,
   * whatever order the service lists posts in. `after` is the newest id known before the first
   * try: where the service sorts by id as asked, the search pages back until it is past `after`
   * (and, to learn whether the list shows such posts with their marker, on to the newest post of
   * this kind filed here before, at most `FIND_POSTS` posts more); otherwise it reads at most
   * `FIND_POSTS` posts. It never concludes from what a list may not show:
   * - `absent`: the list was read that far, and it is known to hand back this kind of post with
   *   its marker intact (see `ListKnowledge`);
   * - `unproven`: read that far, but the list has not been seen to show such a marker;
   * - `unsure`: the list not read that far, or a record it could not read (it may be the one).
   */
  findFiled(kind: FiledKind, ref: string, after: number | undefined, signal?: AbortSignal): Promise<Post | FindOutcome> {
    const { knowledge } = this.connection;
    const matches = (post: Post) => carriesDraftRef(post.content, ref);
    return this.run(async (api, s) => {
      const seen = new Set<number>();
      // Where the list is not yet known to show this kind's marker, reading on to a post of that
      // kind filed here before tells whether it does.
      const learnFrom = knowledge.showsMarkers(kind) ? undefined : knowledge.newestFiled(kind)?.id;
      const stopAt = after === undefined ? undefined : Math.min(after, learnFrom ?? after);
      let newestFirst = true;
      let sorted: boolean | undefined;
      let last = Infinity;
      let unreadable = false;
      let pastAfter = 0;
      const concluded = (): FindOutcome => (unreadable ? 'unsure' : knowledge.showsMarkers(kind) ? 'absent' : 'unproven');
      for (let page = 1; page <= MAX_PAGES; page++) {
        // Past FIND_POSTS only while the ids fall towards `after` as they are sorted, and then at
        // most FIND_POSTS more to learn: what the search can still learn bounds it.
        if (seen.size >= FIND_POSTS && !(newestFirst && stopAt !== undefined && sorted !== false)) return 'unsure';
        if (pastAfter >= FIND_POSTS) return 'unsure';
        const result = await pastEndIsEmpty(page, this.listPosts(api, { page, perPage: 100, order: 'id.desc' }, s));
        unreadable ||= result.received > result.items.length;
        await knowledge.notePage(result.items);
        // Only the end of the list makes sure: a page seen before means the rest was never read.
        if (isLastPage(result, seen)) return result.received === 0 ? concluded() : 'unsure';
        for (const post of result.items) {
          if (seen.has(post.id)) continue;
          seen.add(post.id);
          newestFirst &&= post.id < last;
          last = post.id;
          if (after !== undefined && post.id <= after) pastAfter++;
          if (matches(post)) return this.filed(post);
        }
        if (!newestFirst || stopAt === undefined || last > stopAt) continue;
        sorted ??= await this.sortsById(api, s, seen);
        if (sorted) return concluded();
      }
      return 'unsure';
    }, signal);
  }

  async createTask(task: NewTask, signal?: AbortSignal): Promise<Post> {
    return this.filed(await this.run((api, s) => api.posts.createTask(task, s), signal));
  }

  async reportError(report: NewErrorReport, signal?: AbortSignal): Promise<Post> {
    return this.filed(await this.run((api, s) => api.posts.reportError(report, s), signal));
  }

  async addComment(parentId: number, comment: NewComment, signal?: AbortSignal): Promise<Post> {
    const created = await this.run((api, s) => api.posts.addComment(parentId, comment, s), signal);
    const posts = this.connection.store()?.posts;
    const parent = posts?.find(parentId);
    if (parent && typeof parent.comments_cache === 'number') posts!.replace({ ...parent, comments_cache: parent.comments_cache + 1 });
    return created;
  }

  /** A post this extension filed (or found after its answer was lost): the views show it at once. */
  private filed(post: Post): Post {
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

  private onStop(list: string): (why: PagingStop) => void {
    return (why) => this.connection.noteOnce(`${list}:${why}`, stopMessage(list, why));
  }

  private async run<T>(call: (api: HelpdeskClient, options: { signal: AbortSignal }) => Promise<T>, signal?: AbortSignal, { quiet = false } = {}): Promise<T> {
    const { signal: signedIn } = this.connection;
    if (signedIn.aborted) throw new SignedOutError(this.url);
    const combined = signal ? AbortSignal.any([signal, signedIn]) : signedIn;
    try {
      const result = await call(this.connection.api(), { signal: combined });
      if (!quiet) this.connection.noteOutcome();
      return result;
    } catch (error) {
      if (signedIn.aborted && !signal?.aborted) throw new SignedOutError(this.url);
      if (!quiet) this.connection.noteOutcome(error);
      throw error;
    }
  }
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}

/** A page past the end may be answered 404 rather than `[]` (not documented): after the first page, it is the end. */
async function pastEndIsEmpty<T>(page: number, answer: Promise<Page<T>>): Promise<Page<T>> {
  try {
    return await answer;
  } catch (error) {
    if (page > 1 && isApiError(error, 'notFound')) return { items: [], received: 0 };
    throw error;
  }
}

/** For the log: why a list ended before an empty page. */
export function stopMessage(list: string, why: PagingStop): string {
  if (why === 'repeated') return `The service sent a page of ${list} seen before: it seems to ignore "page". The list ends there.`;
  if (why === 'unreadable') return `The service sent a page of ${list} none of which could be read. The list ends there.`;
  return `The ${list} list stopped after ${MAX_PAGES} pages.`;
}
