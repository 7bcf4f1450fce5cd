import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Post } from '../../src/api';
import { AccountUrlError, parseAccountUrl } from '../../src/api/address';
import { MAX_TEMPLATE_CHARS } from '../../src/settings';
import { branchNameProblem, postIdOfBranch, proposeBranchName } from '../../src/branch/branchNames';
import { REF_TYPE_HEAD, REF_TYPE_REMOTE_HEAD, type GitApi, type GitRef, type GitRepository } from '../../src/code/gitApi';
import { workspaceMatch } from '../../src/code/workspaceFiles';
import { startWorkOn } from '../../src/commands/startWork';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { BranchPosts } from '../../src/branch/branchPosts';
import { CommitMessages } from '../../src/branch/commitMessages';
import { EventEmitter, fake, Uri } from './fakeVscode';
import { memoryState } from './memoryState';

/*
 * A review of issue 34's edges: what a repository, another machine or the address box can bring.
 * The failing tests are defects; the others document what held.
 */

const ms = (work: () => unknown): number => {
  const start = performance.now();
  work();
  return performance.now() - start;
};

const problemOf = (input: string): string => {
  try {
    parseAccountUrl(input);
    return 'accepted';
  } catch (error) {
    return error instanceof AccountUrlError ? error.problem : `threw ${String(error)}`;
  }
};

describe('review: the address box', () => {
  it('a pasted address with a long run of slashes in its path is read in linear time', () => {
    // url.pathname.replace(/\/+$/, '') backtracks over the whole run at each slash: quadratic.
    const input = `https://acme.sugester.com/${'/'.repeat(50_000)}x`;
    const took = ms(() => parseAccountUrl(input));
    assert.ok(took < 200, `${took.toFixed(0)} ms for 50,000 slashes`);
  });

  it('a trailing dot names the same account as the address without it', () => {
    // Stored as is, `https://acme.sugester.com.` is a second account (tokens, news files, branch
    // records keyed apart) for the same helpdesk, and its Host header is one servers may refuse.
    assert.equal(parseAccountUrl('https://acme.sugester.com.'), parseAccountUrl('https://acme.sugester.com'));
  });

  it('held: upper-case schemes, IPv6 loopback, IDN hosts, credentials, ports, 1 MB', () => {
    assert.equal(parseAccountUrl('HTTPS://ACME.sugester.com'), 'https://acme.sugester.com');
    assert.equal(parseAccountUrl('http://[::1]:8080'), 'http://[::1]:8080');
    assert.equal(parseAccountUrl('https://bücher.example'), 'https://xn--bcher-kva.example');
    for (const input of ['https://user:pass@acme.com', 'user:s3cret@acme.com', 'https://:s3cret@acme.com']) {
      try {
        parseAccountUrl(input);
        assert.fail(`accepted ${input}`);
      } catch (error) {
        assert.ok(error instanceof AccountUrlError && error.problem === 'credentials', String(error));
        assert.ok(!/pass|s3cret/.test(error.message), 'the password is not in the message');
      }
    }
    assert.equal(problemOf('https://acme.com:99999'), 'notAddress');
    assert.equal(problemOf('https//acme.sugester.com'), 'schemeTypo');
    assert.equal(problemOf('http://[::ffff:127.0.0.1]'), 'plainHttp');
    for (const input of [
      'a'.repeat(1_000_000),
      `https://${'a'.repeat(1_000_000)}`,
      `https://acme.com/?${'x'.repeat(1_000_000)}`,
      `https://acme.com/${'a/'.repeat(500_000)}`,
    ]) {
      const took = ms(() => problemOf(input));
      assert.ok(took < 200, `${took.toFixed(0)} ms`);
    }
  });
});

/** Templates as a cloned repository's settings may hold them, within the setting's bound. */
const templateText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{id}',
        '{title}',
        '{ID}',
        '{id',
        '-',
        '.',
        '/',
        '_',
        '..',
        '.lock',
        ' ',
        '@{',
        'hd',
        '0',
        '1',
        'İ',
        'ß',
        '\u212A',
        '\uE000',
        '\uE001',
      ),
      fc.string({ maxLength: 4, unit: 'grapheme' }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join('').slice(0, MAX_TEMPLATE_CHARS));
const titleText = fc.oneof(
  fc.string({ maxLength: 80, unit: 'grapheme' }),
  fc.constantFrom('', '-', '2024 outage', '日本語 タイトル', 'İstanbul', '.lock', 'a'.repeat(300)),
);
const postId = fc.oneof(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 1, max: 999_999_999_999_999 }));

describe("review: branch names from a repository's template", () => {
  it('every name proposed from a template the setting takes is a branch name Git takes, and reads back to its post', () => {
    fc.assert(
      fc.property(templateText, titleText, postId, (template, title, id) => {
        const name = proposeBranchName(template, { id, title });
        assert.equal(branchNameProblem(name), undefined, name);
        // Git keeps a branch in a file per part: a part over 255 bytes is "File name too long".
        for (const part of name.split('/')) assert.ok(Buffer.byteLength(part) <= 255, `part of ${Buffer.byteLength(part)} bytes`);
        assert.equal(postIdOfBranch(name, { template }), id, `${JSON.stringify(template)} → ${name}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('a 200-character template of ids makes a name that names no post (the example the property finds)', () => {
    const template = '{id}-'.repeat(40);
    assert.equal(template.length, MAX_TEMPLATE_CHARS);
    const name = proposeBranchName(template, { id: 100_000, title: 'x' });
    assert.equal(postIdOfBranch(name, { template }), 100_000, `${name.length} characters`);
  });

  it('a template holding the private-use character the title is marked with reads back to another post', () => {
    // skeleton() marks {title} with U+E001 and {id} with U+E000, and never takes them out of the
    // template itself: '\uE001{id}' glues the title to the id, and the name reads as post #1.
    const template = '\uE001{id}';
    const name = proposeBranchName(template, { id: 11, title: '日本語 タイトル' });
    assert.equal(postIdOfBranch(name, { template }), 11, name);
  });

  it('held: {id} next to digits reads back; 1 MB templates of most shapes are linear', () => {
    for (const [template, id] of [
      ['1{id}', 7],
      ['{id}0', 5],
      ['{id}{id}', 12],
      ['0{id}1{title}', 30],
      ['{title}{id}', 4],
    ] as const) {
      const name = proposeBranchName(template, { id, title: '2024 outage' });
      assert.equal(postIdOfBranch(name, { template }), id, name);
    }
    for (const template of [
      'a' + '.-'.repeat(500_000) + 'x{id}',
      '{title}'.repeat(150_000),
      `{id}${'.lock'.repeat(200_000)}`,
      `x{id}${'-'.repeat(1e6)}{title}`,
      `{title}${'a.'.repeat(500_000)}{id}`,
    ]) {
      const took = ms(() => postIdOfBranch(proposeBranchName(template, { id: 7, title: 't' }), { template }));
      assert.ok(took < 300, `${took.toFixed(0)} ms`);
    }
  });
});

const ACME = 'https://acme.example.com';
const BETA = 'https://beta.example.com';

function branchRig(branch: string, root = '/r') {
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
  return { repository, inputBox, branchPosts, switchTo, state, head, changed };
}
const settle = (delay = 0) => new Promise((resolve) => setTimeout(resolve, delay));

describe('review: a branch names a post of one account', () => {
  beforeEach(() => fake.reset());

  it("the commit box filled on acme's branch is taken back when the window moves to beta", async () => {
    const { repository, inputBox, branchPosts, switchTo } = branchRig('hd-1275-fix');
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
    const { repository, branchPosts, switchTo, state } = branchRig('hd-1-x');
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
    const odd = branchRig('hd-9-x', '/r\nhd-9-x/ %2F\u202e');
    await settle();
    await odd.branchPosts.record(odd.repository, 'hd-9-x', ACME);
    odd.switchTo(BETA);
    assert.equal(odd.branchPosts.postOf(odd.repository), undefined, 'a root of odd characters keeps its record');
    odd.switchTo(ACME);
    assert.equal(odd.branchPosts.postOf(odd.repository)?.postId, 9);
  });
});

describe("review: Start Work's exact refs", () => {
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

describe('review: paths from another machine', () => {
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
