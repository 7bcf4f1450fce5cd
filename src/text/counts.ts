// Counted words that several messages take as a part of theirs.
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
