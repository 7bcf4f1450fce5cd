/**
 * The e-mail bundle (index.ts, built as dist/email.js beside the extension's bundle), loaded at
 * its first use and kept: its parsers and sanitizer are most of its size, and a window that
 * shows no e-mail never reads them. Only types come from index.ts here: a value import would put
 * the whole of it in the extension's bundle.
 */
import { join } from 'node:path';
import { loadBundle, type LoadedBundle } from '../codeCache';
import type * as Email from './index';

export type EmailModule = typeof Email;

let loaded: LoadedBundle<EmailModule> | undefined;

/**
 * The bundle's exports, read at the first call (synchronously: a few milliseconds, once).
 * `cacheFolder` keeps V8's code cache of it as start.ts does the extension's (the caller saves
 * it with `save()` when it likes); `file` is for tests.
 */
export function emailBundle(options: { file?: string; cacheFolder?: string } = {}): LoadedBundle<EmailModule> {
  return (loaded ??= loadBundle<EmailModule>(options.file ?? join(__dirname, 'email.js'), require, options.cacheFolder));
}

export function emailModule(): EmailModule {
  return emailBundle().exports;
}
