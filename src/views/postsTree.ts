import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { withSignedIn, withSignedInNow, type SignedIn, type WindowAccount } from '../accounts/signedIn';
import { NOBODY, type Identity, type WhoIAm } from '../accounts/identity';
import { readSettings, SETTINGS } from '../settings';
import { fillPages } from '../store/fillPages';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { isComment, type Post } from '../api';
import type { ListChange } from '../store/pagedList';
import { MessageNode, PostGroupNode, PostNode, type HelpdeskNode, type PostNews } from './nodes';
import { listReady, tailRow } from './pagedRows';
import { PostGroups } from './postGroups';
import { ShownPosts, TOP_ROWS } from './shownPosts';
import { describeFilter, matchesFilter, type PostFilter } from './postFilter';
import { inScope, scopeNeedsMe, type PostsScope } from '../accounts/scopes';
import { emptyText, scopeDescription, scopeNoneYetText, whoIAmRow } from './scopeText';
import { numberText } from '../text/intl';
import { plural } from '../text/plural';

const { l10n } = vscode;

/** The rows that fill the view: a quick filter loads pages until it shows this many. */
export const FILL_ROWS = 20;
/** The most pages one choice of a quick filter (or one "Load more…" under it) loads. */
export const FILL_PAGES = 20;
/** The most pages a refresh reads again to show the groups that were open. */
export const REFILL_PAGES = 50;

/** What the Changed Only rows and the rows' news marks come from: the news watcher. */
export interface PostsNews {
  readonly onDidChange: vscode.Event<void>;
  /** The news on post `id`: its changes and whether they were seen; undefined without news. */
  itemOf(id: number): { changes: readonly string[] } | undefined;
  isSeen(id: number): boolean | undefined;
  /** The posts with news, newest news first: as `loaded` has them, else as the last poll saw them. */
  posts(loaded: ReadonlyMap<number, Post>): Post[];
  readonly status: { off: boolean };
}

/** A quick filter loading pages until the screen is full. */
interface Fill {
  readonly controller: AbortController;
  /** The most pages it reads. */
  readonly maxPages: number;
  pages: number;
  promise: Promise<void>;
}

/**
 * The Helpdesk view: posts, newest first, a page at a time. A quick filter (Assigned to Me,
 * Filed by Me) filters the loaded pages, as the service cannot, and loads more pages by itself
 * until the screen is full, the list ends, or `FILL_PAGES` were read; "Load more…" then goes on.
 */
export class PostsTreeProvider extends Disposable implements vscode.TreeDataProvider<HelpdeskNode> {
  private readonly changed = this.register(new vscode.EventEmitter<HelpdeskNode | HelpdeskNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private filter: PostFilter = {};
  private scope: PostsScope = 'everything';
  private changedOnly = false;
  /** Whether more than one account is signed in to (the description then names this one). */
  private severalAccounts = false;
  private showClosed = readSettings().showClosedPosts;
  private fill: Fill | undefined;
  /** The list's generation the last fill was for: a list started again (a refresh, another account) is filled again. */
  private filledGeneration: number | undefined;
  /** The rows shown, kept as pages are added (see ShownPosts); forgotten when what is shown changes. */
  private readonly shownPosts = new ShownPosts((post) => this.showsRow(post));
  /** Who the person is, as the rows being read are tested against it. */
  private rowFacts: WhoIAm = NOBODY;
  /** The groups older rows fold into. */
  private readonly groups = new PostGroups();
  /** The list's generation the groups were laid out for, and the rows a refresh loads again to show the open groups. */
  private laidOutGeneration = 0;
  private refillTo = 0;
  /** The view it fills, whose description shows the filter (see `showIn`). */
  private view: vscode.TreeView<HelpdeskNode> | undefined;
  /** What a row's facts are named by, as the store holds them when its tooltip is shown. */
  private readonly names = ((store: () => HelpdeskStore) => ({
    get statuses() {
      return store().statuses;
    },
    get clients() {
      return store().clients.state.items;
    },
  }))(() => this.store);

  constructor(
    private readonly store: HelpdeskStore,
    private readonly window: WindowAccount,
    private readonly identity: Identity,
    private readonly news: PostsNews,
  ) {
    super();
    this.register(news.onDidChange(() => this.changed.fire(undefined)));
    this.register(store.posts.onDidChange((change) => this.listChanged(change)));
    this.register(store.onDidChangeStatuses(() => this.changed.fire(undefined)));
    // Another account's list starts again, and is filled again then (see fillIfRestarted).
    this.register(
      window.onDidChange(() => {
        void this.publish();
        this.changed.fire(undefined);
      }),
    );
    this.register(identity.onDidChange((accountUrl) => accountUrl === this.accountUrl() && void this.shownChanged()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS.showClosedPosts)) this.setShowClosed(readSettings().showClosedPosts);
      }),
    );
    void this.publish();
  }

  /** The view it fills: its groups open and close, and its description says what is shown. */
  showIn(view: vscode.TreeView<HelpdeskNode>): void {
    this.view = view;
    this.register(
      view.onDidExpandElement(
        ({ element }) => element instanceof PostGroupNode && this.groups.toggled(element, true) && this.changed.fire(undefined),
      ),
    );
    this.register(
      view.onDidCollapseElement(
        ({ element }) => element instanceof PostGroupNode && this.groups.toggled(element, false) && this.changed.fire(undefined),
      ),
    );
    this.describe();
  }

  get currentFilter(): PostFilter {
    return this.filter;
  }

  get currentScope(): PostsScope {
    return this.scope;
  }

  get showsChangedOnly(): boolean {
    return this.changedOnly;
  }

  /** Changed Only: the posts the news watcher found new or changed, whatever pages are loaded. */
  setChangedOnly(on: boolean): void {
    this.changedOnly = on;
    void this.publish();
    this.changed.fire(undefined);
  }

  setFilter(filter: PostFilter): void {
    this.filter = { text: filter.text?.trim() || undefined, kind: filter.kind, client: filter.client };
    void this.shownChanged();
  }

  setShowClosed(show: boolean): void {
    this.showClosed = show;
    void this.shownChanged();
  }

  /** A quick filter; resolves once it has loaded what it loads by itself. */
  setScope(scope: PostsScope): Promise<void> {
    this.scope = scope;
    return this.shownChanged();
  }

  /** "Load more…": one page, or under a quick filter, pages until a screenful more shows (at most `FILL_PAGES`). */
  loadMore(): Promise<void> {
    if (!this.fills()) return this.store.posts.loadMore();
    if (this.fill) return this.fill.promise;
    return this.startFill(this.rows().length + FILL_ROWS, true);
  }

  /** Resolves once no quick filter is loading pages (for tests). */
  async whenFilled(): Promise<void> {
    while (this.fill) await this.fill.promise;
  }

  getTreeItem(node: HelpdeskNode): vscode.TreeItem {
    return node instanceof PostNode ? node.treeItem() : node;
  }

  /**
   * Posts that are not comments, newest first; past the first TOP_ROWS, older ones fold into
   * groups (see `rowGroups`). Where the service lists comments among posts, each shows below
   * its post, oldest first, and never as a row of its own.
   */
  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    if (node instanceof PostNode)
      return this.changedOnly ? [] : this.shownPosts.commentsOf(node.post.id).map((comment) => this.row(comment));
    if (node instanceof PostGroupNode) return this.groupRows(node);
    if (node) return [];
    // Signed out: no rows (the welcome view says how to sign in).
    return withSignedIn(
      this.window,
      (signedIn) => this.topRows(signedIn),
      () => [],
    )();
  }

  /** The top of the view: a note where who the person is is not known, the first rows, the groups, and what ends the list. */
  private async topRows(signedIn: SignedIn): Promise<HelpdeskNode[]> {
    const meKnown = this.me() !== undefined;
    const notes = this.scope !== 'everything' && !meKnown ? [whoIAmRow(this.scope)] : [];
    if (this.changedOnly) return signedIn.usable ? [...notes, ...this.changedRows((post) => this.row(post))] : [];
    if (scopeNeedsMe(this.scope) && !meKnown) return signedIn.usable ? notes : [];
    const list = this.store.posts;
    if (!(await listReady(this.store, 'posts', signedIn.usable))) return [];
    this.fillIfRestarted();
    const shown = this.rows();
    const nodes: HelpdeskNode[] = shown.slice(0, TOP_ROWS).map((post) => this.row(post));
    const { items, hasMore, error } = list.state;
    if (shown.length === 0 && this.fills() && hasMore && error === undefined && !this.fill) {
      nodes.push(new MessageNode('posts:scope-none', scopeNoneYetText(items.filter((p) => !isComment(p)).length), 'info'));
    }
    nodes.push(...this.groups.all.map((group) => this.groups.node(group, shown)));
    if (!this.groups.tail) {
      const tail = this.tail(() =>
        nodes.length === 0
          ? emptyText(
              items.filter((p) => !isComment(p)).length,
              this.scope,
              describeFilter(this.filter) !== undefined,
              this.showClosed,
              this.me(),
            )
          : undefined,
      );
      if (tail) nodes.push(tail);
    }
    return nodes.length > 0 ? [...notes, ...nodes] : nodes;
  }

  resolveTreeItem(item: vscode.TreeItem, node: HelpdeskNode): vscode.TreeItem {
    if (node instanceof PostNode) item.tooltip = node.tooltipMarkdown();
    return item;
  }

  override dispose(): void {
    this.fill?.controller.abort();
    super.dispose();
  }

  private row(post: Post): PostNode {
    return new PostNode(post, this.names, this.shownPosts.commentsOf(post.id).length, this.newsOf(post.id));
  }

  /** The shown rows of the loaded posts, laid out into groups. */
  private rows(): readonly Post[] {
    this.rowFacts = this.facts();
    const shown = this.shownPosts.of(this.store.posts.state.items);
    this.groups.layOut(shown.length);
    return shown;
  }

  private groupRows(node: PostGroupNode): HelpdeskNode[] {
    const shown = this.rows();
    const group = this.groups.current(node);
    if (!group) return [];
    const nodes: HelpdeskNode[] = shown.slice(group.start, group.end).map((post) => this.row(post));
    if (this.groups.tail?.index === group.index) {
      const tail = this.tail(() => undefined);
      if (tail) nodes.push(tail);
    }
    return nodes;
  }

  private tail(empty: () => string | undefined): HelpdeskNode | undefined {
    const busy =
      this.fill &&
      (this.fill.pages > 0
        ? l10n.t('Loading… (page {0} of up to {1})', numberText(this.fill.pages), numberText(this.fill.maxPages))
        : l10n.t('Loading…'));
    return tailRow('posts', this.store.posts.state, busy, empty);
  }

  /** Redraws what a change of the list touched: the top (and with it every open group), or the groups from the first it changed. */
  private listChanged(change: ListChange): void {
    const { generation, items } = this.store.posts.state;
    if (generation !== this.laidOutGeneration) {
      // Started again: a refresh keeps the rows shown until page 1 comes, so the groups open now
      // are known; a reset (another account, signed out) has none.
      this.laidOutGeneration = generation;
      this.refillTo = items.length > 0 ? this.groups.openRows() : 0;
      if (items.length === 0) this.groups.forgetOpened();
    }
    if (change.from !== undefined) this.shownPosts.forget(change.from);
    if (this.changedOnly) {
      // Changed Only shows no groups: its rows are drawn again (and the rows above, when it goes off).
      this.changed.fire(undefined);
      return;
    }
    if (change.from === undefined) {
      this.fireTail();
      return;
    }
    const before = this.groups.all;
    const position = this.shownPosts.count;
    const shown = this.rows();
    // A comment below a post in an earlier group changes that post's row: the view is drawn again.
    let comments = false;
    for (let i = change.from; i < items.length && !comments; i++) comments = typeof items[i]!.post_id === 'number';
    const changed = comments || items.length === 0 ? undefined : this.groups.changedFrom(position, before, shown);
    this.changed.fire(changed && changed.length > 0 ? changed : undefined);
  }

  /** Redraws where "Load more…" stands: the group still filling, or the view. */
  private fireTail(): void {
    this.changed.fire(this.changedOnly ? undefined : this.groups.tailNode());
  }

  private newsOf(id: number): PostNews | undefined {
    const item = this.news.itemOf(id);
    return item && { changes: item.changes, seen: this.news.isSeen(id) === true };
  }

  /**
   * Changed Only: the news, in the filter and the quick filter. Closed posts stay (a closing is
   * news), and a post stays after it was opened or seen (see Mark as Seen).
   */
  private changedRows(row: (post: Post) => PostNode): HelpdeskNode[] {
    const loaded = new Map(this.store.posts.state.items.map((post) => [post.id, post]));
    const facts = this.facts();
    const news = this.news.posts(loaded);
    const rows = news.filter((p) => matchesFilter(p, this.filter, true) && inScope(p, this.scope, facts)).map((p) => row(p));
    if (rows.length > 0) return rows;
    const minutes = readSettings().watchIntervalMinutes;
    const message = this.news.status.off
      ? l10n.t('News is off: the setting helpdesk.watch.intervalMinutes is 0.')
      : news.length > 0
        ? plural(news.length, {
            one: l10n.t({
              message: 'The {0} post with news is not in this filter.',
              args: [numberText(news.length)],
              comment: 'plural: one',
            }),
            few: l10n.t({
              message: 'None of the {0} posts with news is in this filter.',
              args: [numberText(news.length)],
              comment: 'plural: few',
            }),
            many: l10n.t({
              message: 'None of the {0} posts with news is in this filter.',
              args: [numberText(news.length)],
              comment: 'plural: many',
            }),
            other: l10n.t({
              message: 'None of the {0} posts with news is in this filter.',
              args: [numberText(news.length)],
              comment: 'plural: other',
            }),
          })
        : plural(minutes, {
            one: l10n.t({
              message: 'Nothing new or changed since you signed in. The helpdesk is read every {0} minute.',
              args: [numberText(minutes)],
              comment: 'plural: one',
            }),
            few: l10n.t({
              message: 'Nothing new or changed since you signed in. The helpdesk is read every {0} minutes.',
              args: [numberText(minutes)],
              comment: 'plural: few',
            }),
            many: l10n.t({
              message: 'Nothing new or changed since you signed in. The helpdesk is read every {0} minutes.',
              args: [numberText(minutes)],
              comment: 'plural: many',
            }),
            other: l10n.t({
              message: 'Nothing new or changed since you signed in. The helpdesk is read every {0} minutes.',
              args: [numberText(minutes)],
              comment: 'plural: other',
            }),
          });
    return [new MessageNode('posts:news-none', message, 'info')];
  }

  /** The window's account now: the rows' facts and the description are drawn at once. */
  private accountUrl(): string | undefined {
    return withSignedInNow(
      this.window,
      ({ url }) => url,
      () => undefined,
    )();
  }

  private me() {
    const accountUrl = this.accountUrl();
    return accountUrl === undefined ? undefined : this.identity.me(accountUrl);
  }

  private facts(): WhoIAm {
    const accountUrl = this.accountUrl();
    return accountUrl === undefined ? NOBODY : this.identity.whoIAm(accountUrl);
  }

  /** Whether the view shows a post as a row: not a comment, and in the filter, the quick filter and the closed-posts choice. */
  private showsRow(post: Post): boolean {
    return !isComment(post) && matchesFilter(post, this.filter, this.showClosed) && inScope(post, this.scope, this.rowFacts);
  }

  private signedIn(): boolean {
    return withSignedInNow(
      this.window,
      ({ usable }) => usable,
      () => false,
    )();
  }

  /** What the view shows changed (filter, quick filter, who the person is, the account): drawn again, and filled again under a quick filter. */
  private shownChanged(): Promise<void> {
    void this.publish();
    this.fill?.controller.abort();
    this.fill = undefined;
    this.shownPosts.forget();
    this.changed.fire(undefined);
    return this.fills() ? this.startFill(FILL_ROWS, false) : Promise.resolve();
  }

  /**
   * Whether what is shown is a few of many loaded rows, so that pages are loaded until the screen
   * is full: under a quick filter, or the posts of one client.
   */
  private fills(): boolean {
    return this.scope !== 'everything' || this.filter.client !== undefined;
  }

  /**
   * The list started again (a refresh, a sign-in): under a quick filter it is filled again, once,
   * and after a refresh the groups the person had open are loaded again (up to FILL_PAGES pages).
   */
  private fillIfRestarted(): void {
    const { generation, started, loading } = this.store.posts.state;
    if (this.fill || !started || loading || generation === this.filledGeneration) return;
    const target = Math.max(this.fills() ? FILL_ROWS : 0, this.refillTo);
    const maxPages = this.refillTo > 0 ? REFILL_PAGES : FILL_PAGES;
    this.refillTo = 0;
    if (target > 0) void this.startFill(target, false, maxPages);
    else this.filledGeneration = generation;
  }

  /** Loads pages until `target` rows show (see `fillPages`), with the view's progress; a new choice cancels it. */
  private startFill(target: number, atLeastOne: boolean, maxPages = FILL_PAGES): Promise<void> {
    const list = this.store.posts;
    this.filledGeneration = list.state.generation;
    if (!this.signedIn()) return Promise.resolve();
    const scope = this.scope;
    const fill: Fill = { controller: new AbortController(), maxPages, pages: 0, promise: Promise.resolve() };
    const enough = () => (scopeNeedsMe(scope) && this.me() === undefined) || this.rows().length >= target;
    const run = () =>
      fillPages(list, {
        enough,
        maxPages,
        signal: fill.controller.signal,
        atLeastOne,
        onPage: (pages) => {
          fill.pages = pages;
          this.fireTail();
        },
      });
    const done = () => {
      if (this.fill !== fill) return;
      this.fill = undefined;
      this.fireTail();
    };
    // A page that fails is the list's error, shown as its retry row: the fill only stops.
    fill.promise = Promise.resolve(vscode.window.withProgress({ location: { viewId: 'helpdesk.posts' } }, run)).then(done, done);
    this.fill = fill;
    this.fireTail();
    return fill.promise;
  }

  private async publish(): Promise<void> {
    const filter = describeFilter(this.filter);
    this.describe();
    await vscode.commands.executeCommand('setContext', 'helpdesk.changedOnly', this.changedOnly);
    await vscode.commands.executeCommand('setContext', 'helpdesk.postsFiltered', filter !== undefined);
    await vscode.commands.executeCommand('setContext', 'helpdesk.postsScope', this.scope);
    await vscode.commands.executeCommand('setContext', 'helpdesk.showClosed', this.showClosed);
    const several = (await this.window.signedInAccounts().catch(() => [])).length > 1;
    if (several !== this.severalAccounts) {
      this.severalAccounts = several;
      this.describe();
    }
  }

  /** The view's description: the account where several are signed in to, Changed Only, the quick filter, the filter. */
  private describe(): void {
    if (!this.view) return;
    const accountUrl = this.accountUrl();
    const account = this.severalAccounts && accountUrl ? new URL(accountUrl).host : undefined;
    const parts = [
      account,
      this.changedOnly ? l10n.t('Changed Only') : undefined,
      scopeDescription(this.scope, this.me()),
      describeFilter(this.filter),
    ];
    this.view.description = parts.filter(Boolean).join(' · ') || undefined;
  }
}
