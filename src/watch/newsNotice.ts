import vscode = require('vscode');
import { labelText } from '../text/serverText';
import type { Notifier } from '../ui/notifier';
import { hostOf, postUri } from '../views/postUri';
import type { HeldNews } from './news';
import type { WatcherHost } from './watcherHost';
import { numberText } from '../text/intl';
import { plural } from '../text/plural';

const { l10n } = vscode;

/**
 * The notification of a poll's news, and its buttons: each opens what it told of, in the account
 * it told of (`accountUrl`), whichever account the window uses by the time a button is pressed.
 */
export async function tellNews(
  items: readonly HeldNews[],
  accountUrl: string,
  window: { ui: Notifier; host: Pick<WatcherHost, 'run'>; accountUrl: () => string | undefined },
): Promise<void> {
  const open = l10n.t('Open');
  const showAll = l10n.t('Show');
  const one = items.length === 1 ? items[0] : undefined;
  const choice = one ? await window.ui.info(describeOne(one), open, showAll) : await window.ui.info(describeMany(items), showAll);
  if (choice === open && one) await window.host.run('helpdesk.openPost', postUri(one.id, accountUrl));
  if (choice !== showAll) return;
  const now = window.accountUrl();
  if (now === accountUrl) await window.host.run('helpdesk.showNews');
  else
    await window.ui.info(
      now
        ? l10n.t('That news is of the account {0}; this window now uses {1}. Switch to {0} to see it.', hostOf(accountUrl), hostOf(now))
        : l10n.t('That news is of the account {0}. Sign in to it to see it.', hostOf(accountUrl)),
    );
}

function titleOf(item: HeldNews): string {
  return `"${labelText(item.title, 60) || l10n.t('(no title)')}" (#${item.id})`;
}

/** What the poll that told it found. */
const latestOf = (item: HeldNews) => item.latest ?? item.changes;

function describeOne(item: HeldNews): string {
  const title = titleOf(item);
  const changes = latestOf(item);
  if (changes.includes('assigned'))
    return changes.includes('new') ? l10n.t('A new post is assigned to you: {0}.', title) : l10n.t('Assigned to you: {0}.', title);
  if (changes.includes('commented')) return l10n.t('New comments on {0}.', title);
  if (changes.includes('closed')) return l10n.t('Closed: {0}.', title);
  if (changes.includes('reopened')) return l10n.t('Reopened: {0}.', title);
  return l10n.t('New post: {0}.', title);
}

function describeMany(items: readonly HeldNews[]): string {
  const titles = items.slice(0, 3).map(titleOf).join(', ') + (items.length > 3 ? ', …' : '');
  if (items.every((item) => latestOf(item).includes('assigned')))
    return plural(items.length, {
      one: l10n.t({ message: '{0} post assigned to you: {1}.', args: [numberText(items.length), titles], comment: 'plural: one' }),
      few: l10n.t({ message: '{0} posts assigned to you: {1}.', args: [numberText(items.length), titles], comment: 'plural: few' }),
      many: l10n.t({ message: '{0} posts assigned to you: {1}.', args: [numberText(items.length), titles], comment: 'plural: many' }),
      other: l10n.t({ message: '{0} posts assigned to you: {1}.', args: [numberText(items.length), titles], comment: 'plural: other' }),
    });
  return plural(items.length, {
    one: l10n.t({ message: '{0} helpdesk post has news: {1}.', args: [numberText(items.length), titles], comment: 'plural: one' }),
    few: l10n.t({ message: '{0} helpdesk posts have news: {1}.', args: [numberText(items.length), titles], comment: 'plural: few' }),
    many: l10n.t({ message: '{0} helpdesk posts have news: {1}.', args: [numberText(items.length), titles], comment: 'plural: many' }),
    other: l10n.t({ message: '{0} helpdesk posts have news: {1}.', args: [numberText(items.length), titles], comment: 'plural: other' }),
  });
}
