// A count's words in the form its number takes in VS Code's display language: Polish has three
// for whole numbers (1; 2–4, 22–24…; 0, 5–21, 25…, so 12–14 too), English two. Each form is a
// message of its own, given as
//   one:   l10n.t({ message: '{0} comment', args: [n], comment: 'plural: one' }),
//   few:   l10n.t({ message: '{0} comments', args: [n], comment: 'plural: few' }),
//   many:  l10n.t({ message: '{0} comments', args: [n], comment: 'plural: many' }),
//   other: l10n.t({ message: '{0} comments', args: [n], comment: 'plural: other' }),
// so the bundle holds each form under its own key ("{0} comments/plural: few"); in English the
// few, many and other messages are the same. test/unit/l10n.coverage.test.ts holds each site to all four.
import { kept } from './intl';

/** A count's words in each form (the CLDR categories Polish uses). */
export interface PluralForms {
  /** 1 */
  readonly one: string;
  /** Polish 2–4, 22–24, 32–34… (not 12–14); unused in English */
  readonly few: string;
  /** Polish 0, 5–21, 25–31…; unused in English */
  readonly many: string;
  /** English 0, 2, 3…; Polish fractions; and the forms of other languages that the strings have not */
  readonly other: string;
}

const rules = kept((tag) => new Intl.PluralRules(tag));

/** The form of `count`'s words in the display language. */
export function plural(count: number, forms: PluralForms): string {
  const category = rules().select(count);
  return category === 'one' || category === 'few' || category === 'many' ? forms[category] : forms.other;
}
