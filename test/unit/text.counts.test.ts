import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commentsListedText } from '../../src/text/counts';
import { inLanguage } from './fakeVscode';

/* Counted words (src/text/counts.ts): a count beside a list that shows fewer, or none, reads as a person would say it. */

const polish = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.pl.json'), 'utf8'));

describe('comments counted by the helpdesk, fewer listed (the conversation page)', () => {
  it('none listed: "none", not "0 are listed"; one listed: "is", not "are"', () => {
    assert.equal(commentsListedText(3, 0), 'The helpdesk counts 3 comments. None of them are listed here.');
    assert.equal(commentsListedText(1, 0), 'The helpdesk counts 1 comment. It is not listed here.');
    assert.equal(commentsListedText(3, 1), 'The helpdesk counts 3 comments. Only 1 of them is listed here.');
    assert.equal(commentsListedText(1_200, 40), 'The helpdesk counts 1,200 comments. Only 40 of them are listed here.');
  });

  it('in Polish, each count in its own form', async () => {
    await inLanguage('pl', polish, () => {
      assert.equal(commentsListedText(3, 0), 'Helpdesk liczy 3 komentarze. Żadnego z nich tu nie widać.');
      assert.equal(commentsListedText(1, 0), 'Helpdesk liczy 1 komentarz. Nie widać go tu.');
      assert.equal(commentsListedText(5, 2), 'Helpdesk liczy 5 komentarzy. Widać tu tylko 2 z nich.');
      assert.equal(commentsListedText(22, 1), 'Helpdesk liczy 22 komentarze. Widać tu tylko 1 z nich.');
    });
  });
});
