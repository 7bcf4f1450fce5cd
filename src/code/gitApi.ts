import type * as vscode from 'vscode';

/*
 * The few parts of the built-in Git extension's API (`vscode.git`, `getAPI(1)`) that this
 * extension uses, written from its documented shape. Members that older or newer VS Code
 * versions may lack are optional, so that callers check before use.
 */

export interface GitExtension {
  readonly enabled: boolean;
  /** Throws when the Git extension is disabled. */
  getAPI(version: 1): GitApi;
}

export type GitApiState = 'uninitialized' | 'initialized';

export interface GitApi {
  readonly state?: GitApiState;
  readonly onDidChangeState?: vscode.Event<GitApiState>;
  readonly repositories: readonly GitRepository[];
  getRepository?(uri: vscode.Uri): GitRepository | null;
  readonly onDidOpenRepository?: vscode.Event<GitRepository>;
  readonly onDidCloseRepository?: vscode.Event<GitRepository>;
}

/** `RefType.Head` and `RefType.RemoteHead` of the Git API (a const enum there, so not importable). */
export const REF_TYPE_HEAD = 0;
export const REF_TYPE_REMOTE_HEAD = 1;

export interface GitRef {
  readonly type: number;
  readonly name?: string;
  readonly commit?: string;
  readonly remote?: string;
}

export interface GitBranch extends GitRef {
  readonly upstream?: { readonly remote: string; readonly name: string; readonly commit?: string };
  readonly ahead?: number;
  readonly behind?: number;
}

export interface GitRemote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
}

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  /** The Git API's `Status` (a const enum there). */
  readonly status?: number;
}

export interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly remotes: readonly GitRemote[];
  readonly mergeChanges?: readonly GitChange[];
  readonly indexChanges: readonly GitChange[];
  readonly workingTreeChanges: readonly GitChange[];
  readonly untrackedChanges?: readonly GitChange[];
  /** The branches and tags as last read (older versions of the API; newer ones have `getRefs`). */
  readonly refs?: readonly GitRef[];
  /** Fires after `HEAD`, the changes or the refs changed (a checkout, a commit, a status). */
  readonly onDidChange?: vscode.Event<void>;
}

export interface GitBranchQuery {
  readonly remote?: boolean;
  /** Only refs that contain this commit (`git for-each-ref --contains`). */
  readonly contains?: string;
  readonly pattern?: string | string[];
  readonly count?: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: GitRepositoryState;
  getBranches?(query: GitBranchQuery, cancellationToken?: vscode.CancellationToken): Promise<GitRef[]>;
  /** `git for-each-ref PATTERN…`: a pattern matches its ref and the refs under it as a folder. Names are short (`hd-5`, `origin/hd-5`). */
  getRefs?(query: GitBranchQuery, cancellationToken?: vscode.CancellationToken): Promise<GitRef[]>;
  /** Runs `git status` and updates `state`. */
  status?(): Promise<void>;
  /** The text of a file at `ref` (`git show ref:path`, decoded as the editor would); `path` is absolute. Rejects where `ref` has no such file. */
  show?(ref: string, path: string): Promise<string>;
  /** The Source Control view's commit message box. */
  readonly inputBox?: { value: string };
  /**
   * Throws when there is no such branch. Matches as `git for-each-ref refs/heads/NAME
   * refs/remotes/NAME` does (`hd-5` finds `hd-5/old`) and takes `refs/…` as a full name: never
   * the answer to whether a branch of exactly that name exists (see startWork.ts).
   */
  getBranch?(name: string): Promise<GitBranch>;
  /** `git checkout -b name [ref]` (checkout) or `git branch name [ref]`. */
  createBranch?(name: string, checkout: boolean, ref?: string): Promise<void>;
  checkout?(treeish: string): Promise<void>;
  /** `git branch --set-upstream-to=upstream name`. */
  setBranchUpstream?(name: string, upstream: string): Promise<void>;
}

/** What the Git API's promises reject with: Git's own words and, where it knows them, a code. */
export interface GitError {
  readonly message?: string;
  readonly stderr?: string;
  /** The Git API's `GitErrorCodes`, e.g. `DirtyWorkTree`, `BranchAlreadyExists`. */
  readonly gitErrorCode?: string;
}
