import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { loadBundle, MAX_CACHE_BYTES } from '../../src/codeCache';

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

describe('the bundle loaded with V8\'s code cache', () => {
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

  it('runs the bundle as Node\'s require would: its exports, the require it is given, its file and folder, module.exports as `this`', () => {
    const bundle = join(root, 'dist', 'extension.js');
    const loaded = load({ file: bundle });
    assert.equal(loaded.exports.answer(), 'first246');
    assert.deepEqual(loaded.exports.asked, { api: 'vscode' });
    assert.deepEqual(requires, ['vscode']);
    assert.deepEqual(loaded.exports.where, [bundle, join(root, 'dist'), 'this']);
  });

  it('compiles without a cache the first time, writes one when asked, and the next load uses it', async () => {
    const first = load();
    assert.equal(first.cache, 'missing');
    assert.deepEqual(await caches(), [], 'nothing is written at load');
    await first.save();
    const written = await caches();
    assert.equal(written.length, 1);
    assert.ok((await readFile(join(cacheFolder, written[0]!))).length > 0);

    const second = load();
    assert.equal(second.cache, 'used');
    assert.equal(second.exports.answer(), 'first246');
    await second.save();
    assert.deepEqual(await caches(), written, 'a used cache is not written again');
    assert.deepEqual((await readdir(cacheFolder)).sort(), written, 'no temporary file is left');
  });

  it('never gives a changed bundle the cache of the old one, even of the same length, and the old cache goes at the next save', async () => {
    await load().save();
    const [old] = await caches();
    text = bundleText('other');
    const changed = load();
    assert.equal(changed.cache, 'missing');
    assert.equal(changed.exports.answer(), 'other246');
    await changed.save();
    const now = await caches();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], old);
  });

  it('never gives the bundle at another path the cache made at this one: V8 (Node 20) would name that path in every stack trace', async () => {
    const here = join(root, 'here', 'extension.js');
    await load({ file: here }).save();
    const movedFile = join(root, 'moved', 'extension.js');
    const moved = load({ file: movedFile });
    assert.equal(moved.cache, 'missing');
    assert.ok(moved.exports.stack().includes(movedFile), moved.exports.stack());
    await moved.save();
    assert.equal((await caches()).length, 1, 'the other path\'s cache went');
  });

  it('a cache V8 refuses (garbage under the right name) is not used, the bundle still runs, and the next save makes it again', async () => {
    await load().save();
    const [name] = await caches();
    await writeFile(join(cacheFolder, name!), Buffer.from('not a code cache, but of some length'.repeat(20)));
    const refused = load();
    assert.equal(refused.cache, 'rejected');
    assert.equal(refused.exports.answer(), 'first246');
    await refused.save();
    assert.equal(load().cache, 'used');
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

  it('a save removes only earlier caches and what their writes left, never another file or a write of this cache under way', async () => {
    await load().save();
    const [current] = await caches();
    const older = `${'a'.repeat(32)}-11.3.244.8-node.38.v8cache`;
    const kept = ['notes.txt', `${current}.4242.tmp`, `${'b'.repeat(31)}-1.v8cache`];
    for (const name of [older, `${older}.77.tmp`, ...kept]) await writeFile(join(cacheFolder, name), 'x');
    // Refused, so that the next save writes it again.
    await writeFile(join(cacheFolder, current!), 'y'.repeat(600));
    await load().save();
    assert.deepEqual((await readdir(cacheFolder)).sort(), [current!, ...kept].sort());
    assert.equal(load().cache, 'used');
  });
});
