import vscode = require('vscode');

/**
 * A tree view's provider at activation, standing in for the real one, which `load` makes the
 * first time the view asks for anything; from then on it answers and signals for it.
 */
export class DeferredTreeDataProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private provider: vscode.TreeDataProvider<T> | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(private readonly load: () => vscode.TreeDataProvider<T>) {}

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.real().getChildren(element);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real().getTreeItem(element);
  }

  resolveTreeItem(item: vscode.TreeItem, element: T, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    const real = this.real();
    return real.resolveTreeItem ? real.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private real(): vscode.TreeDataProvider<T> {
    if (!this.provider) {
      const provider = this.load();
      if (provider.onDidChangeTreeData) this.disposables.push(provider.onDidChangeTreeData((e) => this.changed.fire(e)));
      this.provider = provider;
    }
    return this.provider;
  }
}
