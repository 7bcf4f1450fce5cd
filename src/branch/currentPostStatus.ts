import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { withSignedInNow, type WindowAccount } from '../accounts/signedIn';
import { referenceText } from '../code/postReferences';
import type { Peek } from '../store/postPeeks';
import { readSettings } from '../settings';
import { labelText } from '../text/serverText';
import { postTitle } from '../text/postFacts';
import type { BranchPosts } from './branchPosts';

const { l10n } = vscode;

/**
 * The status bar item of the post the branch is about: `$(issues) HD-123`, its title in the
 * tooltip (as text), a click opens it. Shown while signed in and a branch names a post.
 */
export class CurrentPostStatus extends Disposable {
  private readonly item = vscode.window.createStatusBarItem('helpdesk.currentPost', vscode.StatusBarAlignment.Left, 99);
  /** Bumped at each show: a title that arrives for an older one is dropped. */
  private shown = 0;
  private visible = false;
  private tooltip = '';

  constructor(
    private readonly branchPosts: BranchPosts,
    private readonly window: Pick<WindowAccount, 'current' | 'onDidChange'>,
    private readonly peek: (id: number) => Promise<Peek> | undefined,
  ) {
    super();
    this.item.name = l10n.t('Helpdesk: Current Post');
    this.register(branchPosts.onDidChange(() => this.show()));
    this.register(window.onDidChange(() => this.show()));
    this.register(this.item);
    this.show();
  }

  private show(): void {
    const turn = ++this.shown;
    const working = withSignedInNow(
      this.window,
      () => this.branchPosts.current,
      () => undefined,
    )();
    this.visible = working !== undefined;
    if (!working) {
      this.item.hide();
      return;
    }
    const reference = referenceText(working.postId, readSettings().referencePrefix);
    const where = l10n.t('Branch {0} names this post. Click to open it.', working.branch);
    this.item.text = `$(issues) ${reference}`;
    this.setTooltip(`${reference}\n${where}`);
    this.item.command = { command: 'helpdesk.openPost', title: l10n.t('Open Post'), arguments: [working.postId] };
    this.item.accessibilityInformation = { label: l10n.t('Current post {0}', reference) };
    this.item.show();
    void this.peek(working.postId)
      ?.then((peek) => {
        if (turn !== this.shown) return;
        const title =
          'post' in peek ? labelText(postTitle(peek.post), 200) : l10n.t('not on the helpdesk (deleted, or your token cannot see it)');
        this.setTooltip(`${reference} ${title}\n${where}`);
      })
      .catch(() => undefined); // the tooltip keeps the reference alone
  }

  private setTooltip(text: string): void {
    this.tooltip = text;
    this.item.tooltip = text;
  }

  /** What the item shows now (for tests): undefined while hidden. */
  get shownText(): { text: string; tooltip: string } | undefined {
    return this.visible ? { text: this.item.text, tooltip: this.tooltip } : undefined;
  }
}
