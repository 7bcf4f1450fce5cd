import vscode = require('vscode');
import type { Session } from '../auth/session';
import { readSettings, SETTINGS } from '../settings';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { isComment, type Post } from '../api';
import { PostNode, statusText, type HelpdeskNode } from './nodes';
import { pagedRows } from './pagedRows';
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
    /** The view it fills (made at activation, see extension.ts), whose description shows the filter. */
    readonly view: vscode.TreeView<HelpdeskNode>,
  ) {
    this.disposables.push(
      store.posts.onDidChange(() => this.changed.fire(undefined)),
      store.onDidChangeStatuses(() => this.changed.fire(undefined)),
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

  /**
   * Posts that are not comments, newest first. Where the service lists comments among them,
   * each shows below its post, oldest first, and never as a row of its own.
   */
  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    const statuses = this.store.statuses;
    const row = (post: Post, comments?: Map<number, Post[]>) => new PostNode(post, statusText(post, statuses), comments?.get(post.id)?.length);
    if (node instanceof PostNode) return (this.commentsByParent().get(node.post.id) ?? []).map((comment) => row(comment));
    if (node) return [];
    return pagedRows(
      this.session,
      'posts',
      this.store.posts,
      (items) => {
        const comments = this.commentsByParent();
        return items.filter((p) => !isComment(p) && matchesFilter(p, this.filter, this.showClosed)).map((p) => row(p, comments));
      },
      (items) => this.emptyMessage(items.filter((p) => !isComment(p)).length),
    );
  }

  resolveTreeItem(item: vscode.TreeItem, node: HelpdeskNode): vscode.TreeItem {
    if (node instanceof PostNode) item.tooltip = node.tooltipMarkdown();
    return item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
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
