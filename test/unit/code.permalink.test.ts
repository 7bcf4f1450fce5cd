import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPermalink, parseRemoteUrl, rankRemotes, repoRelativePath, repoWebUrl, type RemoteRepo } from '../../src/code/permalink';

const SHA = '0123456789abcdef0123456789abcdef01234567';

/** The repository's web address, so each case reads as one line. */
function web(url: string): string | undefined {
  const repo = parseRemoteUrl(url);
  return repo && `${repo.kind} ${repoWebUrl(repo)}`;
}

describe('remote URLs', () => {
  it('reads GitHub remotes in HTTPS, SCP-like and ssh:// forms', () => {
    for (const url of [
      'https://github.com/owner/repo.git',
      'https://github.com/owner/repo',
      'https://github.com/owner/repo/',
      'git@github.com:owner/repo.git',
      'ssh://git@github.com/owner/repo',
      'ssh://git@github.com:22/owner/repo.git',
      'git://github.com/owner/repo.git',
      '  https://GitHub.com/owner/repo.git\n',
    ]) {
      assert.equal(web(url), 'github https://github.com/owner/repo', url);
    }
    assert.deepEqual(parseRemoteUrl('git@github.com:owner/repo.git'), {
      kind: 'github',
      webBase: 'https://github.com',
      parts: ['owner', 'repo'],
    });
  });

  it('reads Bitbucket Cloud remotes, with and without a user name', () => {
    assert.equal(web('https://user@bitbucket.org/owner/repo.git'), 'bitbucket https://bitbucket.org/owner/repo');
    assert.equal(web('git@bitbucket.org:owner/repo.git'), 'bitbucket https://bitbucket.org/owner/repo');
  });

  it('reads GitLab remotes with nested groups', () => {
    assert.equal(web('https://gitlab.com/group/subgroup/repo.git'), 'gitlab https://gitlab.com/group/subgroup/repo');
    assert.equal(web('git@gitlab.com:group/subgroup/repo.git'), 'gitlab https://gitlab.com/group/subgroup/repo');
    assert.deepEqual(parseRemoteUrl('git@gitlab.com:group/subgroup/repo.git')?.parts, ['group', 'subgroup', 'repo']);
  });

  it('reads Azure DevOps remotes in every form', () => {
    const repo = 'azure https://dev.azure.com/org/project/_git/repo';
    assert.equal(web('https://dev.azure.com/org/project/_git/repo'), repo);
    assert.equal(web('https://org@dev.azure.com/org/project/_git/repo'), repo);
    assert.equal(web('git@ssh.dev.azure.com:v3/org/project/repo'), repo);
    assert.equal(web('ssh://git@ssh.dev.azure.com/v3/org/project/repo'), repo);
    assert.equal(web('https://dev.azure.com/org/project/_git/_optimized/repo'), repo);
    assert.equal(web('https://dev.azure.com/org/_git/repo'), 'azure https://dev.azure.com/org/_git/repo');
    assert.equal(web('https://org.visualstudio.com/project/_git/repo'), 'azure https://org.visualstudio.com/project/_git/repo');
    assert.equal(
      web('https://org.visualstudio.com/DefaultCollection/project/_git/repo'),
      'azure https://org.visualstudio.com/DefaultCollection/project/_git/repo',
    );
    assert.equal(web('org@vs-ssh.visualstudio.com:v3/org/project/repo'), 'azure https://org.visualstudio.com/project/_git/repo');
  });

  it('keeps spaces in Azure project names decoded in parts and encoded in links', () => {
    const repo = parseRemoteUrl('https://dev.azure.com/org/My%20Project/_git/My%20Repo');
    assert.deepEqual(repo?.parts, ['org', 'My Project', 'My Repo']);
    assert.equal(repo && repoWebUrl(repo), 'https://dev.azure.com/org/My%20Project/_git/My%20Repo');
  });

  it('takes self-hosted hosts by name as a best effort', () => {
    assert.equal(web('git@gitlab.example.com:team/app.git'), 'gitlab https://gitlab.example.com/team/app');
    assert.equal(web('ssh://git@gitlab.example.com:2222/team/app.git'), 'gitlab https://gitlab.example.com/team/app');
    assert.equal(web('https://gitlab.example.com:8443/team/app.git'), 'gitlab https://gitlab.example.com:8443/team/app');
    assert.equal(web('https://github.example.com/org/app.git'), 'github https://github.example.com/org/app');
    assert.equal(web('https://octo.ghe.com/org/app.git'), 'github https://octo.ghe.com/org/app');
    assert.equal(
      web('https://bitbucket.example.com/scm/proj/app.git'),
      'bitbucketServer https://bitbucket.example.com/projects/proj/repos/app',
    );
    assert.equal(
      web('ssh://git@bitbucket.example.com:7999/proj/app.git'),
      'bitbucketServer https://bitbucket.example.com/projects/proj/repos/app',
    );
    assert.equal(web('https://tfs.example.com/tfs/Coll/Proj/_git/app'), 'azure https://tfs.example.com/tfs/Coll/Proj/_git/app');
  });

  it('returns undefined for unsupported hosts and things that are not remotes', () => {
    for (const url of [
      'https://git.example.com/owner/repo.git',
      'git@codeberg.org:owner/repo.git',
      'https://github.com/owner',
      'https://github.com/owner/repo/tree/main',
      'https://dev.azure.com/org',
      'git@ssh.dev.azure.com:v2/org/project/repo',
      '/srv/git/repo.git',
      'C:\\src\\repo',
      'file:///srv/git/github/owner/repo.git',
      'ftp://github.com/owner/repo.git',
      'https://github.com/owner/../repo',
      '',
    ]) {
      assert.equal(parseRemoteUrl(url), undefined, url);
    }
  });

  it('never keeps credentials from the URL', () => {
    const secrets = ['hunter2', 'ghp_SECRETTOKEN', 'p@ss/w:rd', 'user'];
    for (const url of [
      'https://user:hunter2@github.com/owner/repo.git',
      'https://x-access-token:ghp_SECRETTOKEN@github.com/owner/repo.git',
      'https://user:p@ss/w:rd@gitlab.com/group/repo.git',
      'https://user:ghp_SECRETTOKEN@dev.azure.com/org/project/_git/repo',
      'https://user:hunter2@bitbucket.org/owner/repo.git',
    ]) {
      const repo = parseRemoteUrl(url);
      assert.ok(repo, url);
      const out = JSON.stringify(repo) + repoWebUrl(repo) + buildPermalink(repo, SHA, 'a.ts', 1, 2);
      for (const secret of secrets) assert.ok(!out.includes(secret), `${secret} leaked from ${url}: ${out}`);
    }
  });
});

describe('permalinks', () => {
  const github = parseRemoteUrl('git@github.com:o/r.git')!;
  const gitlab = parseRemoteUrl('https://gitlab.com/g/s/r.git')!;
  const bitbucket = parseRemoteUrl('git@bitbucket.org:o/r.git')!;
  const azure = parseRemoteUrl('https://dev.azure.com/org/project/_git/repo')!;
  const server = parseRemoteUrl('https://bitbucket.example.com/scm/proj/r.git')!;

  it('uses each host’s format for a range', () => {
    assert.equal(buildPermalink(github, SHA, 'src/a.ts', 10, 12), `https://github.com/o/r/blob/${SHA}/src/a.ts#L10-L12`);
    assert.equal(buildPermalink(gitlab, SHA, 'src/a.ts', 10, 12), `https://gitlab.com/g/s/r/-/blob/${SHA}/src/a.ts#L10-12`);
    assert.equal(buildPermalink(bitbucket, SHA, 'src/a.ts', 10, 12), `https://bitbucket.org/o/r/src/${SHA}/src/a.ts#lines-10:12`);
    assert.equal(
      buildPermalink(azure, SHA, 'src/a.ts', 10, 12),
      `https://dev.azure.com/org/project/_git/repo?path=/src/a.ts&version=GC${SHA}&line=10&lineEnd=12&lineStartColumn=1&lineEndColumn=10000&lineStyle=plain`,
    );
    assert.equal(
      buildPermalink(server, SHA, 'src/a.ts', 10, 12),
      `https://bitbucket.example.com/projects/proj/repos/r/browse/src/a.ts?at=${SHA}#10-12`,
    );
  });

  it('links a single line without a range', () => {
    assert.equal(buildPermalink(github, SHA, 'a.ts', 7, 7), `https://github.com/o/r/blob/${SHA}/a.ts#L7`);
    assert.equal(buildPermalink(gitlab, SHA, 'a.ts', 7, 7), `https://gitlab.com/g/s/r/-/blob/${SHA}/a.ts#L7`);
    assert.equal(buildPermalink(bitbucket, SHA, 'a.ts', 7, 7), `https://bitbucket.org/o/r/src/${SHA}/a.ts#lines-7`);
    assert.match(buildPermalink(azure, SHA, 'a.ts', 7, 7), /&line=7&lineEnd=7&lineStartColumn=1&lineEndColumn=10000&/);
  });

  it('orders reversed lines', () => {
    assert.equal(buildPermalink(github, SHA, 'a.ts', 12, 10), `https://github.com/o/r/blob/${SHA}/a.ts#L10-L12`);
  });

  it('encodes each path segment: spaces, #, ?, %, parentheses, unicode', () => {
    const path = 'docs/my file#1?.md';
    assert.equal(buildPermalink(github, SHA, path, 1, 1), `https://github.com/o/r/blob/${SHA}/docs/my%20file%231%3F.md#L1`);
    assert.equal(
      buildPermalink(github, SHA, 'src/ünï/日本.ts', 1, 1),
      `https://github.com/o/r/blob/${SHA}/src/%C3%BCn%C3%AF/%E6%97%A5%E6%9C%AC.ts#L1`,
    );
    assert.equal(buildPermalink(github, SHA, '/a/(b)/100%.ts', 1, 1), `https://github.com/o/r/blob/${SHA}/a/%28b%29/100%25.ts#L1`);
    assert.match(buildPermalink(azure, SHA, 'a b/c&d.ts', 1, 2), /\?path=\/a%20b\/c%26d\.ts&version=/);
  });

  it('refuses a commit that is not a hash and lines below 1', () => {
    assert.throws(() => buildPermalink(github, 'main', 'a.ts', 1, 1), RangeError);
    assert.throws(() => buildPermalink(github, `${SHA}/../x`, 'a.ts', 1, 1), RangeError);
    assert.throws(() => buildPermalink(github, SHA, 'a.ts', 0, 1), RangeError);
    assert.throws(() => buildPermalink(github, SHA, 'a.ts', 1.5, 2), RangeError);
  });

  it('builds a link for a hand-made repo value', () => {
    const repo: RemoteRepo = { kind: 'github', webBase: 'https://github.example.com', parts: ['o', 'r'] };
    assert.equal(buildPermalink(repo, SHA.slice(0, 7), 'x', 3, 4), 'https://github.example.com/o/r/blob/0123456/x#L3-L4');
  });
});

describe('repository helpers', () => {
  it('finds the path of a file inside a repository root', () => {
    assert.equal(repoRelativePath('/home/me/repo', '/home/me/repo/src/a.ts'), 'src/a.ts');
    assert.equal(repoRelativePath('/home/me/repo/', '/home/me/repo/a.ts'), 'a.ts');
    assert.equal(repoRelativePath('/c:/Src/Repo', '/C:/src/repo/Lib/A.ts'), 'Lib/A.ts');
    assert.equal(repoRelativePath('/home/me/repo', '/home/me/repo2/a.ts'), undefined);
    assert.equal(repoRelativePath('/home/me/repo', '/home/me/repo'), undefined);
  });

  it('ranks the upstream’s remote first, then origin, then the rest in order', () => {
    assert.deepEqual(rankRemotes(['fork', 'origin', 'upstream', 'origin'], 'upstream'), ['upstream', 'origin', 'fork']);
    assert.deepEqual(rankRemotes(['fork', 'origin']), ['origin', 'fork']);
    assert.deepEqual(rankRemotes(['b', 'a']), ['b', 'a']);
    assert.deepEqual(rankRemotes([]), []);
  });
});
