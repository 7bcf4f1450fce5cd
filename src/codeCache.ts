/**
 * Loads a CommonJS bundle with V8's code cache: the code compiled at its last start, kept in a
 * folder, so that a window's start reads it instead of compiling the whole bundle again (VS Code
 * starts its own code this way). A cache is named by a hash of the bundle's path and text and by
 * V8's version, and V8 checks it again (its version, its flags, the source's length): a cache of
 * another build or runtime is never used, and one V8 refuses is made again. No `vscode` here:
 * this runs before the bundle, and its tests run under Node alone.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { wrap } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The bundle's cache is some hundreds of KB: a larger file is no cache of it, and is not read. */
export const MAX_CACHE_BYTES = 16 * 1024 * 1024;
/** A cache's name: the bundle's hash and V8's version (see `cacheName`). */
const CACHE_NAME = /^[0-9a-f]{32}-[0-9A-Za-z._-]{1,40}\.v8cache$/;

/** What the load did with the cache: none kept (`off`), none found, used, or refused by V8. */
export type CacheUse = 'off' | 'missing' | 'used' | 'rejected';

export interface LoadedBundle<T> {
  readonly exports: T;
  readonly cache: CacheUse;
  /**
   * Writes the cache of the code compiled so far, unless this load used one, and removes the
   * folder's other caches (earlier builds'). Later is better: it then holds the functions the
   * start ran, not only the bundle's top level.
   */
  save(): Promise<void>;
}

/**
 * Runs `file` as Node would require it, with `require` as its own (the extension host finds the
 * calling extension of `require('vscode')` by that module's path), compiled from the cache in
 * `cacheFolder` when there is a usable one.
 */
export function loadBundle<T>(file: string, require: NodeJS.Require, cacheFolder: string | undefined): LoadedBundle<T> {
  const text = readFileSync(file);
  const cacheFile = cacheFolder === undefined ? undefined : join(cacheFolder, cacheName(file, text));
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  const script = new Script(wrap(text.toString('utf8')), { filename: file, cachedData });
  const cache: CacheUse = cacheFile === undefined ? 'off' : cachedData === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, require, module, file, dirname(file));
  return {
    exports: module.exports as T,
    cache,
    save: async () => {
      if (cacheFile !== undefined && cache !== 'used') await saveCache(cacheFile, script.createCachedData());
    },
  };
}

/**
 * The bundle's path is in the hash: V8 before 12 names the path a cache was made at in every
 * stack trace of the code compiled from it (Node 20's), so a bundle elsewhere makes its own.
 */
function cacheName(file: string, text: Buffer): string {
  const hash = createHash('sha256').update(file).update('\0').update(text).digest('hex').slice(0, 32);
  return `${hash}-${process.versions.v8.replace(/[^0-9A-Za-z._-]/g, '_').slice(0, 40)}.v8cache`;
}

/** The cache in `file`: undefined when there is none, or it cannot be read, or is empty or too large. */
function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    return size > 0 && size <= MAX_CACHE_BYTES ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Written whole under another name and renamed: a window starting meanwhile reads the old cache or the new, never a part. */
async function saveCache(file: string, data: Buffer): Promise<void> {
  const folder = dirname(file);
  const name = basename(file);
  await mkdir(folder, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  // Earlier builds' caches, and what their writes left. The folder holds only these.
  for (const entry of await readdir(folder)) {
    if (entry !== name && !entry.startsWith(`${name}.`) && (CACHE_NAME.test(entry) || CACHE_NAME.test(entry.replace(/\.\d+\.tmp$/, '')))) await rm(join(folder, entry), { force: true });
  }
}
