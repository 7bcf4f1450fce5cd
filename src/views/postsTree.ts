import vscode = require('vscode');
import type { Session } from '../auth/session';
import type { Identity } from '../identity/identity';
import { readSettings, SETTINGS } from '../settings';
import { fillPages } from '../store/fillPages';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { isComment, type Post } from '../api';
import { MessageNode, PostNode, statusText, type HelpdeskNode, type PostNews } from './nodes';
import { pagedRows } from './pagedRows';
import { describeFilter, inScope, matchesFilter, scopeNeedsMe, type PostFilter, type PostsScope, type ScopeFacts } from './postFilter';
import { emptyText, scopeDescription, scopeNoneYetText, whoIAmRow } from './scopeText';

const { l10n } = vscode;

/** The rows that fill the view: a quick filter loads pages until it shows this many. */
export const FILL_ROWS = 20;
/** The most pages one choice of a quick filter (or one "Load more…" under it) loads. */
export const FILL_PAGES = 20;

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
  pages: number;
  promise: Promise<void>;
}

/**
 * The Helpdesk view: posts, newest first, a page at a time. A quick filter (Assigned to Me,
 * Filed by Me) filters the loaded pages, as the service cannot, and loads more pages by itself
 * until the screen is full, the list ends, or `FILL_PAGES` were read; "Load more…" then goes on.
 */
export class PostsTreeProvider implements vscode.TreeDataProvider<HelpdeskNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HelpdeskNode | undefined>();
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
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly store: HelpdeskStore,
    private readonly session: Session,
    /** The view it fills (made at activation, see extension.ts), whose description shows the filter. */
    readonly view: vscode.TreeView<HelpdeskNode>,
    private readonly identity: Identity,
    private readonly news: PostsNews,
  ) {
    this.disposables.push(
      news.onDidChange(() => this.changed.fire(undefined)),
      store.posts.onDidChange(() => this.changed.fire(undefined)),
      store.onDidChangeStatuses(() => this.changed.fire(undefined)),
      // Another account's list starts again, and is filled again then (see fillIfRestarted).
      session.onDidChange(() => {
        void this.publish();
        this.changed.fire(undefined);
      }),
      identity.onDidChange((accountUrl) => accountUrl === session.accountUrl && void this.shownChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS.showClosedPosts)) this.setShowClosed(readSettings().showClosedPosts);
      }),
    );
    void this.publish();
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
    this.filter = { text: filter.text?.trim() || undefined, kind: filter.kind };
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
    if (this.scope === 'everything') return this.store.posts.loadMore();
    if (this.fill) return this.fill.promise;
    return this.startFill(this.shown(this.store.posts.state.items).length + FILL_ROWS, true);
  }

  /** Resolves once no quick filter is loading pages (for tests). */
  async whenFilled(): Promise<void> {
    while (this.fill) await this.fill.promise;
  }

  getTreeItem(node: HelpdeskNode): vscode.TreeItem {
    return node;
  }

  /**
   * Posts that are not comments, newest first. Where the service lists comments among them,
   * each shows below its post, oldest first, and never as a row of its own.
   */
  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    const statuses = this.store.statuses;
    const row = (post: Post, comments?: Map<number, Post[]>) => new PostNode(post, statusText(post, statuses), comments?.get(post.id)?.length, this.newsOf(post.id));
    if (node instanceof PostNode) return this.changedOnly ? [] : (this.commentsByParent().get(node.post.id) ?? []).map((comment) => row(comment));
    if (node) return [];
    await this.session.whenRestored();
    const meKnown = this.me() !== undefined;
    const notes = this.scope !== 'everything' && !meKnown ? [whoIAmRow(this.scope)] : [];
    if (this.changedOnly) return this.signedIn() ? [...notes, ...this.changedRows(row)] : [];
    if (scopeNeedsMe(this.scope) && !meKnown) return this.signedIn() ? notes : [];
    const list = this.store.posts;
    const rows = await pagedRows(
      this.session,
      'posts',
      list,
      (items) => {
        this.fillIfRestarted();
        const comments = this.commentsByParent();
        const shown = this.shown(items).map((p): HelpdeskNode => row(p, comments));
        const { hasMore, error } = list.state;
        if (shown.length === 0 && this.scope !== 'everything' && hasMore && error === undefined && !this.fill) {
          shown.push(new MessageNode('posts:scope-none', scopeNoneYetText(items.filter((p) => !isComment(p)).length), 'info'));
        }
        return shown;
      },
      (items) => emptyText(items.filter((p) => !isComment(p)).length, this.scope, describeFilter(this.filter) !== undefined, this.showClosed, this.me()),
      () => this.fill && (this.fill.pages > 0 ? l10n.t('Loading… ({0} of up to {1} pages)', this.fill.pages, FILL_PAGES) : l10n.t('Loading…')),
    );
    return rows.length > 0 ? [...notes, ...rows] : rows;
  }

  resolveTreeItem(item: vscode.TreeItem, node: HelpdeskNode): vscode.TreeItem {
    if (node instanceof PostNode) item.tooltip = node.tooltipMarkdown();
    return item;
  }

  dispose(): void {
    this.fill?.controller.abort();
    for (const d of this.disposables) d.dispose();
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
    const message =
      this.news.status.off ? l10n.t('News is off: the setting helpdesk.watch.intervalMinutes is 0.')
      : news.length > 0 ? l10n.t('None of the {0} posts with news is in this filter.', news.length)
      : l10n.t('Nothing new or changed since you signed in. The helpdesk is read every {0} minutes.', minutes);
    return [new MessageNode('posts:news-none', message, 'info')];
  }

  private me() {
    const { accountUrl } = this.session;
    return accountUrl === undefined ? undefined : this.identity.me(accountUrl);
  }

  private facts(): ScopeFacts {
    const { accountUrl } = this.session;
    return { me: this.me()?.id, filed: accountUrl === undefined ? new Set() : this.identity.filedByMe(accountUrl) };
  }

  /** The posts the view shows as rows: not comments, and in the filter, the quick filter and the closed-posts choice. */
  private shown(items: readonly Post[], facts = this.facts()): Post[] {
    return items.filter((p) => !isComment(p) && matchesFilter(p, this.filter, this.showClosed) && inScope(p, this.scope, facts));
  }

  private signedIn(): boolean {
    return this.session.credentials !== undefined && this.session.state !== 'rejected';
  }

  /** What the view shows changed (filter, quick filter, who the person is, the account): drawn again, and filled again under a quick filter. */
  private shownChanged(): Promise<void> {
    void this.publish();
    this.fill?.controller.abort();
    this.fill = undefined;
    this.changed.fire(undefined);
    return this.scope === 'everything' ? Promise.resolve() : this.startFill(FILL_ROWS, false);
  }

  /** The list started again (a refresh, a sign-in) under a quick filter: it is filled again, once. */
  private fillIfRestarted(): void {
    const { generation, started, loading } = this.store.posts.state;
    if (this.scope !== 'everything' && !this.fill && started && !loading && generation !== this.filledGeneration) void this.startFill(FILL_ROWS, false);
  }

  /** Loads pages until `target` rows show (see `fillPages`), with the view's progress; a new choice cancels it. */
  private startFill(target: number, atLeastOne: boolean): Promise<void> {
    const list = this.store.posts;
    this.filledGeneration = list.state.generation;
    if (!this.signedIn()) return Promise.resolve();
    const scope = this.scope;
    const fill: Fill = { controller: new AbortController(), pages: 0, promise: Promise.resolve() };
    const enough = () => (scopeNeedsMe(scope) && this.me() === undefined) || this.shown(list.state.items).length >= target;
    const run = () =>
      fillPages(list, {
        enough,
        maxPages: FILL_PAGES,
        signal: fill.controller.signal,
        atLeastOne,
        onPage: (pages) => {
          fill.pages = pages;
          this.changed.fire(undefined);
        },
      });
    const done = () => {
      if (this.fill !== fill) return;
      this.fill = undefined;
      this.changed.fire(undefined);
    };
    // A page that fails is the list's error, shown as its retry row: the fill only stops.
    fill.promise = Promise.resolve(vscode.window.withProgress({ location: { viewId: 'helpdesk.posts' } }, run)).then(done, done);
    this.fill = fill;
    this.changed.fire(undefined);
    return fill.promise;
  }

  private commentsByParent(): Map<number, Post[]> {
    const byParent = new Map<number, Post[]>();
    for (const post of this.store.posts.state.items) {
      if (typeof post.post_id !== 'number') continue;
      const list = byParent.get(post.post_id);
      if (list) list.push(post);
      else byParent.set(post.post_id, [post]);
    }
    for (const list of byParent.values()) list.sort((a, b) => a.id - b.id);
    return byParent;
  }

  private async publish(): Promise<void> {
    const filter = describeFilter(this.filter);
    this.describe();
    await vscode.commands.executeCommand('setContext', 'helpdesk.changedOnly', this.changedOnly);
    await vscode.commands.executeCommand('setContext', 'helpdesk.postsFiltered', filter !== undefined);
    await vscode.commands.executeCommand('setContext', 'helpdesk.postsScope', this.scope);
    await vscode.commands.executeCommand('setContext', 'helpdesk.showClosed', this.showClosed);
    const several = (await this.session.signedInAccounts().catch(() => [])).length > 1;
    if (several !== this.severalAccounts) {
      this.severalAccounts = several;
      this.describe();
    }
  }

  /** The view's description: the account where several are signed in to, Changed Only, the quick filter, the filter. */
  private describe(): void {
    const accountUrl = this.session.accountUrl;
    const account = this.severalAccounts && accountUrl ? new URL(accountUrl).host : undefined;
    const parts = [account, this.changedOnly ? l10n.t('Changed Only') : undefined, scopeDescription(this.scope, this.me()), describeFilter(this.filter)];
    this.view.description = parts.filter(Boolean).join(' · ') || undefined;
  }
}
