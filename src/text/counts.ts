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

/**
 * Where fewer comments are listed than the helpdesk counts: "The helpdesk counts 3 comments. Only
 * 1 of them is listed here.", and where none is, says so ("None of them are listed here."), each
 * count in its own form.
 */
export function commentsListedText(counted: number, listed: number): string {
  const total = numberText(counted);
  const shown = numberText(listed);
  const countedText = plural(counted, {
    one: l10n.t({ message: 'The helpdesk counts {0} comment.', args: [total], comment: 'plural: one' }),
    few: l10n.t({ message: 'The helpdesk counts {0} comments.', args: [total], comment: 'plural: few' }),
    many: l10n.t({ message: 'The helpdesk counts {0} comments.', args: [total], comment: 'plural: many' }),
    other: l10n.t({ message: 'The helpdesk counts {0} comments.', args: [total], comment: 'plural: other' }),
  });
  const listedText =
    listed === 0
      ? plural(counted, {
          one: l10n.t({ message: 'It is not listed here.', comment: 'plural: one' }),
          few: l10n.t({ message: 'None of them are listed here.', comment: 'plural: few' }),
          many: l10n.t({ message: 'None of them are listed here.', comment: 'plural: many' }),
          other: l10n.t({ message: 'None of them are listed here.', comment: 'plural: other' }),
        })
      : plural(listed, {
          one: l10n.t({ message: 'Only {0} of them is listed here.', args: [shown], comment: 'plural: one' }),
          few: l10n.t({ message: 'Only {0} of them are listed here.', args: [shown], comment: 'plural: few' }),
          many: l10n.t({ message: 'Only {0} of them are listed here.', args: [shown], comment: 'plural: many' }),
          other: l10n.t({ message: 'Only {0} of them are listed here.', args: [shown], comment: 'plural: other' }),
        });
  return `${countedText} ${listedText}`;
}
