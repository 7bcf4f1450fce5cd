import vscode = require('vscode');
import { readSettings, SETTINGS } from '../settings';
import type { NotifyScope } from './news';

/**
 * What the news watcher takes from its window: the clock and timers, the focus, its settings, and
 * the commands a notification's buttons run. The editor's by default; a test gives each of its
 * windows one of its own (a fake clock, a focus of each window's own, settings of each workspace).
 */
export interface WatcherHost {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  focused(): boolean;
  readonly onDidChangeFocus: vscode.Event<boolean>;
  settings(): { intervalMinutes: number; notify: NotifyScope };
  /** Fires when the interval setting changed. */
  readonly onDidChangeInterval: vscode.Event<void>;
  run(command: string, ...args: unknown[]): Thenable<unknown>;
}

export function editorHost(): WatcherHost {
  return {
    now: () => Date.now(),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    focused: () => vscode.window.state.focused,
    onDidChangeFocus: (listener, thisArg, disposables) =>
      vscode.window.onDidChangeWindowState((state) => void listener.call(thisArg, state.focused), undefined, disposables),
    settings: () => {
      const { watchIntervalMinutes, watchNotify } = readSettings();
      return { intervalMinutes: watchIntervalMinutes, notify: watchNotify };
    },
    onDidChangeInterval: (listener, thisArg, disposables) =>
      vscode.workspace.onDidChangeConfiguration(
        (event) => {
          if (event.affectsConfiguration(SETTINGS.watchIntervalMinutes)) listener.call(thisArg);
        },
        undefined,
        disposables,
      ),
    run: (command, ...args) => vscode.commands.executeCommand(command, ...args),
  };
}
