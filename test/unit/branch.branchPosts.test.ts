import type { SignedIn } from '../../src/accounts/signedIn';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { GitApi, GitRepository } from '../../src/code/gitApi';
import { BranchPosts } from '../../src/branch/branchPosts';
import { CommitMessages } from '../../src/branch/commitMessages';
import { CurrentPostStatus } from '../../src/branch/currentPostStatus';
import { EventEmitter, fake, Uri } from './fakeVscode';
import { memoryState } from './memoryState';

/* A branch started for a post names that post of the account it was started in. */

const ACME = 'https://acme.example.com';
const BETA = 'https://beta.example.com';

/** One repository at `root` on `branch` (its commit box `inputBox`), and the branch's posts followed for a window on ACME. */
function rig(branch: string, root = '/r') {
  const changed = new EventEmitter<void>();
  const head = { type: 0, name: branch, commit: 'c1' };
  const inputBox = { value: '' };
  const repository = {
    rootUri: Uri.file(root),
    state: { HEAD: head, remotes: [], indexChanges: [], workingTreeChanges: [], onDidChange: changed.event },
    inputBox,
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
  const switchTo = (url: string | undefined) => {
    account.url = url;
    accountChanged.fire();
  };
  const checkOut = (name: string) => {
    head.name = name;
    changed.fire();
  };
  return { repository, inputBox, branchPosts, switchTo, checkOut, accountChanged, account, state, head, changed };
}

const settle = (delay = 0) => new Promise((resolve) => setTimeout(resolve, delay));

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

describe('a branch names a post of one account: the commit box, and the records kept', () => {
  beforeEach(() => fake.reset());

  it("the commit box filled on acme's branch is taken back when the window moves to beta", async () => {
    const { repository, inputBox, branchPosts, switchTo } = rig('hd-1275-fix');
    await settle();
    await branchPosts.record(repository, 'hd-1275-fix', ACME);
    const messages = new CommitMessages(branchPosts, 0);
    await settle(5);
    assert.equal(inputBox.value, '#1275: ', 'filled on acme');
    switchTo(BETA);
    await settle();
    assert.equal(branchPosts.postOf(repository), undefined, 'the branch names nothing on beta');
    // CommitMessages keys what it filled by branch, commit and settings, not the account: the box
    // keeps acme's reference in beta's window, and the next commit there cites acme's post.
    assert.equal(inputBox.value, '', "beta's window shows no reference to acme's #1275");
    messages.dispose();
    branchPosts.dispose();
  });

  it('held: 1,000 records at most, the newest kept; roots of any characters; switching back and forth', async () => {
    const { repository, branchPosts, switchTo, state } = rig('hd-1-x');
    switchTo(ACME);
    await settle();
    for (let i = 1; i <= 1005; i++) await branchPosts.record(repository, `hd-${i}-x`, i % 2 ? ACME : BETA);
    const kept = state.get<Record<string, string>>('helpdesk.branchAccounts')!;
    assert.equal(Object.keys(kept).length, 1000);
    assert.ok(!Object.keys(kept).some((key) => key.endsWith('\nhd-1-x')), 'the oldest went');
    switchTo(BETA);
    assert.equal(
      branchPosts.postOf(repository)?.postId,
      1,
      'an evicted record: the branch names its post in any account again, as one made by hand',
    );
    for (let i = 0; i < 50; i++) switchTo(i % 2 ? ACME : BETA);
    const odd = rig('hd-9-x', '/r\nhd-9-x/ %2F\u202e');
    await settle();
    await odd.branchPosts.record(odd.repository, 'hd-9-x', ACME);
    odd.switchTo(BETA);
    assert.equal(odd.branchPosts.postOf(odd.repository), undefined, 'a root of odd characters keeps its record');
    odd.switchTo(ACME);
    assert.equal(odd.branchPosts.postOf(odd.repository)?.postId, 9);
  });
});
