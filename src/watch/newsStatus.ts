import vscode = require('vscode');
import type { NewsWatcher } from './watcher';
import { numberText, timeOfDay } from '../text/intl';
import { plural } from '../text/plural';

const { l10n } = vscode;

/**
 * The news for the person where they see it without looking for it: a count in the status bar
 * (its tooltip says when the news was read, and why not when it failed) and the Helpdesk view's
 * badge. Clicking the count opens the view on Assigned to Me.
 */
export function showNewsCount(watcher: NewsWatcher, postsView: vscode.TreeView<unknown>): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('helpdesk.news', vscode.StatusBarAlignment.Left, 9);
  item.name = l10n.t('Helpdesk News');
  item.command = { command: 'helpdesk.showNews', title: l10n.t('Show News'), arguments: ['assignedToMe'] };
  const update = () => {
    const { polledAt, nextAt, problem, off } = watcher.status;
    if (off) {
      item.hide();
      postsView.badge = undefined;
      return;
    }
    const count = watcher.unseenForMe.length;
    item.text = count > 0 ? `$(bell-dot) ${count}` : '$(bell)';
    const lines = [
      count > 0
        ? plural(count, {
            one: l10n.t({ message: 'Helpdesk: {0} post with news for you.', args: [numberText(count)], comment: 'plural: one' }),
            few: l10n.t({ message: 'Helpdesk: {0} posts with news for you.', args: [numberText(count)], comment: 'plural: few' }),
            many: l10n.t({ message: 'Helpdesk: {0} posts with news for you.', args: [numberText(count)], comment: 'plural: many' }),
            other: l10n.t({ message: 'Helpdesk: {0} posts with news for you.', args: [numberText(count)], comment: 'plural: other' }),
          })
        : l10n.t('Helpdesk: no news for you.'),
    ];
    if (problem) lines.push(l10n.t('The last read failed: {0} Next try at {1}.', problem, nextAt ? timeOfDay(nextAt) : '?'));
    else if (polledAt) lines.push(l10n.t('Read at {0}; next at {1}.', timeOfDay(polledAt), nextAt ? timeOfDay(nextAt) : '?'));
    item.tooltip = lines.join('\n');
    item.backgroundColor = undefined;
    item.show();
    postsView.badge =
      count > 0
        ? {
            value: count,
            tooltip: plural(count, {
              one: l10n.t({ message: '{0} post with news for you', args: [numberText(count)], comment: 'plural: one' }),
              few: l10n.t({ message: '{0} posts with news for you', args: [numberText(count)], comment: 'plural: few' }),
              many: l10n.t({ message: '{0} posts with news for you', args: [numberText(count)], comment: 'plural: many' }),
              other: l10n.t({ message: '{0} posts with news for you', args: [numberText(count)], comment: 'plural: other' }),
            }),
          }
        : undefined;
  };
  update();
  const subscription = watcher.onDidChangeStatus(update);
  return new vscode.Disposable(() => {
    subscription.dispose();
    item.dispose();
  });
}
