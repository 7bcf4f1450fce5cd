import vscode = require('vscode');
import type { Notifier } from '../ui/notifier';
import type { PostsTreeProvider } from '../views/postsTree';
import type { NewsWatcher } from '../watch/watcher';
import { targetPost } from './targets';
import { plural } from '../text/plural';
import { numberText } from '../text/intl';

const { l10n } = vscode;

/**
 * Show News (a notification's Show, the palette): the Helpdesk view on Changed Only, over every
 * post (the news on mine is marked). From the status bar's bell (`'assignedToMe'`): the view on
 * Assigned to Me, every post of it.
 */
export async function showNews(posts: PostsTreeProvider, arg: unknown): Promise<void> {
  await vscode.commands.executeCommand('helpdesk.posts.focus');
  const mine = arg === 'assignedToMe';
  posts.setChangedOnly(!mine);
  await posts.setScope(mine ? 'assignedToMe' : 'everything');
}

/** Mark as Seen / Mark as Unseen on a post's row (or its document): its news stays listed. */
export async function markPostSeen(watcher: NewsWatcher, arg: unknown, seen: boolean): Promise<void> {
  const post = targetPost(arg);
  if (post) await watcher.markSeen([post.id], seen);
}

/** Mark All as Seen, with an Undo that takes back the marks it made (not awaited: the command is done). */
export async function markAllNewsSeen(watcher: NewsWatcher, ui: Notifier): Promise<number[]> {
  const marked = await watcher.markSeen(undefined);
  if (marked.length === 0) return marked;
  const undo = l10n.t('Undo');
  void ui
    .info(
      plural(marked.length, {
        one: l10n.t({ message: 'Marked the news on {0} post as seen.', args: [numberText(marked.length)], comment: 'plural: one' }),
        few: l10n.t({ message: 'Marked the news on {0} posts as seen.', args: [numberText(marked.length)], comment: 'plural: few' }),
        many: l10n.t({ message: 'Marked the news on {0} posts as seen.', args: [numberText(marked.length)], comment: 'plural: many' }),
        other: l10n.t({ message: 'Marked the news on {0} posts as seen.', args: [numberText(marked.length)], comment: 'plural: other' }),
      }),
      undo,
    )
    .then(async (choice) => {
      if (choice === undo) await watcher.markSeen(marked, false);
    });
  return marked;
}
