import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { GitBranchQuery, GitExtension, GitRef, GitRepository } from '../../src/code/gitApi';
import { REF_TYPE_REMOTE_HEAD } from '../../src/code/gitApi';
import { locateInGit } from '../../src/code/gitLocation';
import { extensions, fake, Uri } from './fakeVscode';

const FIRST = 'a'.repeat(40);
const SECOND = 'b'.repeat(40);

/**
 * A repository of the Git extension whose `status()` (a `git status` run) waits until the test
 * lets it end, and may move HEAD meanwhile (a commit made in a terminal); the commits the remote's
 * branch holds are `pushed`.
 */
function repositoryOf(pushed: string[]) {
  let finishStatus: (() => void) | undefined;
  const asked: string[] = [];
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
  const useGit = (pushed: string[]) => {
    repo = repositoryOf(pushed);
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
});
