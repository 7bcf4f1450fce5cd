import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plural, type PluralForms } from '../../src/text/plural';
import { inLanguage } from './fakeVscode';

/* A count's words in the form its number takes in VS Code's display language (src/text/plural.ts). */

const FORMS: PluralForms = { one: 'one', few: 'few', many: 'many', other: 'other' };
const formsOf = (counts: number[]) => counts.map((count) => plural(count, FORMS));

describe('plural forms by the display language', () => {
  it('Polish: 1; 2–4, 22–24, 102–104; 0, 5–21 (12–14 too), 25…; fractions', async () => {
    await inLanguage('pl', {}, () => {
      assert.deepEqual(formsOf([1, 2, 3, 4, 22, 23, 24, 102, 1_002]), ['one', ...Array(8).fill('few')]);
      assert.deepEqual(formsOf([0, 5, 11, 12, 13, 14, 21, 25, 111, 112, 1_000]), Array(11).fill('many'));
      assert.equal(plural(1.5, FORMS), 'other');
    });
  });

  it('English: 1, and the rest', () => {
    assert.deepEqual(formsOf([1, 0, 2, 5, 12, 22]), ['one', ...Array(5).fill('other')]);
  });

  it('a language with forms of its own that the strings have not (Arabic: zero, two): those are "other"', async () => {
    await inLanguage('ar', {}, () => assert.deepEqual(formsOf([0, 1, 2]), ['other', 'one', 'other']));
  });

  it('a display language Intl does not take is English (no exception)', async () => {
    await inLanguage('not a tag!', {}, () => assert.deepEqual(formsOf([1, 2, 5]), ['one', 'other', 'other']));
  });
});
