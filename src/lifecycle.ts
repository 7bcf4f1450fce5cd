// One idiom for lifecycles (as vscode-pull-request-github's common/lifecycle.ts): a part that
// owns listeners, emitters, watchers or timers registers each as it makes it, and its dispose()
// ends them all, in the order they were registered. What is registered once it has ended (a
// watcher made after a folder is created, say) is ended at once. No vscode value import.
import type vscode = require('vscode');

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private ended = false;

  /** Whether dispose() has run. */
  protected get isDisposed(): boolean {
    return this.ended;
  }

  /** Owns `value` from now on: dispose() ends it (at once, where dispose() has run already). */
  protected register<T extends vscode.Disposable>(value: T): T {
    if (this.ended) value.dispose();
    else this.owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    for (const value of this.owned.splice(0)) value.dispose();
  }
}
