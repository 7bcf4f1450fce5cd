import vscode = require('vscode');
import type { Me } from '../accounts/identity';
import { labelText } from '../text/serverText';
import { MessageNode } from './nodes';
import type { PostsScope } from '../accounts/scopes';
import { userText } from '../text/postFacts';
import { numberText } from '../text/intl';
import { plural } from '../text/plural';

const { l10n } = vscode;

/** Who the person is, for a label: "user 7 · anna" (the nick is server text, made plain). */
export function whoText(me: Pick<Me, 'id' | 'nick'>): string {
  const nick = labelText(me.nick, 40);
  return nick ? `${userText(me.id)} · ${nick}` : userText(me.id);
}

export function scopeName(scope: PostsScope): string {
  if (scope === 'assignedToMe') return l10n.t('Assigned to Me');
  if (scope === 'filedByMe') return l10n.t('Filed by Me');
  return l10n.t('Everything');
}

/** The quick filter in the view's title, with who "me" is: no filter in use is hidden. */
export function scopeDescription(scope: PostsScope, me: Me | undefined): string | undefined {
  if (scope === 'everything') return undefined;
  if (me) return `${scopeName(scope)} (${whoText(me)})`;
  return scope === 'filedByMe' ? l10n.t('Filed by Me (from VS Code)') : scopeName(scope);
}

/** The row that says who "me" is not known, and sets it when clicked. */
export function whoIAmRow(scope: PostsScope): MessageNode {
  const message =
    scope === 'filedByMe'
      ? l10n.t('Only posts filed from VS Code show: who you are here is not known yet. Click to set it.')
      : l10n.t('Who you are in this account is not known yet. Click to set it.');
  const node = new MessageNode('posts:who-am-i', message, 'account', { command: 'helpdesk.setWhoIAm', title: l10n.t('Set Who I Am…') });
  node.tooltip = l10n.t(
    'Your user id is learned from the answer to the next post you file from VS Code, where the helpdesk names its author. Or set it now: pick yourself among the users of the loaded posts, or type your user id.',
  );
  return node;
}

/** Under a quick filter, when no loaded post is in it and more pages may hold some. */
export function scopeNoneYetText(loaded: number): string {
  return plural(loaded, {
    one: l10n.t({
      message: 'Nothing here in the {0} post loaded so far. "Load more…" looks further.',
      args: [numberText(loaded)],
      comment: 'plural: one',
    }),
    few: l10n.t({
      message: 'Nothing here among the {0} posts loaded so far. "Load more…" looks further.',
      args: [numberText(loaded)],
      comment: 'plural: few',
    }),
    many: l10n.t({
      message: 'Nothing here among the {0} posts loaded so far. "Load more…" looks further.',
      args: [numberText(loaded)],
      comment: 'plural: many',
    }),
    other: l10n.t({
      message: 'Nothing here among the {0} posts loaded so far. "Load more…" looks further.',
      args: [numberText(loaded)],
      comment: 'plural: other',
    }),
  });
}

/** Why the whole list, read to its end, shows no row. */
export function emptyText(loaded: number, scope: PostsScope, filtered: boolean, showClosed: boolean, me: Me | undefined): string {
  if (loaded === 0) return l10n.t('No posts yet.');
  if (scope === 'assignedToMe' && me) {
    if (filtered) return l10n.t('No post assigned to you ({0}) matches the filter.', whoText(me));
    return showClosed
      ? l10n.t('No post is assigned to you ({0}).', whoText(me))
      : l10n.t('No open post is assigned to you ({0}).', whoText(me));
  }
  if (scope === 'filedByMe') {
    if (!me) {
      if (filtered) return l10n.t('No post filed from VS Code matches the filter.');
      return showClosed ? l10n.t('No post filed from VS Code is listed.') : l10n.t('No open post filed from VS Code is listed.');
    }
    if (filtered) return l10n.t('No post filed by you ({0}) matches the filter.', whoText(me));
    return showClosed
      ? l10n.t('You filed no post listed here ({0}).', whoText(me))
      : l10n.t('You filed no open post listed here ({0}).', whoText(me));
  }
  return filtered ? l10n.t('No loaded post matches the filter.') : l10n.t('Every loaded post is closed.');
}
