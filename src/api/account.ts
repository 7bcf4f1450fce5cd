import type { WebResource } from './address';
import type { HelpdeskClient } from './client';
import { isApiError, type ApiError } from './errors';
import { MAX_PAGES, readPage, type ListRead, type Page, type PageParams, type PagingStop } from './paging';
import type { Client, Deal, NewComment, NewDeal, NewErrorReport, NewTask, Post, PostChanges } from './types';
import { Emitter } from './emitter';
import { searchFiled, type FiledSought, type FindOutcome } from './filedSearch';
import type { FiledKind, ListKnowledge } from './listKnowledge';

/** What an account is made of. Nothing of it reaches back to whoever made the account. */
export interface AccountParts {
  /** The API client, built with the current settings. */
  readonly api: () => HelpdeskClient;
  /** Aborted once this account is signed out of, or signed in to again. */
  readonly signal: AbortSignal;
  /** What this account's list of posts has been seen to hand back. */
  readonly knowledge: ListKnowledge;
  /** Writes a line to the log: a fact about how the service behaves (each is written once per account). */
  readonly log: (message: string) => void;
}

/** What a call met, for the session: the service answered, refused the token (401), or was not reached. */
export type Met = 'answered' | 'rejected' | 'unreachable';

/** What a call changed, or read afresh, of what the views may hold. */
export type AccountChange =
  /** A post this extension filed, or found after its answer was lost. */
  | { readonly kind: 'filed'; readonly post: Post }
  /** A post read fresh. */
  | { readonly kind: 'read'; readonly post: Post }
  /** A post the service no longer has (404). */
  | { readonly kind: 'gone'; readonly id: number }
  /** A comment was added to post `parentId`. */
  | { readonly kind: 'commented'; readonly parentId: number }
  /** A deal was created, or linked to a client: the record the service answered. */
  | { readonly kind: 'deals'; readonly deal: Deal }
  /** A post this extension changed (closed, reopened, assigned, its status set): the record the service answered. */
  | { readonly kind: 'updated'; readonly post: Post }
  /** The service was found to refuse updating posts, or to accept it again (see `postUpdatesRefused`). */
  | { readonly kind: 'postUpdates'; readonly refused: boolean };

/**
 * The service refused to update a post in a way that says it does not update posts through the
 * API (a 404 for a post that is there, a 405, a 422 that names none of the fields sent, a 200 whose
 * body is an error): remembered for the account (see `Account.postUpdatesRefused`).
 */
export class PostUpdatesRefusedError extends Error {
  override readonly name = 'PostUpdatesRefusedError';

  constructor(
    readonly postId: number,
    /** What the service answered; it holds no token (see ApiError). */
    readonly answer: ApiError,
  ) {
    super(`The service refused to update post #${postId}: ${answer.message}`);
  }
}

/** A call was stopped because its account was signed out of, or signed in to with another token. */
export class SignedOutError extends Error {
  override readonly name = 'SignedOutError';

  constructor(readonly accountUrl: string) {
    super(`Signed out of ${accountUrl} before the call finished.`);
  }
}

/**
 * One signed-in account: every call the extension makes to it. Its calls go to this account
 * only, and once it is signed out of they fail with `SignedOutError` instead of going out with
 * an old token. It tells what each call met (`onDidMeet`) and what each write changed
 * (`onDidChange`) to whoever listens: it knows neither the session nor the store.
 */
export class Account {
  private readonly met = new Emitter<Met>();
  private readonly changed = new Emitter<AccountChange>();
  private readonly noted = new Set<string>();
  /** The records this extension's own updates were answered with, by post id (the last `OWN_KEPT`). */
  private readonly ownUpdates = new Map<number, Post>();
  private newest: number | undefined;
  /** What each call met (but `statuses`: see there). */
  readonly onDidMeet = this.met.event;
  /** What a call changed, or read afresh, of what the views may hold. */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly url: string,
    private readonly parts: AccountParts,
  ) {}

  /** A record's page in the web app. */
  link(resource: WebResource, id: number): string {
    return this.parts.api().link(resource, id);
  }

  postsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Post>> {
    return this.run(async (api, s) => {
      const answer = await this.listPosts(api, { page, perPage, order: 'id.desc' }, s);
      if (page === 1 && newestFirst(answer.items)) this.newest = Math.max(this.newest ?? -Infinity, answer.items[0]!.id);
      return answer;
    }, signal);
  }

  /**
   * The newest post id seen heading the list of posts where the service sent it newest first (a
   * first page of two posts or more in falling ids), raised by each post filed since; undefined
   * until such a page was read. Every post filed from now on has a higher id (see `FilingAccount`).
   */
  get newestListed(): number | undefined {
    return this.newest;
  }

  /**
   * A page of posts asked latest changed first (`order=updated_at.desc`): the sister product's
   * convention, likely, not confirmed here; the caller checks the answer (see `readChanges`).
   */
  changedPostsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Post>> {
    return this.run((api, s) => this.listPosts(api, { page, perPage, order: 'updated_at.desc' }, s), signal);
  }

  /** Whether the service refused a list's `order` (422): lists are then asked without it, in its own order. */
  get orderRefused(): boolean {
    return this.parts.knowledge.orderRefused;
  }

  /** A post this extension filed, with the marker it carried: a later search looks for it (see `searchFiled`). */
  noteFiled(kind: FiledKind, id: number, ref: string): Promise<void> {
    return this.parts.knowledge.noteFiled(kind, id, ref);
  }

  /**
   * A page of `/app.json`. `order` is a convention of the sister product, not documented here:
   * a service that refuses it (422) is asked again without it, and from then on never with it.
   */
  private async listPosts(api: HelpdeskClient, params: PageParams, call: { signal: AbortSignal }): Promise<Page<Post>> {
    const { knowledge } = this.parts;
    if (params.order === undefined || knowledge.orderRefused) return api.posts.listHelpdesk({ ...params, order: undefined }, call);
    try {
      return await api.posts.listHelpdesk(params, call);
    } catch (error) {
      if (!isApiError(error, 'validation')) throw error;
      // Refused for its order only if the same page without it is answered.
      const unordered = await api.posts.listHelpdesk({ ...params, order: undefined }, call);
      await knowledge.noteOrderRefused();
      this.noteOnce('posts:order', `The service refused "order=${params.order}" (HTTP 422): posts are listed in the order it chooses.`);
      return unordered;
    }
  }

  /**
   * Whether the service really sorts posts by id: its first post oldest first (`order=id`, the
   * sister product's ascending form) is the oldest of all it listed newest first, or older still.
   * A service that sorts by something else (or nothing) and happened to send descending ids
   * answers the same first post both ways; one that refuses `order` does not sort.
   */
  private async sortsById(api: HelpdeskClient, call: { signal: AbortSignal }, newestFirst: ReadonlySet<number>): Promise<boolean> {
    if (this.parts.knowledge.orderRefused) return false;
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

  /** One client, for the customer context of a post whose client is not among the clients loaded. */
  client(id: number, signal?: AbortSignal): Promise<Client> {
    return this.run((api, s) => api.clients.get(id, s), signal);
  }

  /** One post, fresh: told as read, or as gone when the service no longer has it. */
  async post(id: number, signal?: AbortSignal): Promise<Post> {
    try {
      const post = await this.run((api, s) => api.posts.get(id, s), signal);
      this.changed.fire({ kind: 'read', post });
      return post;
    } catch (error) {
      if (isApiError(error, 'notFound')) this.changed.fire({ kind: 'gone', id });
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
    if (own.length < deals.length)
      this.noteOnce(
        'deals:unfiltered',
        'The service sent deals of other clients for one client: it seems to ignore "client_id". They are left out.',
      );
    return { items: own, error };
  }

  /** Every deal of the account. */
  deals(): Promise<Deal[]> {
    return this.run((api, s) => collect(api.deals.pages({ perPage: 100 }, s, this.onStop('deals'))));
  }

  /**
   * Status names by id, for posts. A nicety: what this call meets is not told (`onDidMeet`), so
   * it does not move the session (a token may see posts without seeing statuses).
   */
  async statuses(): Promise<Map<number, string>> {
    const statuses = await this.run((api, s) => api.statuses('post', s), undefined, { quiet: true });
    return new Map(statuses.flatMap((status) => (typeof status.name === 'string' && status.name.trim() ? [[status.id, status.name]] : [])));
  }

  /**
   * The post this extension filed with the marker `sought.ref`, after an attempt whose answer was
   * lost, or what the search can say of its absence (see `searchFiled`).
   */
  findFiled(sought: FiledSought, signal?: AbortSignal): Promise<Post | FindOutcome> {
    return this.run(async (api, s) => {
      const list = {
        page: (page: number) => readPage(page, () => this.listPosts(api, { page, perPage: 100, order: 'id.desc' }, s)),
        sortsById: (newestFirst: ReadonlySet<number>) => this.sortsById(api, s, newestFirst),
      };
      const found = await searchFiled(sought, list, this.parts.knowledge.filed(sought.kind));
      return typeof found === 'object' ? this.filed(found) : found;
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
    this.changed.fire({ kind: 'commented', parentId });
    return created;
  }

  /**
   * A post this extension filed (or found after its answer was lost): the views show it in the
   * next turn, once the caller has told the person (what the views redraw is no part of the
   * filing, and the person's notification is not held behind it). Every listener is told all the
   * same, whatever the caller does after.
   */
  private filed(post: Post): Post {
    if (this.newest !== undefined) this.newest = Math.max(this.newest, post.id);
    setImmediate(() => this.changed.fire({ kind: 'filed', post }));
    return post;
  }

  async linkDeal(dealId: number, clientId: number): Promise<Deal> {
    return this.dealsChanged(await this.run((api, s) => api.deals.update(dealId, { client_id: clientId }, s)));
  }

  async createDeal(deal: NewDeal): Promise<Deal> {
    return this.dealsChanged(await this.run((api, s) => api.deals.create(deal, s)));
  }

  /**
   * Whether the service refused updating posts (the last time it was tried, since the last
   * `forgetPostUpdatesRefused`): the actions that update posts are then not offered.
   */
  get postUpdatesRefused(): boolean {
    return this.parts.knowledge.updatesRefused !== undefined;
  }

  /** Offers the actions again (the person refreshed): the next update will tell. */
  async forgetPostUpdatesRefused(): Promise<void> {
    if (!this.postUpdatesRefused) return;
    await this.parts.knowledge.noteUpdatesRefused(undefined);
    this.changed.fire({ kind: 'postUpdates', refused: false });
  }

  /**
   * Changes a post (only the fields given are sent): the answered record is told as `updated`.
   * A refusal that says the service does not update posts is remembered and thrown as
   * `PostUpdatesRefusedError`; a 404 for a post that is gone is told as `gone`.
   */
  async updatePost(id: number, changes: PostChanges, signal?: AbortSignal): Promise<Post> {
    let post: Post;
    try {
      post = await this.run((api, s) => api.posts.update(id, changes, s), signal);
    } catch (error) {
      if (!(await this.refusesUpdates(id, changes, error, signal))) throw error;
      await this.parts.knowledge.noteUpdatesRefused((error as ApiError).status ?? 0);
      this.noteOnce(
        'posts:updates',
        `The service refused to update post #${id} (${(error as ApiError).message}): Close, Reopen, Assign and Set Status are not offered until a refresh.`,
      );
      this.changed.fire({ kind: 'postUpdates', refused: true });
      throw new PostUpdatesRefusedError(id, error as ApiError);
    }
    if (this.postUpdatesRefused) {
      await this.parts.knowledge.noteUpdatesRefused(undefined);
      this.changed.fire({ kind: 'postUpdates', refused: false });
    }
    this.ownUpdates.delete(id);
    this.ownUpdates.set(id, post);
    if (this.ownUpdates.size > OWN_KEPT) this.ownUpdates.delete(this.ownUpdates.keys().next().value!);
    this.changed.fire({ kind: 'updated', post });
    return post;
  }

  /** The record the last update of this post from here was answered with: a change since that is not someone else's. */
  ownUpdate(id: number): Post | undefined {
    return this.ownUpdates.get(id);
  }

  /**
   * Whether a failed update says the service does not update posts, rather than that this post is
   * gone or this value is wrong. A 404 is asked about: the post read again answers which.
   */
  private async refusesUpdates(id: number, changes: PostChanges, error: unknown, signal?: AbortSignal): Promise<boolean> {
    if (!isApiError(error)) return false;
    const { kind, status } = error;
    // This user may not update posts: refused like a 405, not a token to sign in with again (that is a 401).
    if (kind === 'auth') return status === 403;
    if (kind === 'notFound') {
      try {
        await this.post(id, signal);
        return true;
      } catch {
        return false; // gone (told by `post`), or not known: not a refusal to remember
      }
    }
    if (kind === 'server') return status !== undefined && (status < 300 || status === 501);
    if (kind !== 'validation') return false;
    if (status === 405) return true;
    const sent = new Set(Object.keys(changes));
    return !Object.keys(error.fieldErrors ?? {}).some((field) => sent.has(field));
  }

  private dealsChanged(deal: Deal): Deal {
    this.changed.fire({ kind: 'deals', deal });
    return deal;
  }

  /** Logs why a list of this account ended before an empty page (once for each list and reason). */
  noteStop(list: string, why: PagingStop): void {
    this.noteOnce(`${list}:${why}`, stopMessage(list, why));
  }

  private onStop(list: string): (why: PagingStop) => void {
    return (why) => this.noteStop(list, why);
  }

  /** Logs a fact about how the service behaves, once for this account. */
  private noteOnce(key: string, message: string): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.parts.log(message);
  }

  private async run<T>(
    call: (api: HelpdeskClient, options: { signal: AbortSignal }) => Promise<T>,
    signal?: AbortSignal,
    { quiet = false } = {},
  ): Promise<T> {
    const { signal: signedIn } = this.parts;
    if (signedIn.aborted) throw new SignedOutError(this.url);
    const combined = signal ? AbortSignal.any([signal, signedIn]) : signedIn;
    try {
      const result = await call(this.parts.api(), { signal: combined });
      if (!quiet) this.met.fire('answered');
      return result;
    } catch (error) {
      if (signedIn.aborted && !signal?.aborted) throw new SignedOutError(this.url);
      const met = quiet ? undefined : metBy(error);
      if (met) this.met.fire(met);
      throw error;
    }
  }
}

/** How many posts' own updates an account remembers (see `ownUpdate`). */
const OWN_KEPT = 200;

/** What a failed call met, where the session cares: a refused token (401), or no service reached. */
function metBy(error: unknown): Met | undefined {
  if (isApiError(error, 'auth') && error.status === 401) return 'rejected';
  if (isApiError(error, 'network') || isApiError(error, 'timeout')) return 'unreachable';
  return undefined;
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}

/** For the log: why a list ended before an empty page. */
function stopMessage(list: string, why: PagingStop): string {
  if (why === 'repeated') return `The service sent a page of ${list} seen before: it seems to ignore "page". The list ends there.`;
  if (why === 'unreadable') return `The service sent a page of ${list} none of which could be read. The list ends there.`;
  return `The ${list} list stopped after ${MAX_PAGES} pages.`;
}

/** Two posts or more, in falling ids: a page the service sent newest first. */
function newestFirst(posts: readonly Post[]): boolean {
  return posts.length >= 2 && posts.every((post, i) => i === 0 || posts[i - 1]!.id > post.id);
}
