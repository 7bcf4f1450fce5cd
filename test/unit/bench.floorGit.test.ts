// The bench's floor with --bug-floor git (test/bench/fixture/floor/extension.js) asks Git what
// Helpdesk Bridge's Report Bug asks it for the permalink (src/code/gitLocation.ts), no more and
// no less: both run here against one recording Git extension.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { GitBranchQuery, GitExtension, GitRef, GitRepository } from '../../src/code/gitApi';
import { REF_TYPE_REMOTE_HEAD } from '../../src/code/gitApi';
import { locateInGit } from '../../src/code/gitLocation';
import { extensions, fake, Uri } from './fakeVscode';

// Plain JavaScript, bundled with the faked vscode as the modules under test are.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const floor = require('../bench/fixture/floor/extension.js') as { askGit(uri: unknown, text: string): Promise<void> };

const COMMIT = 'c'.repeat(40);
const FILE = '/work/app/src/greeting.ts';
const TEXT = 'export function greeting() {}\n';

interface Options {
  /** HEAD's upstream, and whether HEAD is ahead of it. */
  upstream?: { ahead: number };
  /** The remote branches that hold the commit. */
  remoteBranches?: GitRef[];
  committed?: string;
}

/** A Git extension of one repository that records every call made of it. */
function recordingGit({
  upstream,
  remoteBranches = [{ type: REF_TYPE_REMOTE_HEAD, name: 'origin/main', remote: 'origin' }],
  committed = TEXT,
}: Options) {
  const calls: string[] = [];
  const repository = {
    rootUri: Uri.file('/work/app'),
    state: {
      HEAD: {
        type: 0,
        name: 'main',
        commit: COMMIT,
        ...(upstream ? { upstream: { remote: 'origin', name: 'main' }, ahead: upstream.ahead } : {}),
      },
      remotes: [{ name: 'origin', fetchUrl: 'https://github.com/acme/app.git' }],
      indexChanges: [],
      workingTreeChanges: [],
    },
    status: () => {
      calls.push('status');
      return Promise.resolve();
    },
    show: (ref: string, path: string) => {
      calls.push(`show ${ref === COMMIT ? 'HEAD' : ref} ${path}`);
      return Promise.resolve(committed);
    },
    getBranches: (query: GitBranchQuery) => {
      calls.push(`getBranches ${JSON.stringify({ remote: query.remote, contains: query.contains === COMMIT ? 'HEAD' : query.contains })}`);
      return Promise.resolve(remoteBranches);
    },
  };
  const git: GitExtension = {
    enabled: true,
    getAPI: () => ({
      state: 'initialized',
      repositories: [repository as unknown as GitRepository],
      getRepository: () => {
        calls.push('getRepository');
        return repository as unknown as GitRepository;
      },
    }),
  };
  (extensions as { getExtension: unknown }).getExtension = () => ({ isActive: true, exports: git });
  return calls;
}

describe('the bench floor’s Report Bug with --bug-floor git', () => {
  const getExtension = extensions.getExtension;
  beforeEach(() => fake.reset());
  afterEach(() => ((extensions as { getExtension: unknown }).getExtension = getExtension));

  const callsOf = async (options: Options) => {
    const ours = recordingGit(options);
    const location = await locateInGit(Uri.file(FILE) as never, 2, 3, false, { text: TEXT });
    assert.equal(location.kind, 'permalink', JSON.stringify(location));
    const floors = recordingGit(options);
    await floor.askGit(Uri.file(FILE), TEXT);
    return { ours, floors };
  };

  it("asks Git what ours asks where HEAD has no upstream (the bench's workspace): the file at HEAD and the remote branches holding it", async () => {
    const { ours, floors } = await callsOf({});
    assert.deepEqual(ours.slice().sort(), [`getBranches {"remote":true,"contains":"HEAD"}`, 'getRepository', `show HEAD ${FILE}`]);
    assert.deepEqual(floors.slice().sort(), ours.slice().sort());
  });

  it('asks no remote branches where HEAD is level with its upstream, as ours; and asks them where HEAD is ahead', async () => {
    const level = await callsOf({ upstream: { ahead: 0 } });
    assert.deepEqual(level.ours.slice().sort(), ['getRepository', `show HEAD ${FILE}`]);
    assert.deepEqual(level.floors.slice().sort(), level.ours.slice().sort());
    const ahead = await callsOf({ upstream: { ahead: 1 } });
    assert.equal(ahead.ours.length, 3);
    assert.deepEqual(ahead.floors.slice().sort(), ahead.ours.slice().sort());
  });

  it('fails loudly where Git’s answers would make no permalink, rather than time less than the job', async () => {
    recordingGit({ committed: 'changed\n' });
    await assert.rejects(floor.askGit(Uri.file(FILE), TEXT), /changed since/);
    recordingGit({ remoteBranches: [] });
    await assert.rejects(floor.askGit(Uri.file(FILE), TEXT), /on no remote branch/);
  });
});
