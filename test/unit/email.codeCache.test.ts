import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { emailBundle, keepEmailCodeCache } from '../../src/email/load';
import { guardMs } from '../limits';

// Run by the tests below, as a window's extension host of its own (each a fresh V8): keeps the
// cache in the folder given (or none), converts an e-mail, says at its exit what the load did
// with the cache. The process ends once nothing is left to do: the cache's save included.
const child = process.env.EMAIL_CODE_CACHE_CHILD;
if (child) {
  const { folder, dispose } = JSON.parse(child) as { folder?: string; dispose?: boolean };
  const kept = folder === undefined ? undefined : keepEmailCodeCache(folder);
  const loaded = emailBundle();
  assert.equal(loaded.exports.emailPage('<p onclick="x()">Hi</p>').html, '<p>Hi</p>');
  if (dispose) kept?.dispose();
  process.on('exit', () => process.stdout.write(`\ncache: ${loaded.cache}\n`));
}

/* The e-mail bundle is loaded with V8's code cache, as the extension's own is (src/email/load.ts,
 * src/codeCache.ts): a window's first e-mail reads the code an earlier window compiled. */
void (child ? describe.skip : describe)("the e-mail bundle's code cache", () => {
  let folder: string;
  beforeEach(async () => (folder = await mkdtemp(join(tmpdir(), 'hb-email-cache-'))));
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /** A window whose first e-mail loads the bundle (out/unit/email.js, beside this test, as dist/email.js beside the extension). */
  const window = (options: { folder?: string; dispose?: boolean }) => {
    const run = spawnSync(process.execPath, [__filename], {
      env: { ...process.env, EMAIL_CODE_CACHE_CHILD: JSON.stringify(options) },
      // Loading the bundle, one conversion, the save a couple of seconds after.
      timeout: guardMs(3_000),
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    return /^cache: (\w+)$/m.exec(run.stdout)?.[1];
  };
  const caches = async () => (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.v8cache'));

  it("is written after a window's first e-mail, and read by the next window's", async () => {
    assert.equal(window({ folder }), 'missing');
    assert.equal((await caches()).length, 1, 'written');
    assert.equal(window({ folder }), 'used');
    assert.equal((await caches()).length, 1, 'one cache, not written again');
  });

  it('is not written once disposed (the extension deactivated), nor kept where no folder is given', async () => {
    assert.equal(window({ folder, dispose: true }), 'missing');
    assert.deepEqual(await caches(), []);
    assert.equal(window({}), 'off');
  });
});
