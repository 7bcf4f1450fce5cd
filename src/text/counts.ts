// Counted words: those several messages take as a part of theirs, and counts that are sentences of their own.
import vscode = require('vscode');
import { numberText } from './intl';
import { plural } from './plural';

const { l10n } = vscode;

/** "1 character", "300 characters"; in Polish "1 znak", "2 znaki", "300 znaków" (as a subject or an object). */
export function charactersText(count: number): string {
  return plural(count, {
    one: l10n.t({ message: '{0} character', args: [numberText(count)], comment: 'plural: one' }),
    few: l10n.t({ message: '{0} characters', args: [numberText(count)], comment: 'plural: few' }),
    many: l10n.t({ message: '{0} characters', args: [numberText(count)], comment: 'plural: many' }),
    other: l10n.t({ message: '{0} characters', args: [numberText(count)], comment: 'plural: other' }),
  });
}

/** Where fewer comments are listed than the helpdesk counts: how many of each. */
export function commentsListedText(counted: number, listed: number): string {
  const args = [numberText(counted), numberText(listed)];
  return plural(counted, {
    one: l10n.t({ message: 'The helpdesk counts {0} comment; {1} are listed here.', args, comment: 'plural: one' }),
    few: l10n.t({ message: 'The helpdesk counts {0} comments; {1} are listed here.', args, comment: 'plural: few' }),
    many: l10n.t({ message: 'The helpdesk counts {0} comments; {1} are listed here.', args, comment: 'plural: many' }),
    other: l10n.t({ message: 'The helpdesk counts {0} comments; {1} are listed here.', args, comment: 'plural: other' }),
  });
}
