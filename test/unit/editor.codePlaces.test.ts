import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { codePlaces, openAtOnce } from '../../src/editor/codePlaces';
import { fake, Uri } from './fakeVscode';

/* Go to Code on paths from another machine, against a real folder as the workspace. */

describe('Go to Code on a path from another machine', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'hd-places-'));
    for (const file of ['docs/win.ini', 'src/app.ts', 'fixtures/passwd', 'lib/util/index.ts', 'src/util/index.ts']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), 'line\n'.repeat(10));
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    fake.reset();
    fake.folders.push({ uri: Uri.file(root), name: 'proj', index: 0 });
  });

  it('opens nothing at once on a file name alone: the person picks', async () => {
    for (const content of [
      'See C:/Windows/win.ini:7',
      'at \\\\server\\share\\win.ini:3',
      'File "C:\\Windows\\win.ini", line 7, in <module>',
      '- File: `/etc/passwd`, line 1',
      'see ../../win.ini:2',
    ]) {
      const places = await codePlaces(content);
      assert.ok(
        places.some((p) => p.file),
        `${content}: the name's file is offered`,
      );
      assert.equal(openAtOnce(places), undefined, content);
    }
  });

  it('opens at once the one file that two trailing segments or more tell', async () => {
    const places = await codePlaces('at /home/ci/build/src/app.ts:3:5');
    assert.equal(openAtOnce(places)?.file?.path, join(root, 'src/app.ts'));
    assert.equal(openAtOnce(await codePlaces('at /ci/dist/util/index.ts:3:5')), undefined, 'two files agree as far');
  });

  it('a place not in the workspace is told at once, as before', async () => {
    const places = await codePlaces('at /home/ci/build/src/missing.ts:3:5');
    assert.equal(places.length, 1);
    assert.equal(openAtOnce(places), places[0]);
    assert.equal(places[0]?.file, undefined);
  });
});
