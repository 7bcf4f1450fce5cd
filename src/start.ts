// The extension's entry (package.json's "main"): loads the bundle, dist/extension.js, with V8's
// code cache kept in the global storage (see codeCache.ts), and hands over to its activate().
// Only types come from the bundle here: a value import would put the whole of it in this file.
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadBundle } from './codeCache';
import type * as Extension from './extension';

/** A few seconds after activation: the cache then holds what the start ran, not only the bundle's top level. */
const SAVE_CACHE_AFTER_MS = 3000;

let extension: typeof Extension | undefined;

export function activate(context: vscode.ExtensionContext): ReturnType<typeof Extension.activate> {
  const storage = context.globalStorageUri;
  const bundle = loadBundle<typeof Extension>(
    join(__dirname, 'extension.js'),
    require,
    storage.scheme === 'file' ? join(storage.fsPath, 'code-cache') : undefined,
  );
  extension = bundle.exports;
  const api = extension.activate(context);
  // The cache only saves time: a failure to write it costs the next start its compile, no more.
  const saving = setTimeout(() => void bundle.save().catch(() => undefined), SAVE_CACHE_AFTER_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(saving) });
  return api;
}

export function deactivate(): void {
  return extension?.deactivate();
}
