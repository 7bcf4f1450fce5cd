import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildPermalink, parseRemoteUrl, type RemoteRepo } from '../../src/code/permalink';
import { parsePermalink, sameRepository } from '../../src/code/permalinkLocation';

const SHA = '0123456789abcdef0123456789abcdef01234567';

const REMOTES = [
  'https://github.com/owner/repo.git',
  'https://github.example.com/owner/repo.git',
  'https://gitlab.com/group/sub/repo.git',
  'git@bitbucket.org:owner/repo.git',
  'https://bitbucket.example.com/scm/PROJ/repo.git',
  'https://bitbucket.example.com/context/scm/PROJ/repo.git',
  'https://dev.azure.com/org/My%20Project/_git/My%20Repo',
  'https://dev.azure.com/org/_git/repo',
  'https://org.visualstudio.com/project/_git/repo',
];

describe('permalinks read back', () => {
  it('gives the repository, commit, path and lines of every link buildPermalink writes', () => {
    for (const remote of REMOTES) {
      const repo = parseRemoteUrl(remote)!;
      for (const [start, end] of [
        [3, 7],
        [5, 5],
        [9, 2],
      ] as const) {
        const url = buildPermalink(repo, SHA, 'src/dir name/ä (1).ts', start, end);
        assert.deepEqual(
          parsePermalink(url),
          { repository: repo, ref: SHA, path: 'src/dir name/ä (1).ts', startLine: Math.min(start, end), endLine: Math.max(start, end) },
          url,
        );
      }
    }
  });

  it('reads links pasted from the hosts', () => {
    const read = (url: string) => {
      const p = parsePermalink(url);
      return p && `${p.repository.webBase} ${p.repository.parts.join('/')} @${p.ref} ${p.path}:${p.startLine}-${p.endLine}`;
    };
    assert.equal(read('https://github.com/o/r/blob/main/src/a.ts#L3C2-L7C9'), 'https://github.com o/r @main src/a.ts:3-7');
    assert.equal(read('https://GitHub.com/o/r/blob/abc1234/a.ts#L12'), 'https://github.com o/r @abc1234 a.ts:12-12');
    assert.equal(
      read('https://gitlab.example.com/a/b/c/-/blob/abc1234/x/y.go#L4-9'),
      'https://gitlab.example.com a/b/c @abc1234 x/y.go:4-9',
    );
    assert.equal(read('https://bitbucket.org/o/r/src/abc1234/x.py#lines-4:6'), 'https://bitbucket.org o/r @abc1234 x.py:4-6');
    assert.equal(
      read('https://dev.azure.com/o/p/_git/r?path=%2Fsrc%2Fa.cs&version=GBmain&line=8'),
      'https://dev.azure.com o/p/r @main src/a.cs:8-8',
    );
  });

  it('reads nothing from links without lines, to other pages, or broken', () => {
    for (const url of [
      'https://github.com/o/r/blob/abc1234/a.ts',
      'https://github.com/o/r/blob/abc1234/#L3',
      'https://github.com/o/r/tree/abc1234/a.ts#L3',
      'https://github.com/o/r/issues/3#L3',
      'https://github.com/o/blob/abc1234/a.ts#L3',
      'https://github.com/o/r/blob/abc1234/a.ts#L0',
      'https://github.com/o/r/blob/abc1234/a.ts#L3-x',
      'https://github.com/o/r/blob/abc1234/a.ts#L99999999999',
      'https://bitbucket.org/o/r/src/abc1234/x.py#L3',
      'https://dev.azure.com/o/p/_git/r?path=/a.cs&version=GC1234567',
      'https://dev.azure.com/o/p/_git/r?path=/a.cs&line=3',
      'ftp://github.com/o/r/blob/abc1234/a.ts#L3',
      'https://github.com/o/r/blob/abc1234/%E0%A4%A/a.ts#L3',
      'not a url',
    ]) {
      assert.equal(parsePermalink(url), undefined, url);
    }
  });

  it('round-trips any path, lines and repository (property)', () => {
    const segment = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..');
    fc.assert(
      fc.property(
        fc.constantFrom(...REMOTES),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (remote, segments, start, end) => {
          const repo = parseRemoteUrl(remote)!;
          const path = segments.join('/');
          const parsed = parsePermalink(buildPermalink(repo, SHA, path, start, end));
          assert.deepEqual(parsed, { repository: repo, ref: SHA, path, startLine: Math.min(start, end), endLine: Math.max(start, end) });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('same repository', () => {
  const repo = (webBase: string, ...parts: string[]): RemoteRepo => ({ kind: 'github', webBase, parts });
  it('compares the web address and the names without case, and nothing else', () => {
    assert.equal(sameRepository(repo('https://github.com', 'Owner', 'Repo'), parseRemoteUrl('git@github.com:owner/repo.git')!), true);
    assert.equal(sameRepository(repo('https://GitHub.com', 'o', 'r'), { ...repo('https://github.com', 'o', 'r'), kind: 'gitlab' }), true);
    assert.equal(sameRepository(repo('https://github.com', 'o', 'r'), repo('https://github.com', 'o', 'r2')), false);
    assert.equal(sameRepository(repo('https://github.com', 'o', 'r'), repo('https://github.com', 'o', 'r', 'x')), false);
    assert.equal(sameRepository(repo('https://github.com', 'o', 'r'), repo('http://github.com', 'o', 'r')), false);
    assert.equal(sameRepository(repo('https://github.com', 'o/r'), repo('https://github.com', 'o', 'r')), false);
  });
});
