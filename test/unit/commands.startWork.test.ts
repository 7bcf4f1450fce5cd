import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { REF_TYPE_HEAD, REF_TYPE_REMOTE_HEAD, type GitBranchQuery, type GitRef, type GitRepository } from '../../src/code/gitApi';
import { branchNameCheck, startWorkOn } from '../../src/commands/startWork';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { fake, InputBoxValidationSeverity, Uri } from './fakeVscode';

/**
 * A repository as the Git extension shows it: refs by full name. Its `getBranch` is the
 * extension's: `git for-each-ref refs/heads/NAME refs/remotes/NAME` (a pattern matches its refs
 * and those under it as a folder), and a name that starts with `refs/` taken as a full one.
 */
function gitRepository(refs: string[], remotes: string[] = []) {
  const calls: string[] = [];
  const all = () => refs.map((full) => ({ full, ref: refOf(full) }));
  const matches = (full: string, pattern: string) => full === pattern || full.startsWith(`${pattern}/`);
  const repo = {
    rootUri: Uri.file('/r'),
    state: {
      HEAD: { type: REF_TYPE_HEAD, name: 'main', commit: 'c0' },
      remotes: remotes.map((name) => ({ name })),
      indexChanges: [],
      workingTreeChanges: [],
    },
    getBranch(name: string) {
      const patterns = name.startsWith('refs/') ? [name] : [`refs/heads/${name}`, `refs/remotes/${name}`];
      const found = all().find(({ full }) => patterns.some((p) => matches(full, p)));
      return found ? Promise.resolve(found.ref) : Promise.reject(new Error(`No such branch: ${name}`));
    },
    getRefs(query: GitBranchQuery) {
      const patterns = query.pattern === undefined ? undefined : typeof query.pattern === 'string' ? [query.pattern] : query.pattern;
      return Promise.resolve(
        all()
          .filter(({ full }) => !patterns || patterns.some((p) => matches(full, p)))
          .map(({ ref }) => ref),
      );
    },
    checkout(treeish: string) {
      calls.push(`checkout ${treeish}`);
      return Promise.resolve();
    },
    createBranch(name: string, checkout: boolean, ref?: string) {
      calls.push(`${checkout ? 'checkout -b' : 'branch'} ${name}${ref ? ` ${ref}` : ''}`);
      return Promise.resolve();
    },
    setBranchUpstream(name: string, upstream: string) {
      calls.push(`upstream ${name} ${upstream}`);
      return Promise.resolve();
    },
  };
  return { repository: repo as unknown as GitRepository, calls };
}

function refOf(full: string): GitRef {
  if (full.startsWith('refs/heads/')) return { type: REF_TYPE_HEAD, name: full.slice('refs/heads/'.length), commit: 'c1' };
  const name = full.slice('refs/remotes/'.length);
  return { type: REF_TYPE_REMOTE_HEAD, name, remote: name.split('/')[0], commit: 'c2' };
}

const post = { id: 5, title: 'Fix' } as Post;
const services = () => {
  const log = new Log();
  return { log, ui: new Notifier(log) };
};

describe('Start Work decides that a branch exists by its exact name', () => {
  beforeEach(() => fake.reset());

  it('hd-5 with only hd-5/old: created, not "exists already"', async () => {
    const { repository, calls } = gitRepository(['refs/heads/main', 'refs/heads/hd-5/old']);
    assert.deepEqual(await startWorkOn(services(), post, repository, 'hd-5'), { branch: 'hd-5', created: true });
    assert.deepEqual(calls, ['checkout -b hd-5']);
    assert.deepEqual(
      fake.messages.filter((m) => m.modal),
      [],
      'nothing asked',
    );
  });

  it('hd-6-x with only origin/hd-6-x/wip: created from HEAD, not "exists on the remote"', async () => {
    const { repository, calls } = gitRepository(['refs/heads/main', 'refs/remotes/origin/hd-6-x/wip'], ['origin']);
    assert.deepEqual(await startWorkOn(services(), post, repository, 'hd-6-x'), { branch: 'hd-6-x', created: true });
    assert.deepEqual(calls, ['checkout -b hd-6-x']);
  });

  it('refs/heads/feature typed as a name, with a branch feature: made as Git makes it (refs/heads/refs/heads/feature), and said so', async () => {
    const { repository, calls } = gitRepository(['refs/heads/main', 'refs/heads/feature']);
    assert.deepEqual(await startWorkOn(services(), post, repository, 'refs/heads/feature'), {
      branch: 'refs/heads/feature',
      created: true,
    });
    assert.deepEqual(calls, ['checkout -b refs/heads/feature']);
    assert.match(fake.messages.at(-1)?.text ?? '', /on branch refs\/heads\/feature \(in full refs\/heads\/refs\/heads\/feature\)/);
    for (const typed of ['refs/remotes/origin/hd-5', 'refs/tags/v1']) {
      calls.length = 0;
      assert.deepEqual(await startWorkOn(services(), post, repository, typed), { branch: typed, created: true });
      assert.deepEqual(calls, [`checkout -b ${typed}`]);
    }
  });

  it('the name box says, as it is typed, what Git makes of a full ref, and lets it through as Git does', () => {
    assert.deepEqual(branchNameCheck(' refs/heads/feature '), {
      message:
        'Git makes this a branch named refs/heads/feature, in full refs/heads/refs/heads/feature. Enter makes it so; for a branch named feature, type feature.',
      severity: InputBoxValidationSeverity.Warning,
    });
    assert.equal(branchNameCheck('feature'), undefined);
    for (const refused of ['refs/heads/', 'a..b']) {
      const check = branchNameCheck(refused);
      assert.ok(typeof check === 'string' && check.startsWith('Git does not take this name'), refused);
    }
  });

  it('an existing branch of exactly that name, and a remote branch of exactly that name, are still asked about', async () => {
    const existing = gitRepository(['refs/heads/main', 'refs/heads/hd-5']);
    fake.answers.push('Check Out');
    assert.deepEqual(await startWorkOn(services(), post, existing.repository, 'hd-5'), { branch: 'hd-5', created: false });
    assert.deepEqual(existing.calls, ['checkout hd-5']);
    const remote = gitRepository(['refs/heads/main', 'refs/remotes/origin/hd-6'], ['origin']);
    fake.answers.push('Check Out');
    assert.deepEqual(await startWorkOn(services(), post, remote.repository, 'hd-6'), { branch: 'hd-6', created: true });
    assert.deepEqual(remote.calls, ['checkout -b hd-6 origin/hd-6', 'upstream hd-6 origin/hd-6']);
    assert.equal(
      await startWorkOn(services(), post, remote.repository, 'origin/hd-6'),
      undefined,
      'a remote branch typed by its name is refused',
    );
    assert.match(fake.messages.at(-1)?.text ?? '', /is a branch of a remote/);
  });
});

describe('Start Work records the account the branch names a post of', () => {
  beforeEach(() => fake.reset());

  it('the branch made, or checked out, is recorded for the account it was started in', async () => {
    const recorded: string[] = [];
    const branchPosts = {
      record: (_r: GitRepository, branch: string, url: string) => (recorded.push(`${branch} ${url}`), Promise.resolve()),
    };
    const made = gitRepository(['refs/heads/main']);
    await startWorkOn({ ...services(), branchPosts } as never, post, made.repository, 'hd-5-fix', 'https://acme.example.com');
    const existing = gitRepository(['refs/heads/main', 'refs/heads/hd-5']);
    fake.answers.push('Check Out');
    await startWorkOn({ ...services(), branchPosts } as never, post, existing.repository, 'hd-5', 'https://acme.example.com');
    fake.answers.push(undefined);
    await startWorkOn({ ...services(), branchPosts } as never, post, existing.repository, 'hd-5', 'https://beta.example.com');
    assert.deepEqual(
      recorded,
      ['hd-5-fix https://acme.example.com', 'hd-5 https://acme.example.com'],
      'nothing recorded when nothing was done',
    );
  });
});

describe("Start Work's exact refs", () => {
  beforeEach(() => fake.reset());

  const refOf = (full: string): GitRef =>
    full.startsWith('refs/heads/')
      ? { type: REF_TYPE_HEAD, name: full.slice(11), commit: 'c1' }
      : { type: REF_TYPE_REMOTE_HEAD, name: full.slice(13), remote: full.slice(13).split('/')[0], commit: 'c2' };
  const repo = (refs: string[], remotes: string[]) => {
    const calls: string[] = [];
    const repository = {
      rootUri: Uri.file('/r'),
      state: {
        HEAD: { type: REF_TYPE_HEAD, name: 'main', commit: 'c0' },
        remotes: remotes.map((name) => ({ name })),
        indexChanges: [],
        workingTreeChanges: [],
      },
      getRefs: ({ pattern }: { pattern?: string | string[] }) =>
        Promise.resolve(refs.filter((full) => [pattern ?? []].flat().some((p) => full === p || full.startsWith(`${p}/`))).map(refOf)),
      checkout: (ref: string) => (calls.push(`checkout ${ref}`), Promise.resolve()),
      createBranch: (name: string, checkout: boolean, ref?: string) => (
        calls.push(`${checkout ? 'checkout -b' : 'branch'} ${name}${ref ? ` ${ref}` : ''}`),
        Promise.resolve()
      ),
      setBranchUpstream: () => Promise.resolve(),
    } as unknown as GitRepository;
    return { repository, calls };
  };
  const services = () => {
    const log = new Log();
    return { log, ui: new Notifier(log) };
  };
  const post = { id: 5, title: 'Fix' } as Post;

  it('origin/HEAD typed as a name is not answered with "e.g. HEAD", a name Git refuses', async () => {
    const { repository, calls } = repo(['refs/heads/main', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main'], ['origin']);
    assert.equal(await startWorkOn(services(), post, repository, 'origin/HEAD'), undefined);
    assert.deepEqual(calls, []);
    const told = fake.messages.at(-1)?.text ?? '';
    assert.ok(!/e\.g\. HEAD\b/.test(told), told);
  });

  it('held: HEAD refused; a remote named like the branch does not make it "exist"', async () => {
    const { repository, calls } = repo(['refs/heads/main', 'refs/remotes/hd-5/main'], ['origin', 'hd-5']);
    await assert.rejects(startWorkOn(services(), post, repository, 'HEAD'), /is "HEAD"/);
    assert.deepEqual(await startWorkOn(services(), post, repository, 'hd-5'), { branch: 'hd-5', created: true });
    assert.deepEqual(calls, ['checkout -b hd-5']);
  });
});
