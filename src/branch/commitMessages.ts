import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { referenceText } from '../code/postReferences';
import { readSettings, SETTINGS } from '../settings';
import type { BranchPosts } from './branchPosts';

/** The commit message for a post from the template: `{reference}` (HD-123, or #123 without a prefix) and `{id}`. */
export function commitMessage(template: string, postId: number, prefix: string): string {
  return template.replaceAll('{reference}', referenceText(postId, prefix)).replaceAll('{id}', String(postId));
}

/**
 * A repository seen for the first time is left alone this long: VS Code puts back the message the
 * box held before (a reload, a repository closed and opened again), and the extension host hears
 * of it a moment after the repository opens.
 */
const FIRST_SIGHT_MS = 1000;

/**
 * Starts the commit message box of a repository whose branch names a post with the template, at
 * each checkout and after each commit, only while the box is empty. What the person typed is
 * never touched; what this put there follows the settings, and is taken back when the branch no
 * longer names that post. A box with nothing to put in it is never written to.
 */
export class CommitMessages extends Disposable {
  /** Per repository root: what it was on (branch, commit, settings, post) when last filled, and the text this put in its box. */
  private readonly seen = new Map<string, { at: string; filled?: string; waiting?: boolean }>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly branchPosts: Pick<BranchPosts, 'onDidChange' | 'repositories' | 'postOf'>,
    private readonly firstSightMs = FIRST_SIGHT_MS,
  ) {
    super();
    this.register(branchPosts.onDidChange(() => this.fill()));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.commitMessageTemplate) && this.fill()));
    this.fill();
  }

  private fill(): void {
    const repositories = this.branchPosts.repositories();
    const roots = new Set(repositories.map((r) => r.rootUri.toString()));
    for (const root of this.seen.keys()) if (!roots.has(root)) this.seen.delete(root);
    // No repository yet (Git's branches start after the window has): nothing to read the settings for.
    if (repositories.length === 0) return;
    const { commitMessageTemplate, referencePrefix, branchNameTemplate } = readSettings();
    for (const repository of repositories) {
      const box = repository.inputBox;
      if (!box) continue;
      const root = repository.rootUri.toString();
      const before = this.seen.get(root);
      if (!before) {
        this.seen.set(root, { at: '', waiting: true });
        this.later(root);
        continue;
      }
      if (before.waiting) continue;
      // The post and its account too: the same branch names no post once the window moves to another account.
      const post = this.branchPosts.postOf(repository);
      const at = [
        repository.state.HEAD?.name,
        repository.state.HEAD?.commit,
        branchNameTemplate,
        referencePrefix,
        commitMessageTemplate,
        post?.postId,
        post?.accountUrl,
      ].join('\n');
      if (before.at === at) continue;
      const message = post && commitMessageTemplate ? commitMessage(commitMessageTemplate, post.postId, referencePrefix) : '';
      const ours = before.filled !== undefined && box.value === before.filled;
      let filled = ours ? before.filled : undefined;
      if (message && (box.value === '' || ours)) {
        if (box.value !== message) box.value = message;
        filled = message;
      } else if (!message && ours) {
        box.value = '';
        filled = undefined;
      }
      this.seen.set(root, { at, filled });
    }
  }

  /** A repository seen for the first time: filled once the box has had time to get its text back. */
  private later(root: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const entry = this.seen.get(root);
      if (entry) entry.waiting = false;
      this.fill();
    }, this.firstSightMs);
    this.timers.add(timer);
  }

  override dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    super.dispose();
  }
}
