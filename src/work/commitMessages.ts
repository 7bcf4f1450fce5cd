import vscode = require('vscode');
import { referenceText } from '../code/postReferences';
import { readSettings } from '../settings';
import type { BranchPosts } from './branchPosts';

/** The commit message for a post from the template: `{reference}` (HD-123, or #123 without a prefix) and `{id}`. */
export function commitMessage(template: string, postId: number, prefix: string): string {
  return template.replaceAll('{reference}', referenceText(postId, prefix)).replaceAll('{id}', String(postId));
}

/**
 * Starts the commit message box of a repository whose branch names a post with the template, at
 * each checkout and after each commit, only while the box is empty. What the person typed is
 * never touched; what this put there is taken back when the branch no longer names that post.
 */
export class CommitMessages implements vscode.Disposable {
  /** Per repository root: the branch and commit last seen, and the text this put in its box. */
  private readonly seen = new Map<string, { at: string; filled?: string }>();
  private readonly listener: vscode.Disposable;

  constructor(private readonly branchPosts: BranchPosts) {
    this.listener = branchPosts.onDidChange(() => this.fill());
    this.fill();
  }

  private fill(): void {
    const repositories = this.branchPosts.repositories();
    const roots = new Set(repositories.map((r) => r.rootUri.toString()));
    for (const root of this.seen.keys()) if (!roots.has(root)) this.seen.delete(root);
    const { commitMessageTemplate, referencePrefix } = readSettings();
    for (const repository of repositories) {
      const box = repository.inputBox;
      if (!box) continue;
      const at = `${repository.state.HEAD?.name ?? ''} ${repository.state.HEAD?.commit ?? ''}`;
      const root = repository.rootUri.toString();
      const before = this.seen.get(root);
      if (before?.at === at) continue;
      const post = this.branchPosts.postOf(repository);
      const message = post && commitMessageTemplate ? commitMessage(commitMessageTemplate, post.postId, referencePrefix) : '';
      const ours = before?.filled !== undefined && box.value === before.filled;
      let filled = ours ? before.filled : undefined;
      if (box.value === '' || ours) {
        box.value = message;
        filled = message || undefined;
      }
      this.seen.set(root, { at, filled });
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}
