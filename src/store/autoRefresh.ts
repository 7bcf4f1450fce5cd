import vscode = require('vscode');
import { readSettings, SETTINGS } from '../settings';

/**
 * Runs `refresh` every `helpdesk.autoRefreshMinutes` minutes (off by default), and only while
 * `signedIn()`: signed out, a tick does nothing at all.
 */
export function autoRefresh(signedIn: () => boolean, refresh: () => Promise<unknown>): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (signedIn()) void refresh().catch(() => undefined); // a failed refresh shows in its view
  };
  const schedule = () => {
    if (timer) clearInterval(timer);
    const minutes = readSettings().autoRefreshMinutes;
    timer = minutes > 0 ? setInterval(tick, minutes * 60_000) : undefined;
  };
  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.autoRefreshMinutes) && schedule());
  return new vscode.Disposable(() => {
    listener.dispose();
    if (timer) clearInterval(timer);
  });
}
