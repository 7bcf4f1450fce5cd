import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateFiles, workspaceMatch } from '../../src/code/workspaceFiles';

const FILES = [
  'src/app.ts',
  'src/util/index.ts',
  'lib/util/index.ts',
  'test/util/index.ts',
  'src/main/java/a/b/C.java',
  'README.md',
  'Src/App.ts',
];

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

describe('a path from another machine', () => {
  const WORKSPACE = ['docs/win.ini', 'src/app.ts', 'fixtures/passwd', 'README.md', 'lib/util/index.ts', 'src/util/index.ts', 'etc/hosts'];

  it('is never taken for a workspace file on its name alone', () => {
    for (const path of [
      'C:/Windows/win.ini',
      '//server/share/win.ini',
      '/etc/passwd',
      '../../win.ini',
      '/win.ini',
      'C:/README.md',
      '../README.md',
      '/README.md',
    ]) {
      const match = workspaceMatch(path, WORKSPACE);
      assert.equal(match.sure, false, path);
    }
    assert.deepEqual(workspaceMatch('C:/Windows/win.ini', WORKSPACE).files, ['docs/win.ini'], 'still offered, to pick');
  });

  it('is taken where two trailing segments or more agree and tell one file', () => {
    assert.deepEqual(workspaceMatch('/home/ci/build/src/app.ts', WORKSPACE), { files: ['src/app.ts'], sure: true });
    assert.deepEqual(workspaceMatch('C:\\work\\proj\\src\\app.ts', WORKSPACE), { files: ['src/app.ts'], sure: true });
    assert.deepEqual(workspaceMatch('/work/lib/util/index.ts', WORKSPACE), { files: ['lib/util/index.ts'], sure: true });
    assert.deepEqual(
      workspaceMatch('dist/util/index.ts', WORKSPACE),
      { files: ['lib/util/index.ts', 'src/util/index.ts'], sure: false },
      'two files agree as far: the person picks',
    );
  });

  it('a relative path that is a workspace file is that file', () => {
    assert.deepEqual(workspaceMatch('README.md', WORKSPACE), { files: ['README.md'], sure: true });
    assert.deepEqual(workspaceMatch('./src/app.ts', WORKSPACE), { files: ['src/app.ts'], sure: true });
    assert.deepEqual(workspaceMatch('src/nothing.ts', WORKSPACE), { files: [], sure: false });
  });
});

describe('paths from another machine', () => {
  it('held: a name alone is never sure; two trailing segments are', () => {
    for (const path of ['C:/Windows/win.ini', '/server/share/win.ini', '../../win.ini', '/proc/self/environ', 'file:///etc/passwd']) {
      assert.equal(workspaceMatch(path, ['docs/win.ini', 'tools/environ', 'docs/passwd']).sure, false, path);
    }
    // By the rule (two segments tell one file): a UNC path, and /etc/passwd beside a workspace's
    // own etc/passwd, open the workspace's file at once. See the report.
    assert.deepEqual(workspaceMatch('/server/share/a/b.ts', ['a/b.ts', 'c/b.ts']), { files: ['a/b.ts'], sure: true });
    assert.deepEqual(workspaceMatch('/etc/passwd', ['test/etc/passwd']), { files: ['test/etc/passwd'], sure: true });
    assert.deepEqual(
      workspaceMatch('SRC/App.ts', ['src/App.ts', 'src/app.ts']),
      { files: ['src/App.ts'], sure: true },
      'the file of the exact name',
    );
    assert.equal(workspaceMatch('a\\b.ts', ['a/b.ts']).sure, true, 'mixed separators as one');
  });
});
