/**
 * Loads a CommonJS bundle with V8's code cache: the code compiled at its last start, kept in a
 * folder, so that a window's start reads it instead of compiling the whole bundle again (VS Code
 * starts its own code this way). A cache is named by a hash of the bundle's path and text and of
 * the runtime's flags, and by V8's version; its own hash is checked before V8 reads it, and V8
 * checks it again (its version, its flags, the source's length): a cache of another build or
 * runtime, or a damaged one, is never used, and is made again. No `vscode` here: this runs
 * before the bundle, and its tests run under Node alone.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The bundle's cache is some hundreds of KB: a larger file is no cache of it, and is not read. */
export const MAX_CACHE_BYTES = 16 * 1024 * 1024;
/**
 * Before the code V8 made: this mark and the SHA-256 of that code. V8 in Node 20 checks a cache's
 * header, not its body: a body damaged at the same length (a disk's fault, a write cut by a
 * power loss) crashes the process that is given it. Ours is checked first.
 */
const MARK = Buffer.from('HBV8C001');
const HEADER_BYTES = MARK.length + 32;
/** A cache's name: a hash of the bundle's path and text and of the runtime's flags, and V8's version (see `cacheName`). */
const CACHE_NAME = /^[0-9a-f]{32}-[0-9A-Za-z._-]{1,40}\.v8cache$/;
const TEMP_NAME = /\.v8cache\.[0-9a-f]+\.tmp$/;
/** Other builds' and runtimes' caches kept beside this one: two windows of two versions or flags do not remove each other's. */
const KEEP_OTHERS = 2;
/** The folder's entries a save looks at, at most (it holds a few): a folder filled by something else costs no more. */
const MAX_LOOKED_AT = 100;
/** A write's temporary file this old was left by a process that stopped. */
const STALE_TEMP_MS = 60_000;

/** What the load did with the cache: none kept (`off`), none usable found, used, or refused by V8. */
export type CacheUse = 'off' | 'missing' | 'used' | 'rejected';

export interface LoadedBundle<T> {
  readonly exports: T;
  readonly cache: CacheUse;
  /**
   * Writes the cache of the code compiled so far, unless this load used one, and removes the
   * folder's oldest caches. Later is better: it then holds the functions the start ran, not
   * only the bundle's top level.
   */
  save(): Promise<void>;
}

/** The first line holds the wrapper alone, and lineOffset takes it back: stack traces name the bundle's own lines and columns. */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_END = '\n})';

/**
 * Runs `file` as Node would require it, with `require` as its own (the extension host finds the
 * calling extension of `require('vscode')` by that module's path), compiled from the cache in
 * `cacheFolder` when there is a usable one.
 */
export function loadBundle<T>(file: string, require: NodeJS.Require, cacheFolder: string | undefined): LoadedBundle<T> {
  const text = readFileSync(file);
  const cacheFile = cacheFolder === undefined ? undefined : join(cacheFolder, cacheName(file, text));
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  const script = new Script(WRAPPER_START + text.toString('utf8') + WRAPPER_END, { filename: file, lineOffset: -1, cachedData });
  const cache: CacheUse =
    cacheFile === undefined ? 'off' : cachedData === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
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
 * So are the runtime's flags, which V8 checks too: a process with others has a cache of its own.
 */
function cacheName(file: string, text: Buffer): string {
  const flags = JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']);
  const hash = createHash('sha256').update(file).update('\0').update(flags).update('\0').update(text).digest('hex').slice(0, 32);
  return `${hash}-${process.versions.v8.replace(/[^0-9A-Za-z._-]/g, '_').slice(0, 40)}.v8cache`;
}

/**
 * The code V8 made, from `file`: undefined when there is none, or it is no regular file, or is
 * larger than the bound, or its mark or hash is not right. Opened without waiting, so that a
 * pipe put in its place cannot hold the extension host.
 */
function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size <= HEADER_BYTES || info.size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    const data = bytes.subarray(HEADER_BYTES);
    const intact = bytes.subarray(0, MARK.length).equals(MARK) && bytes.subarray(MARK.length, HEADER_BYTES).equals(sha256(data));
    return intact ? data : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/**
 * Written whole to a file of this write's own, flushed to the disk, and renamed: a window
 * starting meanwhile reads the old cache or the new, never a part.
 */
async function saveCache(file: string, data: Buffer): Promise<void> {
  const folder = dirname(file);
  await mkdir(folder, { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(Buffer.concat([MARK, sha256(data), data]));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  await removeOldCaches(folder, basename(file));
}

/** The folder keeps this cache and the newest others; a stopped write's temporary file goes too. */
async function removeOldCaches(folder: string, current: string): Promise<void> {
  const entries = await Promise.all(
    (await readdir(folder))
      .filter((name) => name !== current && (CACHE_NAME.test(name) || TEMP_NAME.test(name)))
      .slice(0, MAX_LOOKED_AT)
      .map(async (name) => ({ name, modified: (await stat(join(folder, name)).catch(() => undefined))?.mtimeMs })),
  );
  const caches = entries.filter(({ name }) => CACHE_NAME.test(name)).sort((a, b) => (b.modified ?? 0) - (a.modified ?? 0));
  const stale = [
    ...caches.slice(KEEP_OTHERS),
    ...entries.filter(({ name, modified }) => TEMP_NAME.test(name) && modified !== undefined && Date.now() - modified > STALE_TEMP_MS),
  ];
  await Promise.all(stale.map(({ name }) => rm(join(folder, name), { force: true })));
}
