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

/** After the first load: the cache then holds the parsers and the sanitizer as the first e-mail ran them, not only the bundle's top level. */
const SAVE_CACHE_AFTER_MS = 2000;

/** The folder of the extension's global storage the cache is kept in (the extension's own is in `code-cache`, see start.ts). */
export const EMAIL_CODE_CACHE = 'email-code-cache';

let loaded: LoadedBundle<EmailModule> | undefined;
interface CodeCache {
  readonly folder: string;
  saving?: ReturnType<typeof setTimeout>;
}
let codeCache: CodeCache | undefined;

/**
 * Keeps V8's code cache of the bundle in `folder`, as start.ts keeps the extension's (see
 * codeCache.ts): the first e-mail of a window then reads the code compiled at an earlier one's
 * instead of compiling the bundle again. Set at activation, before any e-mail is read; the cache
 * is written a while after the first load, unless that load used it. Disposed, no more is written.
 */
export function keepEmailCodeCache(folder: string): { dispose(): void } {
  const kept: CodeCache = { folder };
  codeCache = kept;
  return {
    dispose: () => {
      clearTimeout(kept.saving);
      if (codeCache === kept) codeCache = undefined;
    },
  };
}

/** The bundle's exports, read at the first call (synchronously: a few milliseconds, once); `file` is for tests. */
export function emailBundle(options: { file?: string } = {}): LoadedBundle<EmailModule> {
  if (loaded) return loaded;
  const cache = codeCache;
  const bundle = (loaded = loadBundle<EmailModule>(options.file ?? join(__dirname, 'email.js'), require, cache?.folder));
  // The cache only saves time: a failure to write it costs the next window its compile, no more.
  if (cache) cache.saving = setTimeout(() => void bundle.save().catch(() => undefined), SAVE_CACHE_AFTER_MS);
  return bundle;
}

export function emailModule(): EmailModule {
  return emailBundle().exports;
}
