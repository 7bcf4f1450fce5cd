import vscode = require('vscode');

/** A notification with a progress bar and a Cancel button, which aborts `work`'s signal. */
export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, cancel) =>
    work(abortSignalOf(cancel)),
  );
}

/** What the API client takes: a signal that aborts when `token` is cancelled. */
export function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
