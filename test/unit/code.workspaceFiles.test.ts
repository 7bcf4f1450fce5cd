import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateFiles } from '../../src/code/workspaceFiles';

const FILES = ['src/app.ts', 'src/util/index.ts', 'lib/util/index.ts', 'test/util/index.ts', 'src/main/java/a/b/C.java', 'README.md', 'Src/App.ts'];

describe('candidate files for a location', () => {
  it('takes the exact relative path alone', () => {
    assert.deepEqual(candidateFiles('src/app.ts', FILES), ['src/app.ts']);
    assert.deepEqual(candidateFiles('./src/app.ts', FILES), ['src/app.ts']);
    assert.deepEqual(candidateFiles('src\\app.ts', FILES), ['src/app.ts']);
  });

  it('else the files that share the longest run of trailing folders and name, in the list’s order', () => {
    assert.deepEqual(candidateFiles('/home/ci/build/src/app.ts', FILES), ['src/app.ts']);
    assert.deepEqual(candidateFiles('C:/work/proj/lib/util/index.ts', FILES), ['lib/util/index.ts']);
    assert.deepEqual(candidateFiles('dist/util/index.ts', FILES), ['src/util/index.ts', 'lib/util/index.ts', 'test/util/index.ts']);
    assert.deepEqual(candidateFiles('a/b/C.java', FILES), ['src/main/java/a/b/C.java']);
    assert.deepEqual(candidateFiles('../x/README.md', FILES), ['README.md']);
  });

  it('compares without case only when nothing matches with it', () => {
    assert.deepEqual(candidateFiles('/ci/src/App.ts', FILES), ['Src/App.ts']);
    assert.deepEqual(candidateFiles('/ci/SRC/APP.TS', FILES), ['src/app.ts', 'Src/App.ts']);
  });

  it('finds nothing when no file has the name', () => {
    assert.deepEqual(candidateFiles('src/other.ts', FILES), []);
    assert.deepEqual(candidateFiles('', FILES), []);
    assert.deepEqual(candidateFiles('src/', FILES), []);
    assert.deepEqual(candidateFiles('src/app.ts', []), []);
  });

  it('returns the workspace files as they were given', () => {
    assert.deepEqual(candidateFiles('x/app.ts', ['src\\app.ts']), ['src\\app.ts']);
  });
});
