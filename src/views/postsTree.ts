import vscode = require('vscode');
import { isApiError } from '../api';
import type { Session } from '../auth/session';
import { readSettings, SETTINGS } from '../settings';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { LoadMoreNode, MessageNode, PostNode, type HelpdeskNode } from './nodes';
import { describeFilter, matchesFilter, type PostFilter } from './postFilter';

const { l10n } = vscode;

/** The Helpdesk view: posts, newest first, a page at a time. */
export class PostsTreeProvider implements vscode.TreeDataProvider<HelpdeskNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HelpdeskNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private filter: PostFilter = {};
  private showClosed = readSettings().showClosedPosts;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly store: HelpdeskStore,
    private readonly session: Session,
    /** The view it fills, whose description shows the filter. */
    readonly view: vscode.TreeView<HelpdeskNode>,
  ) {
    this.disposables.push(
      store.posts.onDidChange(() => this.changed.fire(undefined)),
      session.onDidChange(() => this.changed.fire(undefined)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS.showClosedPosts)) this.setShowClosed(readSettings().showClosedPosts);
      }),
    );
    void this.publish();
  }

  get currentFilter(): PostFilter {
    return this.filter;
  }

  setFilter(filter: PostFilter): void {
    this.filter = { text: filter.text?.trim() || undefined, kind: filter.kind };
    void this.publish();
    this.changed.fire(undefined);
  }

  setShowClosed(show: boolean): void {
    this.showClosed = show;
    void this.publish();
    this.changed.fire(undefined);
  }

  getTreeItem(node: HelpdeskNode): vscode.TreeItem {
    return node;
  }

  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    if (node) return [];
    await this.session.whenRestored();
    if (!this.session.client || this.session.state === 'rejected') return [];
    await this.store.posts.ensureStarted();
    const { items, hasMore, loading, error } = this.store.posts.state;
    if (items.length === 0 && welcomeExplains(error)) return [];
    const nodes: HelpdeskNode[] = items.filter((p) => matchesFilter(p, this.filter, this.showClosed)).map((p) => new PostNode(p));
    if (error !== undefined) nodes.push(errorNode('posts', error));
    else if (hasMore) nodes.push(new LoadMoreNode('posts', loading));
    else if (nodes.length === 0) nodes.push(new MessageNode('posts:empty', this.emptyMessage(items.length), 'info'));
    return nodes;
  }

  resolveTreeItem(item: vscode.TreeItem, node: HelpdeskNode): vscode.TreeItem {
    if (node instanceof PostNode) item.tooltip = node.tooltipMarkdown();
    return item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private emptyMessage(loaded: number): string {
    if (loaded === 0) return l10n.t('No posts yet.');
    return describeFilter(this.filter) ? l10n.t('No loaded post matches the filter.') : l10n.t('Every loaded post is closed.');
  }

  private async publish(): Promise<void> {
    const description = describeFilter(this.filter);
    this.view.description = description;
    await vscode.commands.executeCommand('setContext', 'helpdesk.postsFiltered', description !== undefined);
    await vscode.commands.executeCommand('setContext', 'helpdesk.showClosed', this.showClosed);
  }
}

/** The failures the welcome views explain (token rejected, service unreachable); others show as a row. */
export function welcomeExplains(error: unknown): boolean {
  return (isApiError(error, 'auth') && error.status === 401) || isApiError(error, 'network') || isApiError(error, 'timeout');
}

export function errorNode(list: string, error: unknown): MessageNode {
  const message = error instanceof Error ? error.message : String(error);
  return new MessageNode(`${list}:error`, l10n.t('Could not load: {0} Click to retry.', message), 'warning', {
    command: 'helpdesk.loadMore',
    title: l10n.t('Retry'),
    arguments: [list],
  });
}
