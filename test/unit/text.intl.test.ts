import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateTimeText, numberText, relativeTime, timeOfDay } from '../../src/text/intl';
import { inLanguage } from './fakeVscode';

/* Numbers, times of day and ages in VS Code's display language (src/text/intl.ts). */

const NBSP = '\u00a0';

describe('numbers, times and ages through Intl in the display language', () => {
  it('numbers: grouped as the language groups them', async () => {
    assert.equal(numberText(12_345), '12,345');
    await inLanguage('pl', {}, () => {
      assert.equal(numberText(12_345), `12${NBSP}345`);
      assert.equal(numberText(1_234), '1234', 'Polish groups from five digits');
      assert.equal(numberText(2.5), '2,5');
    });
  });

  it('a time of day as the language writes it: 24-hour in Polish, AM/PM in English', async () => {
    const at = new Date(2026, 10, 26, 9, 5).getTime();
    await inLanguage('pl', {}, () => {
      assert.equal(timeOfDay(at), '09:05');
      assert.equal(timeOfDay(new Date(2026, 10, 25, 15, 30).getTime()), '15:30');
      assert.equal(timeOfDay(new Date(2026, 10, 25, 0, 0).getTime()), '00:00');
    });
    assert.match(timeOfDay(at), /^9:05\sAM$/);
  });

  it("the service's time stamp as the language writes a date and time; one that is no time, undefined", async () => {
    // Built in the machine's own zone, as the extension shows it.
    const at = new Date(2025, 3, 14, 10, 7).toISOString();
    assert.match(dateTimeText(at) ?? '', /^Apr 14, 2025, 10:07\sAM$/);
    await inLanguage('pl', {}, () => assert.equal(dateTimeText(at), '14 kwi 2025, 10:07'));
    assert.match(dateTimeText('2025-04-14T10:07:00.000+01:00') ?? '', /^Apr 14, 2025, \d{1,2}:07\s[AP]M$/, 'with an offset');
    for (const notATime of ['soon', '', 'x'.repeat(200), undefined, null, 12, {}])
      assert.equal(dateTimeText(notATime), undefined, JSON.stringify(notATime));
  });

  it('an age in the largest whole unit, with the form its number takes', async () => {
    await inLanguage('pl', {}, () => {
      assert.equal(relativeTime(-60), '1 minutę temu');
      assert.equal(relativeTime(-3 * 60), '3 minuty temu');
      assert.equal(relativeTime(-12 * 60), '12 minut temu');
      assert.equal(relativeTime(-22 * 3_600), '22 godziny temu');
      assert.equal(relativeTime(-3 * 86_400), '3 dni temu');
    });
    assert.equal(relativeTime(-5 * 60), '5 minutes ago');
    assert.equal(relativeTime(-86_400), 'yesterday');
    assert.equal(relativeTime(-30), 'this minute');
    await inLanguage('pl', {}, () => assert.equal(relativeTime(-5 * 60, 'en'), '5 minutes ago', 'a language asked for by name'));
  });
});
