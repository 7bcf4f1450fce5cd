import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import type { Client } from '../api';
import { hostOf } from './postUri';
import { withSignedIn, type WindowAccount } from '../accounts/signedIn';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { errorText } from '../ui/errorText';
import { ClientNode, DealNode, MessageNode, type HelpdeskNode } from './nodes';
import { pagedRows, retryRow } from './pagedRows';

const { l10n } = vscode;

/** The Clients view: clients by name, a page at a time; a client expands to its deals. */
export class ClientsTreeProvider extends Disposable implements vscode.TreeDataProvider<HelpdeskNode> {
  private readonly changed = this.register(new vscode.EventEmitter<HelpdeskNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private view: Pick<vscode.TreeView<HelpdeskNode>, 'description'> | undefined;
  /** The client rows last drawn, by id: a change of one client's deals draws that row again. */
  private readonly shown = new Map<number, ClientNode>();

  constructor(
    private readonly store: HelpdeskStore,
    private readonly window: WindowAccount,
  ) {
    super();
    this.register(store.clients.onDidChange(() => this.changed.fire(undefined)));
    this.register(store.onDidChangeDeals((clientIds) => this.dealsChanged(clientIds)));
    this.register(
      window.onDidChange(() => {
        this.changed.fire(undefined);
        void this.describe();
      }),
    );
  }

  /** The view it fills, whose description names the account while several are signed in to. */
  showIn(view: Pick<vscode.TreeView<HelpdeskNode>, 'description'>): void {
    this.view = view;
    void this.describe();
  }

  private async describe(): Promise<void> {
    const accountUrl = await withSignedIn(
      this.window,
      ({ url }) => url,
      () => undefined,
    )();
    const several = (await this.window.signedInAccounts().catch(() => [])).length > 1;
    if (this.view) this.view.description = several && accountUrl ? hostOf(accountUrl) : undefined;
  }

  getTreeItem(node: HelpdeskNode): vscode.TreeItem {
    return node;
  }

  async getChildren(node?: HelpdeskNode): Promise<HelpdeskNode[]> {
    if (node instanceof ClientNode) return this.dealsOf(node);
    if (node) return [];
    this.shown.clear();
    return withSignedIn(
      this.window,
      ({ usable }) =>
        pagedRows(
          this.store,
          'clients',
          this.store.clients,
          usable,
          (items) => items.map((c) => this.node(c)),
          () => l10n.t('No clients yet.'),
        ),
      () => [],
    )();
  }

  private node(client: Client): ClientNode {
    const node = new ClientNode(client);
    this.shown.set(client.id, node);
    return node;
  }

  /** Draws again the clients whose deals changed, where they show; the view only when any may have. */
  private dealsChanged(clientIds: readonly number[] | undefined): void {
    if (clientIds === undefined) return this.changed.fire(undefined);
    for (const id of clientIds) {
      const node = this.shown.get(id);
      if (node) this.changed.fire(node);
    }
  }

  private async dealsOf(node: ClientNode): Promise<HelpdeskNode[]> {
    const usable = await withSignedIn(
      this.window,
      (signedIn) => signedIn.usable,
      () => false,
    )();
    if (!usable) return [];
    const { id } = node.client;
    const retry = ['deals', id];
    try {
      const { items: deals, error } = await this.store.dealsOf(id);
      if (error !== undefined) {
        return [
          ...deals.map((deal) => new DealNode(deal)),
          retryRow(`client:${id}:error`, l10n.t('Could not load more: {0} Click to retry.', errorText(error)), retry),
        ];
      }
      if (deals.length === 0) {
        return [
          new MessageNode(`client:${id}:no-deals`, l10n.t('No deals. Link one…'), 'info', {
            command: 'helpdesk.linkDeal',
            title: l10n.t('Link Deal…'),
            arguments: [node],
          }),
        ];
      }
      return deals.map((deal) => new DealNode(deal));
    } catch (error) {
      return [retryRow(`client:${id}:error`, l10n.t('Could not load deals: {0} Click to retry.', errorText(error)), retry)];
    }
  }
}
