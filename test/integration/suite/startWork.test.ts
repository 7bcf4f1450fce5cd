import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import { acceptBoxesUntil, createPost, extensionApi, logShows, settled, useCleanSlate, waitFor } from './helpers';

interface Repository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly HEAD?: { readonly name?: string; readonly commit?: string };
    readonly workingTreeChanges: readonly unknown[];
    readonly untrackedChanges?: readonly unknown[];
  };
  readonly inputBox: { value: string };
  status(): Promise<void>;
}

interface GitApi {
  readonly repositories: readonly Repository[];
  openRepository(root: vscode.Uri): Promise<Repository | null>;
}

async function gitApi(): Promise<GitApi> {
  return (await vscode.extensions.getExtension<{ getAPI(v: 1): GitApi }>('vscode.git')!.activate()).getAPI(1);
}

/**
 * A repository made for one test, with a commit on `main`, opened in the Git extension. In the
 * workspace (the Git extension opens no repository outside it without asking), in a folder the
 * workspace's own repository ignores.
 */
async function makeRepository(): Promise<{ dir: string; repository: Repository; git: (...args: string[]) => string; head: () => string }> {
  const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const exclude = join(workspace, '.git', 'info', 'exclude');
  if (!existsSync(exclude) || !readFileSync(exclude, 'utf8').includes('/.repos/')) {
    mkdirSync(dirname(exclude), { recursive: true });
    appendFileSync(exclude, '\n/.repos/\n');
  }
  mkdirSync(join(workspace, '.repos'), { recursive: true });
  const dir = mkdtempSync(join(workspace, '.repos', 'r-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'app.txt'), 'one\ntwo\n');
  git('add', '.');
  git('commit', '-q', '-m', 'First');
  const repository = await (await gitApi()).openRepository(vscode.Uri.file(dir));
  assert.ok(repository, 'the Git extension opened the repository');
  made.push({ git, repository });
  return { dir, repository, git, head: () => git('rev-parse', '--abbrev-ref', 'HEAD') };
}

/**
 * After a change made with git itself: the Git extension reads the repository again, and its state
 * events fire. (It does so on its own when its files change, but only while the window is focused
 * and at most every few seconds: the test asks it now, as its file watcher would.)
 */
async function gitSees(repository: Repository): Promise<void> {
  await repository.status();
}

const made: { git: (...args: string[]) => string; repository: Repository }[] = [];

const postTitled = (title: string, content = 'x'): Promise<Post> => createPost({ title, content });

function gitTakes(name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const config = () => vscode.workspace.getConfiguration('helpdesk');

describe('Start Work on Post', () => {
  before(() => config().update('referencePrefix', 'HD-', vscode.ConfigurationTarget.Global));
  after(async () => {
    await config().update('referencePrefix', undefined, vscode.ConfigurationTarget.Global);
    // Back on main, so that no repository of these tests names a post for the tests after.
    for (const { git } of made) git('checkout', '-q', '-f', 'main');
  });

  useCleanSlate();

  // The repositories this test made back on main (those of the tests before it already are).
  let reset = 0;
  afterEach(async () => {
    for (const { git, repository } of made.slice(reset)) {
      git('checkout', '-q', '-f', 'main');
      await gitSees(repository);
    }
    reset = made.length;
  });

  it('proposes a name Git takes for a hostile title, then creates the branch from HEAD and checks it out', async () => {
    const api = await extensionApi();
    const { repository, git, head } = await makeRepository();
    const post = await postTitled(`Fix: a/b..c @{u} ~^:?*[ \\ 😱 .lock ${'word '.repeat(70)}`);
    const outcome = await api.actions.startWork({ postId: post.id, root: repository.rootUri });
    assert.ok(outcome, 'started');
    assert.equal(outcome.created, true);
    assert.match(outcome.branch, new RegExp(`^hd-${post.id}-fix-a-b-c-u-lock-word-`));
    assert.ok(outcome.branch.length <= `hd-${post.id}-`.length + 50, `at most 50 characters of title: ${outcome.branch}`);
    assert.ok(gitTakes(outcome.branch), `git takes ${outcome.branch}`);
    assert.equal(head(), outcome.branch, 'checked out');
    assert.equal(git('rev-parse', outcome.branch), git('rev-parse', 'main'), 'made from HEAD');
  });

  it('an existing branch of that name is checked out only after asking', async () => {
    const api = await extensionApi();
    const { repository, git, head } = await makeRepository();
    const post = await postTitled('Existing');
    git('branch', `hd-${post.id}-existing`);
    api.ui.answerNextQuestion(undefined);
    assert.equal(await api.actions.startWork({ postId: post.id, root: repository.rootUri }), undefined, 'dismissed: nothing done');
    assert.equal(head(), 'main');
    api.ui.answerNextQuestion('Check Out');
    assert.deepEqual(await api.actions.startWork({ postId: post.id, root: repository.rootUri }), {
      branch: `hd-${post.id}-existing`,
      created: false,
    });
    assert.equal(head(), `hd-${post.id}-existing`);
  });

  it("a branch of that name on the remote is checked out following it, after asking; a remote's name typed is refused", async () => {
    const api = await extensionApi();
    const { repository, git, head } = await makeRepository();
    const post = await postTitled('Pushed by a colleague');
    const name = `hd-${post.id}-pushed`;
    git('remote', 'add', 'origin', 'https://github.com/example/other.git');
    git('commit', '-q', '--allow-empty', '-m', 'Theirs');
    git('update-ref', `refs/remotes/origin/${name}`, 'HEAD');
    git('reset', '-q', '--hard', 'HEAD~1');
    await gitSees(repository);

    api.ui.answerNextQuestion('Check Out');
    assert.deepEqual(await api.actions.startWork({ postId: post.id, root: repository.rootUri, name }), { branch: name, created: true });
    assert.equal(head(), name);
    assert.equal(git('rev-parse', '--abbrev-ref', `${name}@{upstream}`), `origin/${name}`, 'follows the remote branch');
    assert.equal(git('rev-parse', 'HEAD'), git('rev-parse', `origin/${name}`), "at the remote branch's commit");

    git('checkout', '-q', 'main');
    await gitSees(repository);
    assert.equal(await api.actions.startWork({ postId: post.id, root: repository.rootUri, name: `origin/${name}` }), undefined);
    assert.equal(head(), 'main', 'no detached HEAD');
    await logShows(api, /is a branch of a remote/);
  });

  it("a branch exists only by its exact name: hd-N beside hd-N/old, a remote's hd-N-x/wip, refs/heads/… typed", async () => {
    const api = await extensionApi();
    const { repository, git, head } = await makeRepository();
    const post = await postTitled('Exact names');
    const folder = `hd-${post.id}`;
    git('branch', `${folder}/old`);
    git('remote', 'add', 'origin', 'https://github.com/example/other.git');
    git('update-ref', `refs/remotes/origin/${folder}-x/wip`, 'HEAD');
    git('branch', 'feature');
    await gitSees(repository);

    // Git itself refuses hd-N beside hd-N/old (a ref cannot be a file and a folder): said in words, not "exists already".
    assert.equal(await api.actions.startWork({ postId: post.id, root: repository.rootUri, name: folder }), undefined);
    assert.equal(head(), 'main');
    await logShows(api, new RegExp(`Git did not create ${folder}`));

    assert.deepEqual(
      await api.actions.startWork({ postId: post.id, root: repository.rootUri, name: `${folder}-x` }),
      { branch: `${folder}-x`, created: true },
      'made from HEAD, nothing asked',
    );
    assert.equal(head(), `${folder}-x`);
    assert.equal(git('rev-parse', `${folder}-x`), git('rev-parse', 'main'));

    // refs/heads/feature typed: Git takes it as a branch of that very name, refs/heads/refs/heads/feature, beside feature; so does Start Work, and says so.
    git('checkout', '-q', 'main');
    await gitSees(repository);
    assert.deepEqual(await api.actions.startWork({ postId: post.id, root: repository.rootUri, name: 'refs/heads/feature' }), {
      branch: 'refs/heads/feature',
      created: true,
    });
    assert.equal(git('symbolic-ref', 'HEAD'), 'refs/heads/refs/heads/feature', 'HEAD on the branch Git made, not detached');
    assert.equal(git('rev-parse', 'feature'), git('rev-parse', 'main'), 'the branch feature as it was');
    await logShows(api, /on branch refs\/heads\/feature \(in full refs\/heads\/refs\/heads\/feature\)/);
  });

  it('uncommitted changes go along; a checkout that would overwrite them is refused, said in words, and nothing moves', async () => {
    const api = await extensionApi();
    const { dir, repository, git, head } = await makeRepository();
    const post = await postTitled('Dirty tree');
    writeFileSync(join(dir, 'app.txt'), 'one\ntwo\nmine\n');
    const outcome = await api.actions.startWork({ postId: post.id, root: repository.rootUri });
    assert.equal(head(), outcome?.branch);
    assert.equal(readFileSync(join(dir, 'app.txt'), 'utf8'), 'one\ntwo\nmine\n', 'the change came along');

    // A branch where app.txt differs, and a change to it here: Git refuses to check it out.
    git('checkout', '-q', '-f', 'main');
    git('checkout', '-q', '-b', 'HD-77');
    writeFileSync(join(dir, 'app.txt'), 'theirs\n');
    git('commit', '-q', '-am', 'Theirs');
    git('checkout', '-q', 'main');
    writeFileSync(join(dir, 'app.txt'), 'one\ntwo\nmine again\n');
    api.ui.answerNextQuestion('Check Out');
    assert.equal(await api.actions.startWork({ postId: post.id, root: repository.rootUri, name: 'HD-77' }), undefined);
    assert.equal(head(), 'main', 'still on main');
    assert.equal(readFileSync(join(dir, 'app.txt'), 'utf8'), 'one\ntwo\nmine again\n', 'the change is untouched');
    await logShows(api, /Git did not check out HD-77: your uncommitted changes/);
  });

  it('a name Git would refuse is refused before Git is asked', async () => {
    const api = await extensionApi();
    const { repository, head } = await makeRepository();
    const post = await postTitled('Bad name');
    await assert.rejects(api.actions.startWork({ postId: post.id, root: repository.rootUri, name: 'a..b' }), /cannot be a branch name/);
    assert.equal(head(), 'main');
  });

  it('the status bar shows the post the checked-out branch names, also after a checkout outside VS Code; none for look-alikes', async function () {
    const api = await extensionApi();
    const { dir, repository, git } = await makeRepository();
    const post = await postTitled('Shown in the status bar');
    await vscode.window.showTextDocument(vscode.Uri.file(join(dir, 'app.txt')));
    const checkOut = async (branch: string, create = true) => {
      git('checkout', '-q', ...(create ? ['-b'] : []), branch);
      await gitSees(repository);
      assert.equal(repository.state.HEAD?.name, branch);
    };
    const shown = () => api.currentPost.shownText;
    assert.equal(shown(), undefined, 'main names no post');
    for (const branch of [`hd-${post.id}-shown`, `feature/HD-${post.id}-login`]) {
      await checkOut(branch);
      assert.equal(shown()?.text, `$(issues) HD-${post.id}`, branch);
      await waitFor('the title in the tooltip', () => shown()?.tooltip.includes('Shown in the status bar'));
      await checkOut('main', false);
      assert.equal(shown(), undefined, 'back on main');
    }
    for (const branch of ['release-2024', `xhd-${post.id}`]) {
      await checkOut(branch);
      assert.equal(shown(), undefined, branch);
    }
  });

  it('the commit message box starts with the reference once, and never over typed text', async function () {
    const { repository, git } = await makeRepository();
    const first = await postTitled('First for the box');
    const second = await postTitled('Second for the box');
    // The box's value goes to the workbench and back: read it once it has settled.
    const box = () => repository.inputBox.value;
    const boxShows = (value: string, what: string) =>
      waitFor(`${what}: the box to read ${JSON.stringify(value)} (it reads ${JSON.stringify(box())})`, () => box() === value);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
    git('checkout', '-q', '-b', `hd-${first.id}`);
    await gitSees(repository);
    await boxShows(`HD-${first.id}: `, 'pre-filled at the checkout');

    // Emptied by the person: not filled again while the branch and commit stay.
    repository.inputBox.value = '';
    await settle();
    writeFileSync(join(repository.rootUri.fsPath, 'other.txt'), 'a status, not a checkout\n');
    await gitSees(repository);
    assert.ok(
      repository.state.untrackedChanges?.length || repository.state.workingTreeChanges.length,
      'the Git extension saw the new file',
    );
    await settle();
    assert.equal(box(), '', 'not filled twice');

    repository.inputBox.value = 'My own words';
    await settle();
    git('checkout', '-q', '-b', `hd-${second.id}`);
    await gitSees(repository);
    await settle();
    assert.equal(box(), 'My own words', 'typed text kept');

    repository.inputBox.value = '';
    await settle();
    const before = repository.state.HEAD?.commit;
    git('add', '.');
    git('commit', '-q', '-m', 'A commit');
    await gitSees(repository);
    assert.notEqual(repository.state.HEAD?.commit, before, 'the Git extension saw the commit');
    await boxShows(`HD-${second.id}: `, 'filled again after the commit');
    git('checkout', '-q', 'main');
    await gitSees(repository);
    await boxShows('', 'what this put there taken back on main');
  });

  it("Go to Code from the palette offers the branch's post first, loaded or not", async () => {
    const api = await extensionApi();
    const { repository, git } = await makeRepository();
    const post = await postTitled(
      "The branch's post",
      ['TypeError: name.trim is not a function', '    at greeting (/srv/app/src/greeting.ts:3:21)'].join('\n'),
    );
    // A newer post heads the list, and names no code: Go to Code on it would open nothing.
    await postTitled('Newer, without code');
    await vscode.commands.executeCommand('helpdesk.refreshPosts');
    await waitFor(
      'the newer post to head the list',
      () => !api.store.posts.state.loading && api.store.posts.state.items[0]?.title === 'Newer, without code',
    );
    git('checkout', '-q', '-b', `hd-${post.id}`);
    await gitSees(repository);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const going = vscode.commands.executeCommand('helpdesk.goToCode');
    // The list of posts opens; Enter takes its first.
    await acceptBoxesUntil('Go to Code to take the first post', settled(going));
    await going;
    const opened = await waitFor('greeting.ts to open', () =>
      vscode.window.activeTextEditor?.document.uri.path.endsWith('/src/greeting.ts') ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(opened.selection.active.line, 2, "the frame's line");
  });

  it("in two repositories the command asks which, the active editor's first, then the name", async () => {
    const api = await extensionApi();
    const one = await makeRepository();
    const two = await makeRepository();
    const post = await postTitled('Two repositories');
    await vscode.window.showTextDocument(vscode.Uri.file(join(two.dir, 'app.txt')));
    const started = vscode.commands.executeCommand('helpdesk.startWork', post.id);
    // The repository list (Enter takes the first), then the name box (Enter takes the proposal).
    await acceptBoxesUntil('Start Work to take the first repository and the proposed name', settled(started));
    await started;
    assert.equal(two.head(), `hd-${post.id}-two-repositories`, "made in the active editor's repository, with the proposed name");
    assert.equal(one.head(), 'main', 'the other is untouched');
    await logShows(api, new RegExp(`You are working on HD-${post.id} on branch hd-${post.id}-two-repositories\\.`));
  });
});
