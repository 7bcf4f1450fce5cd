import type { SignedIn } from '../../src/accounts/signedIn';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { GitApi, GitRepository } from '../../src/code/gitApi';
import { BranchPosts } from '../../src/branch/branchPosts';
import { CurrentPostStatus } from '../../src/branch/currentPostStatus';
import { EventEmitter, fake, Uri } from './fakeVscode';
import { memoryState } from './memoryState';

/* A branch started for a post names that post of the account it was started in. */

const ACME = 'https://acme.example.com';
const BETA = 'https://beta.example.com';

function rig(branch: string) {
  const changed = new EventEmitter<void>();
  const head = { type: 0, name: branch, commit: 'c1' };
  const repository = {
    rootUri: Uri.file('/r'),
    state: { HEAD: head, remotes: [], indexChanges: [], workingTreeChanges: [], onDidChange: changed.event },
  } as unknown as GitRepository;
  const api = { repositories: [repository] } as unknown as GitApi;
  const account = { url: ACME as string | undefined };
  const accountChanged = new EventEmitter<void>();
  const state = memoryState();
  const branchPosts = new BranchPosts(Promise.resolve(api), {
    state,
    account: () => account.url,
    onDidChangeAccount: accountChanged.event,
  });
  const switchTo = (url: string) => {
    account.url = url;
    accountChanged.fire();
  };
  const checkOut = (name: string) => {
    head.name = name;
    changed.fire();
  };
  return { repository, branchPosts, switchTo, checkOut, accountChanged, account, state };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a branch names a post of one account', () => {
  beforeEach(() => fake.reset());

  it('a branch started in acme names nothing in a window on beta, and its post again back on acme', async () => {
    const { repository, branchPosts, switchTo } = rig('hd-1275-fix');
    await settle();
    await branchPosts.record(repository, 'hd-1275-fix', ACME);
    const postNow = () => branchPosts.current?.postId;
    assert.equal(postNow(), 1275);
    switchTo(BETA);
    assert.equal(postNow(), undefined, "another account's window: no post");
    switchTo(ACME);
    assert.equal(postNow(), 1275);
  });

  it("the status bar names nothing and nothing is requested in the other account's window", async () => {
    const { repository, branchPosts, switchTo, accountChanged, account } = rig('hd-1275-fix');
    await settle();
    await branchPosts.record(repository, 'hd-1275-fix', ACME);
    const peeked: number[] = [];
    const windowAccount = {
      get current() {
        return account.url ? ({ url: account.url, usable: true } as SignedIn) : undefined;
      },
      onDidChange: accountChanged.event,
    };
    const status = new CurrentPostStatus(branchPosts, windowAccount, (id) => (peeked.push(id), undefined));
    assert.equal(status.shownText?.text, '$(issues) #1275');
    peeked.length = 0;
    switchTo(BETA);
    assert.equal(status.shownText, undefined);
    assert.deepEqual(peeked, [], 'beta is not asked for its post 1275');
    status.dispose();
  });

  it('a branch made by hand (no record) names its post in any account, as before', async () => {
    const { branchPosts, switchTo, checkOut } = rig('hd-7');
    await settle();
    assert.equal(branchPosts.current?.postId, 7);
    switchTo(BETA);
    assert.equal(branchPosts.current?.postId, 7);
    checkOut('hd-8-other');
    assert.equal(branchPosts.current?.postId, 8);
  });

  it('the record is kept for the next window (global state), and bounded', async () => {
    const { repository, branchPosts, state } = rig('hd-1-a');
    await settle();
    for (let i = 0; i < 1200; i++) await branchPosts.record(repository, `hd-${i}-a`, i % 2 ? ACME : BETA);
    const kept = state.get<Record<string, string>>('helpdesk.branchAccounts') ?? {};
    assert.ok(Object.keys(kept).length <= 1000, `${Object.keys(kept).length} kept`);
    const next = new BranchPosts(Promise.resolve({ repositories: [repository] } as unknown as GitApi), { state, account: () => ACME });
    await settle();
    (repository.state.HEAD as { name: string }).name = 'hd-1199-a';
    assert.equal(next.postOf(repository)?.postId, 1199);
    (repository.state.HEAD as { name: string }).name = 'hd-1198-a';
    assert.equal(next.postOf(repository), undefined, 'started in beta');
  });
});
