import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { loadBundle, MAX_CACHE_BYTES } from '../../src/codeCache';

// Run by the test of a pipe in the cache's place, as a process of its own (a load that waited
// on the pipe would hold this one): loads the bundle given, says what it did with the cache.
const child = process.env.CODE_CACHE_TEST_CHILD;
if (child) {
  const { bundle, folder, save } = JSON.parse(child) as { bundle: string; folder: string; save: boolean };
  const loaded = loadBundle(bundle, ((id: string) => ({ api: id })) as NodeJS.Require, folder);
  void (save ? loaded.save() : Promise.resolve()).then(() => {
    process.stdout.write(`\ncache: ${loaded.cache}\n`);
    process.exit(0);
  });
}

// V8 keeps what it compiled in this process by source and file name, and would answer a second
// load of the same bundle from there without reading the cache: each load here is then a start.
setFlagsFromString('--no-compilation-cache');

interface Bundle {
  answer(): string;
  asked: unknown;
  where: string[];
  stack(): string;
}

// A bundle as esbuild writes one: it requires what it needs and sets module.exports.
const bundleText = (word: string) => `"use strict";
const asked = require('vscode');
function answer() { return ${JSON.stringify(word)} + [1, 2, 3].map((n) => n * 2).join(''); }
module.exports = { answer, asked, where: [__filename, __dirname, this === module.exports ? 'this' : 'not this'], stack: () => new Error('here').stack };

`;

// In the child, the tests are not run again.
void (child ? describe.skip : describe)("the bundle loaded with V8's code cache", () => {
  let root: string;
  let text: string;
  let cacheFolder: string;
  const requires: string[] = [];
  const fakeRequire = ((id: string) => (requires.push(id), { api: id })) as NodeJS.Require;
  const caches = async () => (await readdir(cacheFolder).catch(() => [] as string[])).filter((f) => f.endsWith('.v8cache'));
  /** The bundle's text at `file`, loaded as a starting extension host loads it. */
  const load = ({ cache = true, file = join(root, 'dist', 'extension.js') }: { cache?: boolean; file?: string } = {}) => {
    const bundle = file;
    mkdirSync(dirname(bundle), { recursive: true });
    writeFileSync(bundle, text);
    return loadBundle<Bundle>(bundle, fakeRequire, cache ? cacheFolder : undefined);
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'code-cache-'));
    cacheFolder = join(root, 'storage', 'code-cache');
    requires.length = 0;
    text = bundleText('first');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("runs the bundle as Node's require would: its exports, the require it is given, its file and folder, module.exports as `this`", () => {
    const bundle = join(root, 'dist', 'extension.js');
    const loaded = load({ file: bundle });
    assert.equal(loaded.exports.answer(), 'first246');
    assert.deepEqual(loaded.exports.asked, { api: 'vscode' });
    assert.deepEqual(requires, ['vscode']);
    assert.deepEqual(loaded.exports.where, [bundle, join(root, 'dist'), 'this']);
  });

  it("stack traces name the bundle's own lines and columns, as with require", () => {
    const bundle = join(root, 'dist', 'extension.js');
    // Line 4, column 141: `new Error` in the bundle's last line.
    assert.match(
      load({ file: bundle }).exports.stack().split('\n')[1]!,
      new RegExp(`${bundle.replace(/[.\\/]/g, '\\$&')}:4:${bundleText('first').split('\n')[3]!.indexOf('new Error') + 1}\\)$`),
    );
  });

  it('compiles without a cache the first time, writes one when asked, and the next load uses it', async () => {
    const first = load();
    assert.equal(first.cache, 'missing');
    assert.deepEqual(await caches(), [], 'nothing is written at load');
    await first.save();
    const written = await caches();
    assert.equal(written.length, 1);
    assert.ok((await readFile(join(cacheFolder, written[0]!))).length > 0);

    const file = join(cacheFolder, written[0]!);
    // Whole seconds: a time set with a fraction reads back a hair off.
    const long = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    await utimes(file, long, long);
    const second = load();
    assert.equal(second.cache, 'used');
    assert.equal(second.exports.answer(), 'first246');
    await second.save();
    assert.deepEqual(await caches(), written);
    assert.equal(Math.round((await stat(file)).mtimeMs), long.getTime(), 'a used cache is not written again');
    assert.deepEqual((await readdir(cacheFolder)).sort(), written, 'no temporary file is left');
  });

  it('never gives a changed bundle the cache of the old one, even of the same length', async () => {
    await load().save();
    const [old] = await caches();
    text = bundleText('other');
    const changed = load();
    assert.equal(changed.cache, 'missing');
    assert.equal(changed.exports.answer(), 'other246');
    await changed.save();
    const now = await caches();
    assert.equal(now.length, 2);
    assert.ok(now.includes(old!));
    text = bundleText('first');
    assert.equal(load().cache, 'used', 'the old one is kept for the old bundle');
  });

  it('never gives the bundle at another path the cache made at this one: V8 (Node 20) would name that path in every stack trace', async () => {
    const here = join(root, 'here', 'extension.js');
    await load({ file: here }).save();
    const movedFile = join(root, 'moved', 'extension.js');
    const moved = load({ file: movedFile });
    assert.equal(moved.cache, 'missing');
    assert.ok(moved.exports.stack().includes(movedFile), moved.exports.stack());
    await moved.save();
    assert.equal((await caches()).length, 2, 'one for each path');
  });

  it('a cache V8 refuses (intact as a file, but no code V8 made) is not used, the bundle still runs, and the next save makes it again', async () => {
    await load().save();
    const [name] = await caches();
    const body = Buffer.from('not a code cache, but of some length'.repeat(20));
    await writeFile(join(cacheFolder, name!), Buffer.concat([Buffer.from('HBV8C001'), createHash('sha256').update(body).digest(), body]));
    const refused = load();
    assert.equal(refused.cache, 'rejected');
    assert.equal(refused.exports.answer(), 'first246');
    await refused.save();
    assert.equal(load().cache, 'used');
  });

  it('a cache damaged at the same length is not given to V8 (which would crash on it) and is made again', async () => {
    await load().save();
    const file = join(cacheFolder, (await caches())[0]!);
    const bytes = await readFile(file);
    bytes.fill(0, Math.floor(bytes.length / 2));
    await writeFile(file, bytes);
    const damaged = load();
    assert.equal(damaged.cache, 'missing');
    assert.equal(damaged.exports.answer(), 'first246');
    await damaged.save();
    assert.equal(load().cache, 'used');
  });

  it("a pipe in the cache's place does not hold the start: it is no cache", { skip: process.platform === 'win32' }, async () => {
    const bundle = join(root, 'dist', 'extension.js');
    load({ file: bundle, cache: false });
    // A start of its own (its flags name its cache) makes the cache, then the pipe takes its place.
    const start = (save: boolean) => {
      const run = spawnSync(process.execPath, [__filename], {
        env: { ...process.env, CODE_CACHE_TEST_CHILD: JSON.stringify({ bundle, folder: cacheFolder, save }) },
        timeout: 10_000,
        encoding: 'utf8',
      });
      return { signal: run.signal, cache: /^cache: (\w+)$/m.exec(run.stdout)?.[1], stderr: run.stderr };
    };
    assert.equal(start(true).cache, 'missing');
    const made = await caches();
    assert.equal(made.length, 1);
    const file = join(cacheFolder, made[0]!);
    assert.equal(start(false).cache, 'used', 'the next start reads it');
    await rm(file);
    execFileSync('mkfifo', [file]);
    const run = start(false);
    assert.equal(run.signal, null, 'the load waited on the pipe until it was killed');
    assert.equal(run.cache, 'missing', run.stderr);
  });

  it('reads no cache that is empty or larger than the bound', async () => {
    await load().save();
    const file = join(cacheFolder, (await caches())[0]!);
    await truncate(file, 0);
    assert.equal(load().cache, 'missing');
    await truncate(file, MAX_CACHE_BYTES + 1);
    const large = load();
    assert.equal(large.cache, 'missing');
    assert.equal(large.exports.answer(), 'first246');
  });

  it('without a folder (a global storage not on this disk) keeps no cache', async () => {
    const loaded = load({ cache: false });
    assert.equal(loaded.cache, 'off');
    assert.equal(loaded.exports.answer(), 'first246');
    await loaded.save();
    await assert.rejects(readdir(cacheFolder), { code: 'ENOENT' });
  });

  it('a save keeps this cache and the two newest others (two versions or runtimes side by side), and removes the older ones and writes stopped a minute ago', async () => {
    await load().save();
    const [current] = await caches();
    const other = (c: string) => `${c.repeat(32)}-11.3.244.8-node.38.v8cache`;
    const minutesAgo = async (name: string, minutes: number) => {
      await writeFile(join(cacheFolder, name), 'x');
      const when = new Date(Date.now() - minutes * 60_000);
      await utimes(join(cacheFolder, name), when, when);
    };
    await minutesAgo(other('a'), 1);
    await minutesAgo(other('b'), 2);
    await minutesAgo(other('c'), 3);
    await minutesAgo(other('d'), 4);
    await minutesAgo(`${other('d')}.0a1b2c.tmp`, 2);
    await minutesAgo(`${current}.3d4e5f.tmp`, 0);
    await minutesAgo('notes.txt', 60);
    // Refused, so that the next save writes it again.
    await writeFile(join(cacheFolder, current!), 'y'.repeat(600));
    await load().save();
    assert.deepEqual((await readdir(cacheFolder)).sort(), [current!, `${current}.3d4e5f.tmp`, other('a'), other('b'), 'notes.txt'].sort());
    assert.equal(load().cache, 'used');
  });
});
