import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { GitBranchQuery, GitExtension, GitRef, GitRepository } from '../../src/code/gitApi';
import { REF_TYPE_REMOTE_HEAD } from '../../src/code/gitApi';
import type { CodeLocation } from '../../src/code/bugReport';
import { locateInGit } from '../../src/code/gitLocation';
import { extensions, fake, Uri } from './fakeVscode';

const FIRST = 'a'.repeat(40);
const SECOND = 'b'.repeat(40);

/**
 * A repository of the Git extension whose `status()` (a `git status` run) waits until the test
 * lets it end, and may move HEAD meanwhile (a commit made in a terminal); the commits the remote's
 * branch holds are `pushed`.
 */
function repositoryOf(pushed: string[], committed: Record<string, string> = {}) {
  let finishStatus: (() => void) | undefined;
  const asked: string[] = [];
  const shown: string[] = [];
  const state = {
    HEAD: { type: 0, name: 'main', commit: FIRST },
    remotes: [{ name: 'origin', fetchUrl: 'https://github.com/acme/app.git' }],
    indexChanges: [],
    workingTreeChanges: [],
  };
  const repository = {
    rootUri: Uri.file('/work/app'),
    state,
    status: () => new Promise<void>((resolve) => (finishStatus = resolve)),
    /** The file's text at a commit: `committed[commit:path]`, else no such file there. */
    show: (ref: string, path: string): Promise<string> => {
      shown.push(`${ref.slice(0, 1)}:${path}`);
      const text = committed[`${ref}:${path}`];
      return text === undefined
        ? Promise.reject(new Error(`fatal: path '${path}' exists on disk, but not in '${ref}'`))
        : Promise.resolve(text);
    },
    getBranches: (query: GitBranchQuery): Promise<GitRef[]> => {
      asked.push(query.contains ?? '');
      return Promise.resolve(
        pushed.includes(query.contains ?? '') ? [{ type: REF_TYPE_REMOTE_HEAD, name: 'origin/main', remote: 'origin' }] : [],
      );
    },
  };
  return {
    repository: repository as unknown as GitRepository,
    asked,
    shown,
    statusRunning: () => finishStatus !== undefined,
    endStatus: (headNow = state.HEAD.commit) => {
      state.HEAD = { ...state.HEAD, commit: headNow };
      finishStatus?.();
    },
  };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('locateInGit', () => {
  const getExtension = extensions.getExtension;
  let repo: ReturnType<typeof repositoryOf>;
  const useGit = (pushed: string[], committed?: Record<string, string>) => {
    repo = repositoryOf(pushed, committed);
    const git: GitExtension = { enabled: true, getAPI: () => ({ state: 'initialized', repositories: [repo.repository] }) };
    (extensions as { getExtension: unknown }).getExtension = () => ({ isActive: true, exports: git });
  };
  beforeEach(() => fake.reset());
  afterEach(() => ((extensions as { getExtension: unknown }).getExtension = getExtension));

  it('asks which remote branches hold HEAD while `git status` runs, not after it, and once when HEAD stayed', async () => {
    useGit([FIRST]);
    const located = locateInGit(Uri.file('/work/app/src/a.ts') as never, 2, 3, false);
    await turns();
    assert.equal(repo.statusRunning(), true);
    assert.deepEqual(repo.asked, [FIRST], 'asked with status still running');
    repo.endStatus();
    const location = await located;
    assert.equal(location.kind, 'permalink');
    assert.match((location as { url: string }).url, new RegExp(`/blob/${FIRST}/src/a\\.ts#L2-L3$`));
    assert.deepEqual(repo.asked, [FIRST], 'not asked again');
  });

  it('HEAD moved while `git status` ran: asked again for the commit it is now, and the link is at that commit', async () => {
    useGit([FIRST]);
    const unpushed = locateInGit(Uri.file('/work/app/src/a.ts') as never, 2, 3, false);
    await turns();
    repo.endStatus(SECOND);
    const location = await unpushed;
    assert.deepEqual(repo.asked, [FIRST, SECOND]);
    assert.equal(location.kind, 'local', 'the new commit is on no remote branch');
    assert.match((location as { reason: string }).reason, /bbbbbbb is not on any remote branch/);

    useGit([FIRST, SECOND]);
    const pushed = locateInGit(Uri.file('/work/app/src/a.ts') as never, 2, 3, false);
    await turns();
    repo.endStatus(SECOND);
    assert.match(((await pushed) as { url: string }).url, new RegExp(`/blob/${SECOND}/`));
  });

  const FILE = '/work/app/src/a.ts';
  const TEXT = 'export const a = 1;\nexport const b = 2;\n';
  /** The answer, or 'still waiting' once the turns a fake Git's answers take have passed (its `git status` never ends unless told). */
  const answerOf = async (located: Promise<unknown>) => Promise.race([located, turns(10).then(() => 'still waiting')]);

  it('a file as the commit has it: the link at once, `git status` not waited for', async () => {
    useGit([FIRST], { [`${FIRST}:${FILE}`]: TEXT });
    const location = (await answerOf(locateInGit(Uri.file(FILE) as never, 2, 3, false, { text: TEXT }))) as CodeLocation;
    assert.equal(location.kind, 'permalink', JSON.stringify(location));
    assert.match((location as { url: string }).url, new RegExp(`/blob/${FIRST}/src/a\\.ts#L2-L3$`));
    assert.equal(repo.statusRunning(), false, 'no git status');
    assert.deepEqual(repo.shown, [`a:${FILE}`], 'one git show');
    assert.deepEqual(repo.asked, [FIRST], 'the remote branches asked once, beside it');
  });

  it('a file saved since the commit, which Git’s state does not know yet: local, as changed, without `git status`', async () => {
    useGit([FIRST], { [`${FIRST}:${FILE}`]: TEXT });
    const location = await answerOf(locateInGit(Uri.file(FILE) as never, 2, 3, false, { text: TEXT.replace('2', '3') }));
    assert.deepEqual(location, { kind: 'local', reason: 'the file has uncommitted changes' });
    assert.equal(repo.statusRunning(), false);
  });

  it('CRLF on disk where Git keeps LF, and a byte order mark: the same file', async () => {
    useGit([FIRST], { [`${FIRST}:${FILE}`]: `\uFEFF${TEXT}` });
    const location = (await answerOf(
      locateInGit(Uri.file(FILE) as never, 2, 3, false, { text: TEXT.replace(/\n/g, '\r\n') }),
    )) as CodeLocation;
    assert.equal(location.kind, 'permalink', JSON.stringify(location));
  });

  it('a file the commit does not have: `git status` tells why (not committed yet)', async () => {
    useGit([FIRST]);
    const located = locateInGit(Uri.file(FILE) as never, 2, 3, false, { text: TEXT });
    await turns();
    assert.equal(repo.statusRunning(), true, 'status asked where git show could not tell');
    (repo.repository.state as { untrackedChanges?: unknown[] }).untrackedChanges = [{ uri: Uri.file(FILE), status: 7 }];
    repo.endStatus();
    assert.deepEqual(await located, { kind: 'local', reason: 'the file is not committed yet' });
  });
});
