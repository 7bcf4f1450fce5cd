import vscode = require('vscode');

/**
 * How long work runs before its progress notification is shown. A send the service answers at
 * once paints no toast that vanishes as it appears (and costs the workbench a layout each way);
 * one that takes longer shows it, with Cancel, as before.
 */
export const PROGRESS_AFTER_MS = 300;

/**
 * `work`, with a notification holding a progress bar and a Cancel button, which aborts its
 * signal, once it has run PROGRESS_AFTER_MS.
 */
export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const done = (async () => work(controller.signal))();
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, cancel) => {
      cancel.onCancellationRequested(() => controller.abort());
      return done.then(
        () => undefined,
        () => undefined,
      );
    });
  }, PROGRESS_AFTER_MS);
  return done.finally(() => clearTimeout(timer));
}

/** What the API client takes: a signal that aborts when `token` is cancelled. */
export function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
