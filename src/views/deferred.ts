import vscode = require('vscode');

/**
 * Registered at activation in place of the real provider, which `load` makes the first time
 * VS Code asks for anything; from then on it answers, and passes the real one's change events on.
 */
abstract class Deferred<P, E> implements vscode.Disposable {
  protected readonly changed = new vscode.EventEmitter<E>();
  private provider: P | undefined;
  private forwarding: vscode.Disposable | undefined;

  constructor(
    private readonly load: () => P,
    private readonly changesOf: (provider: P) => vscode.Event<E> | undefined,
  ) {}

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }

  protected real(): P {
    if (!this.provider) {
      const provider = this.load();
      this.forwarding = this.changesOf(provider)?.((e) => this.changed.fire(e));
      this.provider = provider;
    }
    return this.provider;
  }
}

export class DeferredTreeDataProvider<T> extends Deferred<vscode.TreeDataProvider<T>, T | T[] | undefined | null | void> implements vscode.TreeDataProvider<T> {
  readonly onDidChangeTreeData = this.changed.event;

  constructor(load: () => vscode.TreeDataProvider<T>) {
    super(load, (provider) => provider.onDidChangeTreeData);
  }

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
}

export class DeferredContentProvider extends Deferred<vscode.TextDocumentContentProvider, vscode.Uri> implements vscode.TextDocumentContentProvider {
  readonly onDidChange = this.changed.event;

  constructor(load: () => vscode.TextDocumentContentProvider) {
    super(load, (provider) => provider.onDidChange);
  }

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): vscode.ProviderResult<string> {
    return this.real().provideTextDocumentContent(uri, token);
  }
}
