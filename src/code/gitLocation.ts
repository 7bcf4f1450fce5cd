import vscode = require('vscode');
import type { CodeLocation } from './bugReport';
import { REF_TYPE_REMOTE_HEAD, type GitApi, type GitBranch, type GitChange, type GitExtension, type GitRepository } from './gitApi';
import { buildPermalink, parseRemoteUrl, rankRemotes, repoRelativePath, repoWebUrl } from './permalink';

const { l10n } = vscode;

const TIMEOUT_MS = 3000;

/** `Status` values of the Git API for a file that HEAD does not have: INDEX_ADDED, UNTRACKED, INTENT_TO_ADD. */
const NEW_FILE_STATUSES = new Set([1, 7, 9]);

export interface LocateOptions {
  timeoutMs?: number;
  /** Told of the error behind a "Git reported an error" answer, e.g. to log it. */
  onError?: (error: unknown) => void;
  /** The file's text as saved (a document not dirty): compared with the commit's, so that `git status` need not be waited for. */
  text?: string;
}

function local(reason: string): CodeLocation {
  return { kind: 'local', reason };
}

/**
 * Where the selected lines are on the remote: a permalink at the HEAD commit when a remote
 * branch has that commit and the file is as committed; otherwise `local` with the reason.
 * Never throws, and answers `local` after `timeoutMs` (3 s) whatever Git is doing.
 */
export async function locateInGit(
  document: vscode.Uri,
  startLine: number,
  endLine: number,
  isDirty: boolean,
  options: LocateOptions = {},
): Promise<CodeLocation> {
  if (isDirty) return local(l10n.t('the file has unsaved changes'));
  if (document.scheme === 'untitled') return local(l10n.t('the file is not saved'));
  const cancel = new vscode.CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<CodeLocation>((resolve) => {
    timer = setTimeout(() => {
      cancel.cancel();
      resolve(local(l10n.t('Git took too long to answer')));
    }, options.timeoutMs ?? TIMEOUT_MS);
  });
  const located = locate(document, startLine, endLine, options.text, cancel.token).catch((error: unknown) => {
    options.onError?.(error);
    // The message is not shown: Git's errors can quote remote URLs with credentials in them.
    return local(l10n.t('Git reported an error'));
  });
  try {
    return await Promise.race([located, timedOut]);
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}

async function locate(
  uri: vscode.Uri,
  startLine: number,
  endLine: number,
  text: string | undefined,
  token: vscode.CancellationToken,
): Promise<CodeLocation> {
  const api = await gitApi(token);
  if (typeof api === 'string') return local(api);
  const repository = findRepository(api, uri);
  const path = repository && repoRelativePath(repository.rootUri.path, uri.path);
  if (!repository || !path) return local(l10n.t('the file is not in a Git repository'));

  // Which remote branches hold HEAD is asked while the file is checked, not after it: two Git
  // processes at once, not one behind the other (Enter in the title box waits for both). Not
  // asked where HEAD's upstream has it already (no process at all).
  const before = repository.state.HEAD;
  const asked =
    before?.commit && !(before.upstream && before.ahead === 0)
      ? { commit: before.commit, remotes: remotesWithCommit(repository, before.commit, token) }
      : undefined;
  asked?.remotes.catch(() => undefined); // its error is the answer's only where it is used
  const link = (head: GitBranch, commit: string) => linkAt(repository, head, commit, path, startLine, endLine, asked, token);

  // The file as saved against the commit's: where they are the same text, the link shows these
  // lines whatever Git's state says, and `git status` (a run of several Git processes, seconds on
  // a busy machine) is not waited for.
  if (before?.commit && text !== undefined) {
    const committed = await committedText(repository, before.commit, uri, token);
    if (committed !== undefined) {
      return sameText(committed, text) ? link(before, before.commit) : local(l10n.t('the file has uncommitted changes'));
    }
  }
  // Git's state lags behind the disk (a file created a moment ago is not in it yet): read again.
  await repository.status?.();
  const { HEAD: head } = repository.state;
  const commit = head?.commit;
  if (!head || !commit) return local(l10n.t('the repository has no commit yet'));
  const change = changeOf(repository, uri);
  if (change) {
    return local(
      change.status !== undefined && NEW_FILE_STATUSES.has(change.status)
        ? l10n.t('the file is not committed yet')
        : l10n.t('the file has uncommitted changes'),
    );
  }
  return link(head, commit);
}

/** The permalink to the lines at `commit` of HEAD's branch, where a remote branch has it; else why not. */
async function linkAt(
  repository: GitRepository,
  head: GitBranch,
  commit: string,
  path: string,
  startLine: number,
  endLine: number,
  asked: { commit: string; remotes: Promise<string[] | undefined> } | undefined,
  token: vscode.CancellationToken,
): Promise<CodeLocation> {
  const { remotes } = repository.state;
  if (remotes.length === 0) return local(l10n.t('the repository has no remote'));

  const linkVia = (remoteName: string): CodeLocation | undefined => {
    const remote = remotes.find((r) => r.name === remoteName);
    for (const url of [remote?.fetchUrl, remote?.pushUrl]) {
      const repo = url ? parseRemoteUrl(url) : undefined;
      if (repo) return { kind: 'permalink', url: buildPermalink(repo, commit, path, startLine, endLine) };
    }
    return undefined;
  };

  // HEAD not ahead of its upstream: the upstream branch has the commit, no need to ask Git.
  if (head.upstream && head.ahead === 0) {
    const link = linkVia(head.upstream.remote);
    if (link) return link;
  }
  const short = commit.slice(0, 7);
  // Asked again where HEAD moved meanwhile (a commit, a checkout).
  const candidates = await (asked?.commit === commit ? asked.remotes : remotesWithCommit(repository, commit, token));
  if (candidates === undefined) return local(l10n.t('Git cannot tell whether commit {0} was pushed', short));
  if (candidates.length === 0) return local(l10n.t('commit {0} is not on any remote branch (not pushed yet)', short));
  for (const name of rankRemotes(candidates, head.upstream?.remote)) {
    const link = linkVia(name);
    if (link) return link;
  }
  return local(l10n.t('the remote is not on GitHub, GitLab, Bitbucket or Azure DevOps'));
}

/**
 * The file's text at `commit` (one `git show`); undefined where Git cannot tell: no `show` in
 * this Git API, no such file in the commit (a new one), an error, or cancelled.
 */
async function committedText(
  repository: GitRepository,
  commit: string,
  uri: vscode.Uri,
  token: vscode.CancellationToken,
): Promise<string | undefined> {
  if (typeof repository.show !== 'function' || token.isCancellationRequested) return undefined;
  try {
    const text = await repository.show(commit, uri.fsPath);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The same text, whatever the line ends (Git may keep LF where the file has CRLF) and a byte order mark. */
function sameText(a: string, b: string): boolean {
  const plain = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n/g, '\n');
  return a === b || plain(a) === plain(b);
}

/** The Git API once it has opened the repositories, or why there is none. */
export async function gitApi(token?: vscode.CancellationToken): Promise<GitApi | string> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return l10n.t('Git is not available (the built-in Git extension is missing)');
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports?.enabled) return l10n.t('Git is not available (the Git extension is disabled)');
  const api = exports.getAPI(1);
  if (api.state === 'uninitialized' && api.onDidChangeState) {
    const onDidChangeState = api.onDidChangeState;
    await new Promise<void>((resolve) => {
      const listeners: vscode.Disposable[] = [];
      const done = () => {
        for (const listener of listeners) listener.dispose();
        resolve();
      };
      listeners.push(onDidChangeState((state) => state === 'initialized' && done()));
      if (token) listeners.push(token.onCancellationRequested(done));
    });
  }
  return api;
}

export function findRepository(api: GitApi, uri: vscode.Uri): GitRepository | undefined {
  const found = typeof api.getRepository === 'function' ? api.getRepository(uri) : undefined;
  if (found) return found;
  // Without getRepository: the repository with the deepest root that holds the file.
  return [...api.repositories]
    .filter((r) => repoRelativePath(r.rootUri.path, uri.path) !== undefined)
    .sort((a, b) => b.rootUri.path.length - a.rootUri.path.length)[0];
}

function samePath(a: vscode.Uri, b: vscode.Uri): boolean {
  if (a.toString() === b.toString()) return true;
  return process.platform !== 'linux' && a.scheme === b.scheme && a.fsPath.toLowerCase() === b.fsPath.toLowerCase();
}

/** The file's entry among the changes Git knows of (staged, unstaged, merge, untracked), if any. */
function changeOf(repository: GitRepository, uri: vscode.Uri): GitChange | undefined {
  const { indexChanges, workingTreeChanges, mergeChanges = [], untrackedChanges = [] } = repository.state;
  for (const change of [...indexChanges, ...workingTreeChanges, ...mergeChanges, ...untrackedChanges]) {
    if ([change.uri, change.originalUri, change.renameUri].some((u) => u && samePath(u, uri))) return change;
  }
  return undefined;
}

/**
 * The remotes with a branch that contains the commit (`git for-each-ref --contains` through
 * `getBranches`, typed in the Git API since before VS Code 1.96), or undefined when the API
 * has no `getBranches`.
 */
async function remotesWithCommit(
  repository: GitRepository,
  commit: string,
  token: vscode.CancellationToken,
): Promise<string[] | undefined> {
  if (typeof repository.getBranches !== 'function') return undefined;
  const refs = await repository.getBranches({ remote: true, contains: commit }, token);
  return refs.filter((ref) => ref.type === REF_TYPE_REMOTE_HEAD && ref.remote).map((ref) => ref.remote!);
}

/** The document's path for the report: relative to its workspace folder, else only its file name. */
export function relativeLocation(uri: vscode.Uri): string {
  // Outside a workspace folder the full path would put the person's home folder into the post.
  if (!vscode.workspace.getWorkspaceFolder(uri)) return uri.path.split('/').filter(Boolean).pop() ?? uri.path;
  const relative = vscode.workspace.asRelativePath(uri, false);
  return process.platform === 'win32' ? relative.replace(/\\/g, '/') : relative;
}

/**
 * The web address of the workspace's repository (first folder's repository, best remote), for
 * records that name it; undefined without Git, a repository or a known host. Bounded in time.
 */
export async function workspaceRepository(timeoutMs = TIMEOUT_MS): Promise<string | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => cancel.cancel(), timeoutMs);
  try {
    const api = await gitApi(cancel.token);
    if (typeof api === 'string' || cancel.token.isCancellationRequested) return undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    const repository = folder ? findRepository(api, folder.uri) : api.repositories[0];
    if (!repository) return undefined;
    const { remotes, HEAD } = repository.state;
    for (const name of rankRemotes(
      remotes.map((r) => r.name),
      HEAD?.upstream?.remote,
    )) {
      const remote = remotes.find((r) => r.name === name);
      const parsed = parseRemoteUrl(remote?.fetchUrl ?? remote?.pushUrl ?? '');
      if (parsed) return repoWebUrl(parsed);
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}
