import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ageText,
  clientText,
  commentsText,
  foreignPostFacts,
  kindText,
  postFacts,
  postTitle,
  stateText,
  statusText,
} from '../../src/text/postFacts';
import { inLanguage } from './fakeVscode';

/* A post's facts are worded once (src/text/postFacts.ts) for the tree, the hover, the document and the agent's tools. */

const NOW = Date.parse('2026-11-26T12:00:00Z');
const post = (fields: Partial<Post>): Post => ({ id: 7, ...fields });

describe("a post's facts in words", () => {
  it('in one order: kind, status, open or closed, client, comments, age; none it lacks', () => {
    const full = post({
      kind: 'error',
      task_kind: 'task',
      status_id: 2,
      closed: false,
      client_id: 4,
      comments_cache: 3,
      created_at: '2026-11-23T12:00:00Z',
    });
    assert.deepEqual(postFacts(full, { statuses: new Map([[2, 'In progress']]), clients: [{ id: 4, name: 'Acme' }], now: NOW }), [
      'error / task',
      'In progress',
      'open',
      'Acme',
      '3 comments',
      '3 days ago',
    ]);
    assert.deepEqual(postFacts(post({ closed: true }), { now: NOW }), ['closed']);
  });

  it('names a status or a client by number where the names are not known', () => {
    const numbered = post({ status_id: 2, client_id: 4, comments_cache: 1 });
    assert.deepEqual(postFacts(numbered, { now: NOW }), ['status #2', 'open', 'client #4', '1 comment']);
    assert.equal(statusText(numbered, new Map([[2, '  ']])), 'status #2', 'a blank name is no name');
    assert.equal(clientText(numbered, [{ id: 4, name: '' }]), 'client #4');
    assert.equal(statusText(post({}), undefined), undefined);
    assert.equal(clientText(post({ client_id: '4' as unknown as number }), []), undefined, 'a client id that is not a number is left out');
  });

  it("another account's post: no status or client (its numbers would name another thing here)", () => {
    assert.deepEqual(foreignPostFacts(post({ kind: 'question', status_id: 2, client_id: 4, created_at: '2026-11-26T11:59:30Z' }), NOW), [
      'question',
      'open',
      'this minute',
    ]);
  });

  it('kind and task kind each once; server text made plain and short', () => {
    assert.equal(kindText(post({ kind: 'error', task_kind: 'error' })), 'error');
    assert.equal(kindText(post({ task_kind: 'phone' })), 'phone');
    assert.equal(kindText(post({})), undefined);
    assert.equal(kindText(post({ kind: 'a\nb\u202e'.repeat(20) as Post['kind'] }))!.length <= 20, true);
    assert.ok(!/[\n\u202e]/.test(kindText(post({ kind: 'a\nb\u202e' as Post['kind'] }))!));
  });

  it('the title, else the start of the content, else the number', () => {
    assert.equal(postTitle(post({ title: 'Crash' })), 'Crash');
    assert.equal(postTitle(post({ title: '', content: 'x'.repeat(100) })).length <= 60, true);
    assert.equal(postTitle(post({})), 'Post #7');
  });

  it('an age from any time, none from what cannot be read', () => {
    assert.equal(ageText(post({ created_at: '2025-11-26T12:00:00Z' }), NOW), 'last year');
    assert.equal(ageText(post({ created_at: '2026-11-26T09:00:00Z' }), NOW), '3 hours ago');
    assert.equal(ageText(post({ created_at: 'yesterday' }), NOW), undefined);
    assert.equal(ageText(post({ created_at: 12 as unknown as string }), NOW), undefined);
    assert.equal(stateText({ closed: true }), 'closed');
    assert.equal(stateText({}), 'open');
  });
});

describe("a post's facts in Polish (l10n/bundle.l10n.pl.json)", () => {
  const polish = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.pl.json'), 'utf8'));

  it('comments in the form each number takes: 1; 2–4, 22–24; 5–21, 12–14 too', async () => {
    const counts = [1, 2, 4, 5, 12, 14, 21, 22, 1_000];
    const words = await inLanguage('pl', polish, () => counts.map((count) => commentsText(post({ comments_cache: count }))));
    assert.deepEqual(words, [
      '1 komentarz',
      '2 komentarze',
      '4 komentarze',
      '5 komentarzy',
      '12 komentarzy',
      '14 komentarzy',
      '21 komentarzy',
      '22 komentarze',
      '1000 komentarzy',
    ]);
    assert.deepEqual(
      [1, 3, 12].map((count) => commentsText(post({ comments_cache: count }))),
      ['1 comment', '3 comments', '12 comments'],
    );
  });

  it('an age in Polish', async () => {
    const age = await inLanguage('pl', polish, () => ageText(post({ created_at: '2026-11-23T12:00:00Z' }), NOW));
    assert.equal(age, '3 dni temu');
  });

  it('kinds by their Polish names; a kind the service adds, as it sends it', async () => {
    const kinds = await inLanguage('pl', polish, () => [
      kindText(post({ kind: 'error', task_kind: 'task' })),
      kindText(post({ kind: 'question' })),
      kindText(post({ task_kind: 'phone' })),
      kindText(post({ kind: 'novel' as Post['kind'] })),
    ]);
    assert.deepEqual(kinds, ['błąd / zadanie', 'pytanie', 'telefon', 'novel']);
  });
});
