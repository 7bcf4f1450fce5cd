// Times the activation of one extension that nothing has activated yet in this extension host.
import * as vscode from 'vscode';
import type { ActivationSample } from '../results';
import { settle } from './settle';

/**
 * `await vscode.extensions.getExtension(id).activate()`: the host requires the extension's
 * main module (and creates its `vscode` API object), prepares its ExtensionContext (storage,
 * secrets), calls `activate(context)` and awaits the promise it returns. The extension must not
 * be active yet: activation happens once per host, so each sample needs a fresh host.
 */
export async function measureActivation(extensionId: string): Promise<ActivationSample> {
  const extension = vscode.extensions.getExtension(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded in this extension host.`);
  // Let the host finish its own start (built-in extensions activating) so it does not interleave.
  await settle();
  if (extension.isActive) throw new Error(`${extensionId} was already active before the bench activated it; there is nothing to time.`);
  const othersActive = vscode.extensions.all.filter((e) => e.isActive).length;
  const hostUptimeMs = process.uptime() * 1000;
  const started = performance.now();
  await extension.activate();
  const ms = performance.now() - started;
  if (!extension.isActive) throw new Error(`${extensionId} is not active after activate().`);
  const exports = extension.exports as { load?: () => unknown } | undefined;
  if (typeof exports?.load !== 'function') return { extensionId, ms, hostUptimeMs, othersActive };
  const loading = performance.now();
  exports.load();
  return { extensionId, ms, hostUptimeMs, othersActive, firstUseMs: performance.now() - loading };
}
