import vscode = require('vscode');
import type { Session } from '../auth/session';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { ClientNode, DealNode, LoadMoreNode, MessageNode, type HelpdeskNode } from './nodes';
import { errorNode, welcomeExplains } from './postsTree';

const { l10n } = vscode;

/** The Clients view: clients by name, a page at a time; a client expands to its deals. */
export class ClientsTreeProvider implements vscode.TreeDataProvider<HelpdeskNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HelpdeskNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly store: HelpdeskStore,
    private readonly session: Session,
  ) {
    this.disposables.push(
      store.clients.onDidChange(() => this.changed.fire(undefined)),
      store.onDidChangeDeals(() => this.changed.fire(undefined)),
      session.onDidChange(() => this.changed.fire(undefined)),
    );
  }

  getTreeItem(node: HelpdeskNode): vscode.TreeItem {
    return node;
  }

  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    await this.session.whenRestored();
    if (!this.session.client || this.session.state === 'rejected') return [];
    if (node instanceof ClientNode) return this.dealsOf(node);
    if (node) return [];
    await this.store.clients.ensureStarted();
    const { items, hasMore, loading, error } = this.store.clients.state;
    if (items.length === 0 && welcomeExplains(error)) return [];
    const nodes: HelpdeskNode[] = items.map((c) => new ClientNode(c));
    if (error !== undefined) nodes.push(errorNode('clients', error));
    else if (hasMore) nodes.push(new LoadMoreNode('clients', loading));
    else if (nodes.length === 0) nodes.push(new MessageNode('clients:empty', l10n.t('No clients yet.'), 'info'));
    return nodes;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async dealsOf(node: ClientNode): Promise<HelpdeskNode[]> {
    try {
      const deals = await this.store.dealsOf(node.client.id);
      if (deals.length === 0) {
        return [new MessageNode(`client:${node.client.id}:no-deals`, l10n.t('No deals. Link one…'), 'info', {
          command: 'helpdesk.linkDeal',
          title: l10n.t('Link Deal…'),
          arguments: [node],
        })];
      }
      return deals.map((deal) => new DealNode(deal));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [new MessageNode(`client:${node.client.id}:error`, l10n.t('Could not load deals: {0}', message), 'warning')];
    }
  }
}
