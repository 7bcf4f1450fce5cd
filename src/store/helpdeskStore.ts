import type { Account, AccountChange } from '../api/account';
import { Emitter, type Subscription } from '../api/emitter';
import type { Client, Deal, ListRead, Page, Post } from '../api';
import { isApiError } from '../api';
import type { Log } from '../log';
import { readSettings } from '../settings';
import { compareNames } from '../text/intl';
import { PagedList } from './pagedList';
import { PostPeeks, type Peek } from './postPeeks';
import { parseSnapshot, snapshotName, snapshotText, type SnapshotFolder, type SnapshotList } from './rowSnapshots';

/** Newest first: by id alone (the posts list finds a post by bisection). */
const byIdDescending = (a: { id: number }, b: { id: number }) => b.id - a.id;

/** By name as a person reads it in the display language (see compareNames), then by id. */
export const byName = (a: { id: number; name?: unknown }, b: { id: number; name?: unknown }) =>
  compareNames(nameOf(a), nameOf(b)) || a.id - b.id;

/** The name as a row shows it (see labelText): a number reads as its digits, anything else as nothing. */
const nameOf = ({ name }: { name?: unknown }) => (typeof name === 'string' || typeof name === 'number' ? String(name) : '');

/** A list's rows are kept this long after they last changed, so that a burst of changes writes once. */
const SNAPSHOT_DELAY_MS = 500;

/**
 * What the views show, loaded and cached in one place. Views read it; it reads through the
 * account the gateway binds it to, and follows what that account's writes change; nothing else
 * calls the service for a view. The first rows of each list are kept per account (`snapshots`),
 * and a view paints them at once the next time, while the service is asked again (`whenKnown`).
 */
export class HelpdeskStore {
  readonly posts: PagedList<Post>;
  readonly clients: PagedList<Client>;
  /** Posts looked up one at a time, by hovers. */
  readonly peeks = new PostPeeks();
  private readonly deals = new Map<number, Promise<ListRead<Deal>>>();
  /** Deal id → the client whose deals listed it: a deal linked elsewhere leaves that client's list too. */
  private readonly dealClients = new Map<number, number>();
  /** The clients whose deals changed; undefined: any client's may have. */
  private readonly dealsChanged = new Emitter<readonly number[] | undefined>();
  private readonly statusesChanged = new Emitter<void>();
  /** The deals of `deals` once read, for what must not wait for them (a hover). */
  private readonly dealsRead = new Map<number, ListRead<Deal>>();
  private statusNames: ReadonlyMap<number, string> | undefined;
  /** The account read from; undefined when signed out. */
  private account: Account | undefined;
  private following: Subscription | undefined;
  /** The account whose statuses are being asked for. */
  private statusesLoading: Account | undefined;
  /** The status names came with the last known rows: the service is asked for them all the same. */
  private statusesLastKnown = false;
  /** Each list's last known rows, read once per account bound. */
  private readonly known = new Map<SnapshotList, Promise<void>>();
  /** What was last written (or read) for each list, so that the same rows are not written again. */
  private readonly kept = new Map<SnapshotList, string>();
  private readonly keeping = new Map<SnapshotList, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly log: Pick<Log, 'error'>,
    /** Where each account's last rows are kept; none: the views wait for the service. */
    private readonly snapshots?: SnapshotFolder,
  ) {
    const pageSize = () => readSettings().pageSize;
    this.posts = new PagedList<Post>(
      (page, perPage, signal) => this.postsPage(page, perPage, signal),
      pageSize,
      byIdDescending,
      (why) => this.account?.noteStop('posts', why),
      { byId: true },
    );
    this.clients = new PagedList<Client>(
      async (page, perPage, signal) => (await this.reading()).clientsPage(page, perPage, signal),
      pageSize,
      byName,
      (why) => this.account?.noteStop('clients', why),
    );
    if (snapshots) {
      this.posts.onDidChange(() => this.keepSoon('posts'));
      this.clients.onDidChange(() => this.keepSoon('clients'));
    }
  }

  /**
   * Resolves once the list shows the rows known from the last time, if any: read once per account
   * (one small file), and only while nothing was asked of the service yet.
   */
  whenKnown(list: SnapshotList): Promise<void> {
    let known = this.known.get(list);
    if (!known) {
      known = this.readKnown(list).catch((error: unknown) => this.log.error(`Could not read the last known ${list}`, error));
      this.known.set(list, known);
    }
    return known;
  }

  private async readKnown(name: SnapshotList): Promise<void> {
    const account = this.account;
    if (!account || !this.snapshots) return;
    const file = await this.snapshots.read(snapshotName(account.url, name));
    const snapshot = file && this.account === account ? parseSnapshot<Post & Client>(file.text, account.url, name) : undefined;
    if (!snapshot) return;
    this.kept.set(name, file!.text);
    if (!this.listOf(name).seed(snapshot.items) || !snapshot.statuses || this.statusNames) return;
    this.setStatuses(snapshot.statuses);
    this.statusesLastKnown = true;
  }

  private listOf(name: SnapshotList): PagedList<Post> | PagedList<Client> {
    return name === 'posts' ? this.posts : this.clients;
  }

  /** Keeps the list's first rows for the next time, once it holds the service's answer and has settled. */
  private keepSoon(name: SnapshotList): void {
    clearTimeout(this.keeping.get(name));
    this.keeping.set(
      name,
      setTimeout(
        () => void this.keep(name).catch((error: unknown) => this.log.error(`Could not keep the ${name} shown`, error)),
        SNAPSHOT_DELAY_MS,
      ),
    );
  }

  private async keep(name: SnapshotList): Promise<void> {
    this.keeping.delete(name);
    const { items, started, loading, error, lastKnown } = this.listOf(name).state;
    const account = this.account;
    if (!account || !this.snapshots || !started || loading || error !== undefined || lastKnown || items.length === 0) return;
    const text = snapshotText(account.url, name, items, name === 'posts' ? this.statusNames : undefined);
    if (this.kept.get(name) === text) return;
    this.kept.set(name, text);
    await this.snapshots.write(snapshotName(account.url, name), text);
  }

  /** Stops the writes waiting (the window closes). */
  dispose(): void {
    this.dropWaitingWrites();
  }

  private dropWaitingWrites(): void {
    for (const timer of this.keeping.values()) clearTimeout(timer);
    this.keeping.clear();
  }

  /**
   * Reads from this account from now on (undefined: signed out), and follows what its writes
   * change. Another account starts the store again: what was read before is forgotten.
   */
  bind(account: Account | undefined): void {
    if (account === this.account) return;
    this.following?.dispose();
    this.account = account;
    this.following = account?.onDidChange((change) => this.follow(change));
    this.reset();
    // Read now (a local file each, no request): a view opened later paints them at once.
    if (account) for (const list of ['posts', 'clients'] as const) void this.whenKnown(list);
  }

  /**
   * This store while it shows `account`'s lists, which it does while that is the window's account
   * (the gateway binds it); undefined while it shows another's, or none: another account's posts
   * name their statuses and clients by number.
   */
  showing(account: Account): this | undefined {
    return this.account === account ? this : undefined;
  }

  /** The account read from; a failed read when signed out. */
  private reading(): Promise<Account> {
    return this.account ? Promise.resolve(this.account) : Promise.reject(new Error('Not signed in.'));
  }

  /** A page of posts, and beside the first, the status names. */
  private async postsPage(page: number, perPage: number, signal: AbortSignal): Promise<Page<Post>> {
    const account = await this.reading();
    const result = await account.postsPage(page, perPage, signal);
    if (page === 1) this.loadStatuses(account);
    return result;
  }

  /** What a write of the bound account changed, or what it read afresh. */
  private follow(change: AccountChange): void {
    if (change.kind === 'filed') this.posts.upsert(change.post);
    else if (change.kind === 'read') this.posts.replace(change.post);
    else if (change.kind === 'gone') this.posts.remove(change.id);
    else if (change.kind === 'deals') this.dealChanged(change.deal);
    else if (change.kind === 'updated') this.updated(change.post);
    else if (change.kind === 'postUpdates') return;
    else {
      const parent = this.posts.find(change.parentId);
      if (parent && typeof parent.comments_cache === 'number') this.posts.replace({ ...parent, comments_cache: parent.comments_cache + 1 });
    }
  }

  /** A post this extension changed: every row and hover showing it shows the record the service answered. */
  private updated(post: Post): void {
    this.posts.replace(post);
    this.peeks.set(post);
  }

  /**
   * Post status names, once per account, beside the first page of posts. A failure is logged and
   * tried again with the next first page; a service without statuses (404) is not asked again.
   */
  private loadStatuses(account: Account): void {
    if ((this.statusNames && !this.statusesLastKnown) || this.statusesLoading === account) return;
    this.statusesLoading = account;
    const current = () => this.account === account;
    void account
      .statuses()
      .then(
        (names) => current() && this.setStatuses(names),
        (error: unknown) => {
          if (!current()) return;
          if (isApiError(error, 'notFound')) this.setStatuses(new Map());
          this.log.error('Could not load the post statuses; posts show status ids', error);
        },
      )
      .finally(() => this.statusesLoading === account && (this.statusesLoading = undefined));
  }

  /**
   * Every deal of a client, loaded once until invalidated. Where a page after the first failed,
   * the deals read before it and the error, kept until `retryDeals`.
   */
  dealsOf(clientId: number): Promise<ListRead<Deal>> {
    let deals = this.deals.get(clientId);
    if (!deals) {
      deals = this.reading()
        .then((account) => account.dealsOf(clientId))
        .then((read) => {
          for (const deal of read.items) this.dealClients.set(deal.id, clientId);
          return { ...read, items: read.items.sort(byName) };
        });
      this.deals.set(clientId, deals);
      const loading = deals;
      void loading.then(
        (read) => this.deals.get(clientId) === loading && this.dealsRead.set(clientId, read),
        () => undefined,
      );
      loading.catch(() => this.deals.get(clientId) === loading && this.deals.delete(clientId));
    }
    return deals;
  }

  /** A client's deals where they were read (and not invalidated since); undefined otherwise. Reads nothing. */
  dealsKnown(clientId: number): ListRead<Deal> | undefined {
    return this.dealsRead.get(clientId);
  }

  /** Reads a client's deals again (their last read failed). */
  retryDeals(clientId: number): void {
    this.deals.delete(clientId);
    this.dealsRead.delete(clientId);
    this.dealsChanged.fire([clientId]);
  }

  invalidateDeals(): void {
    this.deals.clear();
    this.dealClients.clear();
    this.dealsRead.clear();
    this.dealsChanged.fire(undefined);
  }

  /** A deal this extension created or linked: the deals of the client it is now under, and of the one that listed it before, are read again. */
  private dealChanged(deal: Deal): void {
    const clients = new Set<number>();
    const before = this.dealClients.get(deal.id);
    if (before !== undefined) clients.add(before);
    if (typeof deal.client_id === 'number') clients.add(deal.client_id);
    for (const id of clients) {
      this.deals.delete(id);
      this.dealsRead.delete(id);
    }
    this.dealsChanged.fire([...clients]);
  }

  /** Fires with the clients whose deals changed; undefined: any client's may have. */
  readonly onDidChangeDeals = this.dealsChanged.event;

  /** Post status names by id; undefined until they were asked for (then empty if the service has none). */
  get statuses(): ReadonlyMap<number, string> | undefined {
    return this.statusNames;
  }

  setStatuses(names: ReadonlyMap<number, string>): void {
    this.statusNames = names;
    this.statusesLastKnown = false;
    if (this.snapshots) this.keepSoon('posts');
    this.statusesChanged.fire();
  }

  readonly onDidChangeStatuses = this.statusesChanged.event;

  refreshAll(): Promise<unknown> {
    return Promise.all([this.posts.refresh(), this.refreshClients()]);
  }

  /** Reads again the lists a view has asked for; one never asked for stays unread (an auto-refresh makes no request for a view never opened). */
  refreshStarted(): Promise<unknown> {
    return Promise.all([
      this.posts.state.started ? this.posts.refresh() : undefined,
      this.clients.state.started ? this.refreshClients() : undefined,
    ]);
  }

  /** The clients list and, as they hang below it, their deals. */
  refreshClients(): Promise<void> {
    this.deals.clear();
    this.dealsRead.clear();
    return this.clients.refresh();
  }

  /** Forgets everything (another account, or signed out: see `bind`). */
  private reset(): void {
    this.known.clear();
    this.kept.clear();
    this.dropWaitingWrites();
    this.peeks.clear();
    this.posts.reset();
    this.clients.reset();
    this.statusNames = undefined;
    this.invalidateDeals();
  }
}

export type { Peek };
