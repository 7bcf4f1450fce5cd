// What a developer needs to know of a post's client before answering: the client, its other
// open posts and its deals. The other posts are looked for in the views' list, read further within
// the search bound (see listSearch.ts), so a count never claims more than was seen. No vscode.
import type { Account } from '../api/account';
import { isComment, type Client, type Deal, type ListRead, type Post } from '../api';
import { readFurther, type SearchableList } from '../search/listSearch';
import { byName, type HelpdeskStore } from './helpdeskStore';
import type { PagedListState } from './pagedList';

/** A client's open posts other than the one shown, among the posts looked through. */
export interface ClientPosts {
  /** Newest first. */
  readonly open: readonly Post[];
  /** How many posts were looked through: the newest this many of the list. */
  readonly looked: number;
  /** Whether those were every post the list has (else `open` is only what the newest `looked` hold). */
  readonly all: boolean;
  /** Why looking stopped before the bound: a page failed. */
  readonly error?: unknown;
}

export interface ClientContext {
  readonly clientId: number;
  /** Undefined: not known (not loaded, for a hover; or the read failed: `clientError`). */
  readonly client?: Client;
  readonly clientError?: unknown;
  /** Undefined: not looked for (a hover before the list was read, or a read cancelled). */
  readonly posts?: ClientPosts;
  /** Undefined: not read yet (a hover), or the read failed (`dealsError`). */
  readonly deals?: ListRead<Deal>;
  readonly dealsError?: unknown;
}

/** Where the context comes from: the store's lists and reads (see HelpdeskStore, Account.client). */
export interface ContextSources {
  /** None for an account whose lists no store here holds: its other posts are not looked for. */
  readonly posts?: SearchableList<Post>;
  /** The client where the loaded clients hold it. */
  loadedClient(id: number): Client | undefined;
  readClient(id: number, signal: AbortSignal): Promise<Client>;
  dealsOf(clientId: number): Promise<ListRead<Deal>>;
  /** The deals where already read; reads nothing. */
  dealsKnown(clientId: number): ListRead<Deal> | undefined;
}

/** The sources of a store here: its list of posts is looked through. */
export interface StoreSources extends ContextSources {
  readonly posts: SearchableList<Post>;
}

/** The client's open posts other than `postId` among what the list holds now (comments are not posts of their own). */
export function clientPostsIn(state: PagedListState<Post>, clientId: number, postId: number): ClientPosts {
  const open = state.items.filter((post) => post.client_id === clientId && post.id !== postId && post.closed !== true && !isComment(post));
  const all = state.started && !state.hasMore && state.error === undefined;
  return { open, looked: state.items.length, all, ...(state.error !== undefined && !all ? { error: state.error } : {}) };
}

/** What is known now, with no request: for a hover, which must not wait. */
export function knownClientContext(
  sources: Pick<StoreSources, 'posts' | 'loadedClient' | 'dealsKnown'>,
  clientId: number,
  postId: number,
): ClientContext {
  const { state } = sources.posts;
  return {
    clientId,
    client: sources.loadedClient(clientId),
    // Nothing counted before the first page came: "none among 0" would be no news.
    posts: state.items.length > 0 || (state.started && !state.hasMore) ? clientPostsIn(state, clientId, postId) : undefined,
    deals: sources.dealsKnown(clientId),
  };
}

/**
 * The whole context: the client (read where not loaded), its deals, and its other open posts
 * among the newest `most` posts (the search bound), the list read further as far as needed.
 * Each part that fails says so in its own field; the others are still given.
 */
export async function readClientContext(
  sources: ContextSources,
  clientId: number,
  postId: number,
  signal: AbortSignal,
  most?: number,
): Promise<ClientContext> {
  const loaded = sources.loadedClient(clientId);
  const { posts } = sources;
  // Counted as the list is when looking ends, not when the client and deals come: by then the
  // window may have moved its list to another account, whose posts are none of this client's.
  const looked = (end: Awaited<ReturnType<typeof readFurther>> | 'failed') =>
    !posts || end === 'cancelled' ? undefined : clientPostsIn(posts.state, clientId, postId);
  const [client, deals, others] = await Promise.all([
    Promise.allSettled([loaded ?? sources.readClient(clientId, signal)]),
    Promise.allSettled([sources.dealsOf(clientId)]),
    posts ? readFurther(posts, { signal, most }).then(looked, () => looked('failed')) : undefined,
  ]);
  return {
    clientId,
    ...(client[0].status === 'fulfilled' ? { client: client[0].value } : { clientError: client[0].reason }),
    ...(deals[0].status === 'fulfilled' ? { deals: deals[0].value } : { dealsError: deals[0].reason }),
    posts: others,
  };
}

/** The sources of the store the views read, and of the account it reads from. */
export function storeSources(store: HelpdeskStore, account: Pick<Account, 'client'> | undefined): StoreSources {
  return {
    posts: store.posts,
    loadedClient: (id) => store.clients.find(id),
    readClient: (id, signal) => (account ? account.client(id, signal) : Promise.reject(new Error('Not signed in.'))),
    dealsOf: (id) => store.dealsOf(id),
    dealsKnown: (id) => store.dealsKnown(id),
  };
}

/** The sources of an account alone, whose lists no store here holds (another account's post): its client and deals, read. */
export function accountSources(account: Pick<Account, 'client' | 'dealsOf'>): ContextSources {
  return {
    loadedClient: () => undefined,
    readClient: (id, signal) => account.client(id, signal),
    // In the order the store gives them (by name): the card lists the first few.
    dealsOf: (id) => account.dealsOf(id).then((read) => ({ ...read, items: [...read.items].sort(byName) })),
    dealsKnown: () => undefined,
  };
}
