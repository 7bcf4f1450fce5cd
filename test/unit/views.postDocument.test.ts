import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { renderPost } from '../../src/views/postDocument';
import { inLanguage } from './fakeVscode';

/* A post's document (Open as Text): its facts in the display language's words, as the conversation page shows them. */

const polish = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.pl.json'), 'utf8'));
const link = 'https://acme.sugester.com/app/posts/21';

/** The document's facts by name ("- Created: …"). */
function factsOf(document: string): Record<string, string> {
  return Object.fromEntries([...document.matchAll(/^- ([^:\n]+): (.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe("a post's document", () => {
  // As the service writes its times ("2025-04-14 09:07:00", read in the machine's zone).
  const post: Post = {
    id: 21,
    title: 'Order #4471',
    created_at: '2025-04-14 09:07:00',
    updated_at: '2025-05-19 16:30:00',
    comments_cache: 1234,
  };

  it('shows the times as dates and times of the display language, not as the service wrote them', async () => {
    const facts = factsOf(renderPost(post, undefined, link));
    assert.match(facts.Created ?? '', /^Apr 14, 2025, 9:07\sAM$/);
    assert.match(facts.Updated ?? '', /^May 19, 2025, 4:30\sPM$/);
    assert.equal(facts.Comments, '1,234');
    await inLanguage('pl', polish, () => {
      const polishFacts = factsOf(renderPost(post, undefined, link));
      assert.equal(polishFacts.Utworzono, '14 kwi 2025, 09:07');
      assert.equal(polishFacts.Zaktualizowano, '19 maj 2025, 16:30');
      assert.equal(polishFacts.Komentarze, '1234');
    });
  });

  it('names the person assigned where the loaded posts give their name, else by number', async () => {
    const assigned: Post = { id: 21, title: 'Order #4471', responsible_id: 2 };
    const loaded: Post[] = [
      { id: 5, user_id: 2, nick: 'ania' },
      { id: 9, user_id: 2, nick: 'anna' },
      { id: 7, user_id: 3, nick: 'ben' },
    ];
    assert.equal(
      factsOf(renderPost(assigned, undefined, link, { posts: loaded }))['Assigned to'],
      'anna (user 2)',
      "their newest post's nick",
    );
    assert.equal(factsOf(renderPost(assigned, undefined, link, { posts: loaded.slice(2) }))['Assigned to'], 'user 2');
    assert.equal(factsOf(renderPost(assigned, undefined, link))['Assigned to'], 'user 2', "another account's post: by number");
    await inLanguage('pl', polish, () =>
      assert.equal(factsOf(renderPost(assigned, undefined, link, { posts: loaded }))['Przypisane do'], 'anna (użytkownik 2)'),
    );
  });

  it('shows a time the service wrote as no time as it wrote it, escaped as before', () => {
    const facts = factsOf(renderPost({ id: 21, created_at: 'soon *really*' }, undefined, link));
    assert.equal(facts.Created, 'soon \\*really\\*');
  });
});
