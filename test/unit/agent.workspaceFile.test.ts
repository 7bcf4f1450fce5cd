import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { newPost } from '../../src/agent/tools/newPost';
import { Log } from '../../src/log';
import { fake, Uri } from './fakeVscode';

/*
 * Issue 47: a file is the workspace's by where it really is. The workspace folder is opened
 * through a link (~/work → /data/work); an agent names a file by its absolute real path, by the
 * linked one, or relative: each is the same file of the workspace. A path that really is
 * elsewhere — the other side of a link, a sibling folder whose name starts the same, `..` — is not.
 */

let base: string;
/** The folder as it really is, and as the workspace opened it (through a link). */
let real: string;
let linked: string;

beforeEach(() => {
  fake.reset();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hb-wsfile-')));
  real = join(base, 'data', 'work');
  mkdirSync(join(real, 'src'), { recursive: true });
  writeFileSync(join(real, 'src', 'app.ts'), 'const a = 1;\nconst b = 2;\n');
  linked = join(base, 'work');
  symlinkSync(real, linked);
  fake.folders.push({ uri: Uri.file(linked), name: 'work', index: 0 });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const attach = (file: string) => newPost({ title: 'Crash', file, startLine: 1 }, 'bug', new Log());

async function attached(file: string): Promise<string> {
  const made = await attach(file);
  assert.ok(!('problem' in made), `${file}: ${'problem' in made ? made.problem : ''}`);
  assert.ok(made.code, file);
  return made.code.selection.relativePath;
}

async function refused(file: string): Promise<string> {
  const made = await attach(file);
  assert.ok('problem' in made, `${file} was attached`);
  return made.problem;
}

describe('a workspace file, by where it really is', () => {
  it('the absolute real path of a file in a folder opened through a link is that file of the workspace', async () => {
    assert.equal(await attached(join(real, 'src', 'app.ts')), 'src/app.ts');
  });

  it('so are its linked path and its relative path', async () => {
    assert.equal(await attached(join(linked, 'src', 'app.ts')), 'src/app.ts');
    assert.equal(await attached('src/app.ts'), 'src/app.ts');
  });

  it('in the second folder of a workspace, opened through a link too', async () => {
    const second = join(base, 'data', 'lib');
    mkdirSync(second);
    writeFileSync(join(second, 'lib.ts'), 'export {};\n');
    symlinkSync(second, join(base, 'lib'));
    fake.folders.push({ uri: Uri.file(join(base, 'lib')), name: 'lib', index: 1 });
    assert.equal(await attached(join(second, 'lib.ts')), 'lib.ts');
  });

  it('a sibling whose name starts the same, the other side of a link, and ".." stay refused', async () => {
    const sibling = `${real}-secrets`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, 'id_rsa'), 'SECRET\n');
    assert.match(await refused(join(sibling, 'id_rsa')), /is not a file of this workspace/);
    assert.match(await refused(`${real}/../work-secrets/id_rsa`), /without "\.\."/);
    assert.match(await refused(join(base, 'data', 'elsewhere.txt')), /is not a file of this workspace/);
    // A path of another machine is no path here, nor looked for below the host's working folder (were it the workspace's).
    mkdirSync(join(real, 'C:'));
    writeFileSync(join(real, 'C:', 'app.ts'), 'x\n');
    const cwd = process.cwd();
    process.chdir(real);
    try {
      assert.match(await refused('C:/app.ts'), /is not a file of this workspace/);
    } finally {
      process.chdir(cwd);
    }
    symlinkSync(join(sibling, 'id_rsa'), join(real, 'notes.txt'));
    // By its real path it is the secret elsewhere; by the workspace's, a link that leads there.
    assert.match(await refused(join(real, 'notes.txt')), /is not a file of this workspace/);
    assert.match(await refused(join(linked, 'notes.txt')), /leads outside the workspace/);
    assert.match(await refused('notes.txt'), /leads outside the workspace/);
  });
});
