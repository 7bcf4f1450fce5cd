import vscode = require('vscode');
import { changeText, ROW_SCHEME } from './nodes';
import type { PostsNews } from './postsTree';

const { l10n } = vscode;

/**
 * Marks on the posts' rows, as Source Control marks changed files: N for news the person has not
 * seen (new, assigned to them, comments, closed, reopened), U for a post the helpdesk says is
 * unread (whose unread it is, the service does not document: "unread in the helpdesk").
 */
export class RowDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly news: PostsNews) {
    this.subscription = news.onDidChange(() => this.changed.fire(undefined));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== ROW_SCHEME) return undefined;
    const id = Number(/^\/post\/(\d+)$/.exec(uri.path)?.[1]);
    if (!Number.isSafeInteger(id)) return undefined;
    const unread = uri.query === 'unread';
    const item = this.news.itemOf(id);
    if (item && this.news.isSeen(id) === false) {
      const what = item.changes.map(changeText).join(', ');
      const tooltip = unread
        ? l10n.t('New since you last looked: {0}. Unread in the helpdesk.', what)
        : l10n.t('New since you last looked: {0}.', what);
      return new vscode.FileDecoration('N', tooltip, new vscode.ThemeColor('helpdesk.newsForeground'));
    }
    if (unread)
      return new vscode.FileDecoration('U', l10n.t('Unread in the helpdesk.'), new vscode.ThemeColor('helpdesk.unreadForeground'));
    return undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
