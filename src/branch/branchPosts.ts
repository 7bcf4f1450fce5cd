import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { postIdOfBranch } from './branchNames';
import type { GitApi, GitRepository } from '../code/gitApi';
import { findRepository } from '../code/gitLocation';
import { readSettings, SETTINGS } from '../settings';

/** A repository whose checked-out branch names a post. */
export interface WorkingOn {
  readonly postId: number;
  readonly branch: string;
  readonly repository: GitRepository;
  /** The account Start Work made or checked out the branch in; undefined for a branch made by hand. */
  readonly accountUrl?: string;
}

/** Where the accounts of branches are kept, and who the window is. */
export interface BranchAccounts {
  /** The extension's global state: every window of the profile reads the same records. */
  readonly state: Pick<vscode.Memento, 'get' | 'update'>;
  /** The window's account's address; undefined while signed out. */
  readonly account: () => string | undefined;
  readonly onDidChangeAccount?: vscode.Event<void>;
}

const BRANCH_ACCOUNTS = 'helpdesk.branchAccounts';
/** Records kept, the newest: far more branches than a person starts work on. */
const MAX_RECORDS = 1000;

/**
 * Which post each repository's branch is about (see branchNames.ts), as branches change inside
 * or outside VS Code; and the window's current one: the active editor's repository's, else the
 * first repository whose branch names a post.
 *
 * A branch Start Work made names a post of the account it was made in (recorded in the global
 * state by repository and branch, rather than in the repository's git config: read at once at
 * each event, and nothing written into the person's repository but the branch they asked for).
 * In a window on another account it names no post; a branch made by hand names its post in any.
 */
export class BranchPosts extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when any repository's branch, HEAD commit or the naming settings change. */
  readonly onDidChange = this.changed.event;
  /** By root: the Git API hands out a new object for a repository at each call. */
  private readonly watched = new Map<string, vscode.Disposable>();
  private api: GitApi | undefined;
  /** What the repositories were on at the last event (their branches and HEAD commits, the active one). */
  private last: string | undefined;
  private disposed = false;

  constructor(
    git: Promise<GitApi | string>,
    private readonly accounts?: BranchAccounts,
  ) {
    super();
    if (accounts?.onDidChangeAccount) this.register(accounts.onDidChangeAccount(() => this.update(true)));
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this.register(
      vscode.workspace.onDidChangeConfiguration(
        (e) =>
          (e.affectsConfiguration(SETTINGS.branchNameTemplate) || e.affectsConfiguration(SETTINGS.referencePrefix)) && this.update(true),
      ),
    );
    void git.then((api) => {
      if (typeof api === 'string' || this.disposed) return;
      this.api = api;
      for (const repository of api.repositories) this.watch(repository);
      if (api.onDidOpenRepository) this.register(api.onDidOpenRepository((repository) => this.watch(repository)));
      if (api.onDidCloseRepository) this.register(api.onDidCloseRepository((repository) => this.unwatch(repository)));
      this.update();
    });
  }

  /** The repositories Git has open, the active editor's first. */
  repositories(): GitRepository[] {
    const api = this.api;
    if (!api) return [];
    const active = vscode.window.activeTextEditor?.document.uri;
    const first = active && active.scheme === 'file' ? findRepository(api, active) : undefined;
    const all = api.repositories;
    return first ? [first, ...all.filter((r) => r.rootUri.toString() !== first.rootUri.toString())] : [...all];
  }

  /** The post `repository`'s checked-out branch is about, if any. */
  postOf(repository: GitRepository): WorkingOn | undefined {
    const branch = repository.state.HEAD?.name;
    if (!branch) return undefined;
    const { branchNameTemplate, referencePrefix } = readSettings();
    const postId = postIdOfBranch(branch, { template: branchNameTemplate, prefix: referencePrefix });
    if (postId === undefined) return undefined;
    const accountUrl = this.recordOf(recordKey(repository, branch));
    if (accountUrl !== undefined && accountUrl !== this.accounts?.account()) return undefined;
    return { postId, branch, repository, accountUrl };
  }

  /** Records that `branch` of `repository` was made or checked out for a post of `accountUrl`. */
  async record(repository: GitRepository, branch: string, accountUrl: string): Promise<void> {
    if (!this.accounts) return;
    const key = recordKey(repository, branch);
    const records = Object.entries(this.records()).filter(([k]) => k !== key);
    records.push([key, accountUrl]);
    await this.accounts.state.update(BRANCH_ACCOUNTS, Object.fromEntries(records.slice(-MAX_RECORDS)));
    this.update(true);
  }

  private recordOf(key: string): string | undefined {
    const kept = this.accounts?.state.get<unknown>(BRANCH_ACCOUNTS);
    const value: unknown =
      typeof kept === 'object' && kept !== null && Object.hasOwn(kept, key) ? (kept as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  /** The records as kept, read as untrusted: entries that are no text are left out. */
  private records(): Record<string, string> {
    const kept = this.accounts?.state.get<unknown>(BRANCH_ACCOUNTS);
    if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return {};
    const records: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of Object.entries(kept)) if (typeof value === 'string') records[key] = value;
    return records;
  }

  /** The window's current post: the active editor's repository's, else the first repository's that names one. */
  get current(): WorkingOn | undefined {
    for (const repository of this.repositories()) {
      const post = this.postOf(repository);
      if (post) return post;
    }
    return undefined;
  }

  private watch(repository: GitRepository): void {
    const root = repository.rootUri.toString();
    if (this.watched.has(root) || !repository.state.onDidChange) return;
    this.watched.set(
      root,
      repository.state.onDidChange(() => this.update()),
    );
    this.update();
  }

  private unwatch(repository: GitRepository): void {
    const root = repository.rootUri.toString();
    this.watched.get(root)?.dispose();
    this.watched.delete(root);
    this.update();
  }

  /** Fires when a branch or HEAD commit changed, or the repository first in line (a status alone changes neither). */
  private update(force = false): void {
    const key = this.repositories()
      .map((r) => `${r.rootUri.toString()} ${r.state.HEAD?.name ?? ''} ${r.state.HEAD?.commit ?? ''}`)
      .join('\n');
    if (!force && key === this.last) return;
    this.last = key;
    this.changed.fire();
  }

  override dispose(): void {
    this.disposed = true;
    for (const listener of this.watched.values()) listener.dispose();
    this.watched.clear();
    super.dispose();
  }
}

function recordKey(repository: GitRepository, branch: string): string {
  return `${repository.rootUri.toString()}\n${branch}`;
}
