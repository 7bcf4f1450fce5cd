// Start Work on Post: the command's prompts (startWork), and the typed action they end in
// (startWorkOn): a branch named for the post, created from HEAD and checked out through the Git
// extension, never without the person's word.
import vscode = require('vscode');
import type { Identity } from '../accounts/identity';
import { offerToTakePost } from './startWorkOffer';
import type { Post } from '../api';
import type { Account } from '../api/account';
import { branchNameProblem, proposeBranchName, typedAsRef } from '../branch/branchNames';
import { REF_TYPE_HEAD, REF_TYPE_REMOTE_HEAD, type GitError, type GitRef, type GitRepository } from '../code/gitApi';
import { gitApi } from '../code/gitLocation';
import { referenceText } from '../code/postReferences';
import { pickPost } from './prompts';
import { targetPost } from './targets';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { labelText, pickText } from '../text/serverText';
import { postTitle } from '../text/postFacts';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { needsAccount, notSignedIn, type Feature } from './feature';

const { l10n } = vscode;

export function startWorkFeature(services: Services, identity: Identity) {
  return {
    commands: { 'helpdesk.startWork': needsAccount(services, (signedIn, arg) => startWork(services, signedIn, arg, identity)) },
    /** Start Work on the post in the repository at `root`, with `name` or the proposed one, without the boxes (an existing branch is still asked about). */
    action: withSignedIn(
      services.gateway,
      async ({ account }, { postId, root, name }: { postId: number; root: vscode.Uri; name?: string }) => {
        const post = await account.post(postId);
        const repositories = await repositoriesOrWhy(services);
        const repository =
          typeof repositories === 'string' ? undefined : repositories.find((r) => r.rootUri.toString() === root.toString());
        if (!repository) throw new Error(`No Git repository open at ${root.toString()}.`);
        return startWorkOn(
          services,
          post,
          repository,
          name ?? proposeBranchName(readSettings().branchNameTemplate, { id: post.id, title: postTitle(post) }),
          account.url,
        );
      },
      notSignedIn,
    ),
  } satisfies Feature<unknown>;
}

/** What Start Work ended in: the branch checked out, or nothing done. */
export type StartWorkOutcome = { branch: string; created: boolean } | undefined;

/**
 * Start Work on Post…: on a post's row, its document, a hover, or one picked from a list. Asks
 * which repository (the active editor's first) and the branch's name (proposed from the
 * template), then creates it from HEAD and checks it out.
 */
export async function startWork(services: Services, { account }: SignedIn, arg: unknown, identity?: Identity): Promise<StartWorkOutcome> {
  const target = targetPost(arg);
  if (target?.accountUrl !== undefined && target.accountUrl !== account.url) {
    void services.ui.info(
      l10n.t(
        '#{0} is a post of another account; this window uses {1}. Switch to that account to start work on it.',
        target.id,
        account.url,
      ),
    );
    return undefined;
  }
  const repositories = await repositoriesOrWhy(services);
  if (typeof repositories === 'string') {
    void services.ui.info(repositories);
    return undefined;
  }
  const post = target
    ? (target.node?.post ?? (await loadPost(account, target.id)))
    : await pickPost(services.gateway, l10n.t('Start Work on Post'));
  if (!post) return undefined;
  const repository = repositories.length === 1 ? repositories[0] : await pickRepository(repositories, post);
  if (!repository) return undefined;
  const name = await askBranchName(post, repository);
  if (!name) return undefined;
  const started = await startWorkOn(services, post, repository, name, account.url);
  // Once the branch is there: the offer to take the post (not waited for: the branch is the command's answer).
  if (started && identity)
    void offerToTakePost(services, identity, account, post).catch((error: unknown) =>
      services.log.error('The offer after Start Work', error),
    );
  return started;
}

/**
 * Creates `name` from HEAD and checks it out; an existing branch is checked out after asking. Git's
 * refusals are said in words. The branch then names the post of `accountUrl` (see BranchPosts).
 */
export async function startWorkOn(
  services: Pick<Services, 'ui' | 'log'> & Partial<Pick<Services, 'branchPosts'>>,
  post: Post,
  repository: GitRepository,
  name: string,
  accountUrl?: string,
): Promise<StartWorkOutcome> {
  const problem = branchNameProblem(name);
  if (problem) throw new Error(l10n.t('"{0}" cannot be a branch name: it {1}.', name, problem));
  const reference = referenceText(post.id, readSettings().referencePrefix);
  if (repository.state.HEAD?.name === name) {
    if (accountUrl) await services.branchPosts?.record(repository, name, accountUrl);
    void services.ui.info(l10n.t('{0} is checked out already: you are working on {1}.', name, reference));
    return { branch: name, created: false };
  }
  if (repository.state.remotes.some((remote) => name === `${remote.name}/HEAD`)) {
    // A remote's HEAD points at its default branch; it is no branch, and "HEAD" is no name to suggest.
    void services.ui.info(
      l10n.t(
        '{0} is not a branch: it points at the default branch of the remote. Start work again and give the branch a name of its own.',
        name,
      ),
    );
    return undefined;
  }
  const refs = await refsNamed(repository, name);
  const exists = refs.local;
  if (!exists && refs.typedRemote) {
    // A remote's branch by its name ("origin/hd-5") is not a name to create.
    void services.ui.info(
      l10n.t(
        '{0} is a branch of a remote. Start work again and name the branch without the remote, e.g. {1}.',
        name,
        name.slice(name.indexOf('/') + 1),
      ),
    );
    return undefined;
  }
  const remote = exists ? undefined : refs.remote;
  const question = exists
    ? l10n.t('A branch named {0} exists already. Check it out to work on {1}?', name, reference)
    : remote && l10n.t('{0} exists on the remote. Check it out as {1}, following it, to work on {2}?', remote, name, reference);
  if (question) {
    const checkOut = l10n.t('Check Out');
    const answer = await services.ui.info(
      question,
      { modal: true, detail: l10n.t('Your uncommitted changes go with you where Git allows it.') },
      checkOut,
    );
    if (answer !== checkOut) return undefined;
  }
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.SourceControl, title: l10n.t('Checking out {0}…', name) },
      async () => {
        if (!repository.checkout || !repository.createBranch)
          throw new Error(l10n.t("This version of VS Code's Git extension cannot create or check out branches."));
        if (exists) await repository.checkout(name);
        else {
          await repository.createBranch(name, true, remote);
          // The Git extension creates branches with --no-track: follow the remote's branch here.
          if (remote) await repository.setBranchUpstream?.(name, remote);
        }
      },
    );
  } catch (error) {
    services.log.error(`Start Work: git ${exists ? 'checkout' : 'checkout -b'} ${name}`, error);
    void services.ui.error(gitRefusal(error, name, exists));
    return undefined;
  }
  if (accountUrl) await services.branchPosts?.record(repository, name, accountUrl);
  const asRef = typedAsRef(name);
  void services.ui.info(
    asRef
      ? l10n.t('You are working on {0} on branch {1} (in full {2}).', reference, name, asRef.full)
      : l10n.t('You are working on {0} on branch {1}.', reference, name),
  );
  return { branch: name, created: !exists };
}

/**
 * What is named exactly `name`: a branch (`refs/heads/NAME`), a remote's branch typed by its name
 * (`refs/remotes/NAME`), and the first remote's branch of that name (`origin/NAME`). Git's
 * patterns match refs under a name as a folder too (`hd-5` finds `hd-5/old`), so the refs found
 * are compared by their whole names.
 */
async function refsNamed(repository: GitRepository, name: string): Promise<{ local: boolean; typedRemote: boolean; remote?: string }> {
  const remotes = repository.state.remotes.map((r) => r.name);
  const pattern = [`refs/heads/${name}`, `refs/remotes/${name}`, ...remotes.map((remote) => `refs/remotes/${remote}/${name}`)];
  const refs = await (
    repository.getRefs?.({ pattern }) ??
    repository.getBranches?.({ remote: true, pattern }) ??
    Promise.resolve(repository.state.refs ?? [])
  ).catch(() => [] as GitRef[]);
  const has = (type: number, full: string) => refs.some((ref) => ref.type === type && ref.name === full);
  return {
    local: has(REF_TYPE_HEAD, name),
    typedRemote: has(REF_TYPE_REMOTE_HEAD, name),
    remote: remotes.map((remote) => `${remote}/${name}`).find((full) => has(REF_TYPE_REMOTE_HEAD, full)),
  };
}

/** Git's refusal in words: the ones people meet named, the rest with Git's first line. */
export function gitRefusal(error: unknown, name: string, existing: boolean): string {
  const { gitErrorCode, stderr, message } = (typeof error === 'object' && error !== null ? error : {}) as GitError;
  if (gitErrorCode === 'DirtyWorkTree' || /would be overwritten by checkout/.test(stderr ?? '')) {
    return l10n.t(
      'Git did not check out {0}: your uncommitted changes to files that differ on it would be overwritten. Commit or stash them, then start work again.',
      name,
    );
  }
  if (gitErrorCode === 'BranchAlreadyExists')
    return l10n.t('Git did not create {0}: a branch of that name exists. Start work again to check it out.', name);
  const said = (stderr ?? message ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find(Boolean);
  const words = said ? labelText(said.replace(/^(fatal|error): /, ''), 200) : l10n.t('no reason given');
  return existing ? l10n.t('Git did not check out {0}: {1}', name, words) : l10n.t('Git did not create {0}: {1}', name, words);
}

/** How long Start Work waits for the Git extension to open the repositories. */
const GIT_WAIT_MS = 10_000;

/** The repositories Git has open (the active editor's first), or why there are none, in words. */
async function repositoriesOrWhy(services: Pick<Services, 'branchPosts'>): Promise<GitRepository[] | string> {
  const cancel = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => cancel.cancel(), GIT_WAIT_MS);
  try {
    const api = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Waiting for Git…') }, () =>
      gitApi(cancel.token),
    );
    if (typeof api === 'string') return l10n.t('Start Work needs Git: {0}.', api);
    if (api.state === 'uninitialized') return l10n.t('Git has not finished opening the repositories. Start work again in a moment.');
    const repositories = services.branchPosts.repositories();
    const all = repositories.length > 0 ? repositories : [...api.repositories];
    return all.length > 0
      ? all
      : l10n.t(
          'Start Work makes a branch in a Git repository: open a folder that is one (or run Git: Initialize Repository), then start work again.',
        );
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}

async function loadPost(account: Account, id: number): Promise<Post> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Loading #{0}…', id) }, () =>
    account.post(id),
  );
}

async function pickRepository(repositories: readonly GitRepository[], post: Post): Promise<GitRepository | undefined> {
  const items = repositories.map((repository) => ({
    label: `$(repo) ${vscode.workspace.asRelativePath(repository.rootUri, true) || repository.rootUri.path.split('/').pop()}`,
    description: repository.state.HEAD?.name ? l10n.t('on {0}', repository.state.HEAD.name) : undefined,
    repository,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Start Work on #{0}: in which repository?', post.id),
    placeHolder: l10n.t("The branch is made from this repository's HEAD"),
  });
  return picked?.repository;
}

/** The branch's name: proposed from the template, always shown to change or accept. */
async function askBranchName(post: Post, repository: GitRepository): Promise<string | undefined> {
  const proposed = proposeBranchName(readSettings().branchNameTemplate, { id: post.id, title: postTitle(post) });
  const from = repository.state.HEAD?.name ?? repository.state.HEAD?.commit?.slice(0, 7);
  const name = await vscode.window.showInputBox({
    title: l10n.t('Start Work on #{0}: {1}', post.id, pickText(postTitle(post), 80)),
    prompt: from
      ? l10n.t('The branch to create from {0} and check out. Enter creates it.', from)
      : l10n.t('The branch to create and check out. Enter creates it.'),
    value: proposed,
    validateInput: branchNameCheck,
  });
  return name?.trim() || undefined;
}

/**
 * The branch box's check, as the person types: what Git would do with the name. Refused (an error,
 * which Enter cannot pass) where Git refuses it; said, as a warning, where Git takes it otherwise
 * than it looks (a full ref is a branch of that very name); nothing for a plain name.
 */
export function branchNameCheck(value: string): vscode.InputBoxValidationMessage | string | undefined {
  const name = value.trim();
  const problem = branchNameProblem(name);
  if (problem) return l10n.t('Git does not take this name: it {0}.', problem);
  const asRef = typedAsRef(name);
  if (!asRef) return undefined;
  return {
    message: l10n.t(
      'Git makes this a branch named {0}, in full {1}. Enter makes it so; for a branch named {2}, type {2}.',
      name,
      asRef.full,
      asRef.meant,
    ),
    severity: vscode.InputBoxValidationSeverity.Warning,
  };
}
