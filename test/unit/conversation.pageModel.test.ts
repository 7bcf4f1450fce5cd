import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { clientCard, postFactsOf } from '../../src/conversation/pageModel';
import { timeText } from '../../src/text/postFacts';
import { buildThread } from '../../src/conversation/thread';
import { contentIsHtml } from '../../src/email/contentKind';
import { emailPage } from '../../src/email/toPage';
import { inLanguage } from './fakeVscode';

/* What the conversation page is sent to show (src/conversation/pageModel.ts), in the person's words. */

// Built in the machine's own zone, as the extension shows it.
const CREATED = new Date(2025, 3, 14, 10, 7).toISOString();
const UPDATED = new Date(2025, 4, 19, 9, 30).toISOString();

describe("the conversation page's words", () => {
  it("a post's times as dates and times of the display language, not as the service wrote them", async () => {
    const post: Post = { id: 21, title: 'Order #4471 has not arrived', created_at: CREATED, updated_at: UPDATED, comments_cache: 1234 };
    const facts = () => Object.fromEntries(postFactsOf(post, undefined).map((fact) => [fact.name, fact.value]));
    assert.match(facts().Created ?? '', /^Apr 14, 2025, 10:07\sAM$/);
    assert.match(facts().Updated ?? '', /^May 19, 2025, 9:30\sAM$/);
    assert.equal(facts().Comments, '1,234');
    await inLanguage('pl', {}, () => {
      assert.equal(facts().Created, '14 kwi 2025, 10:07');
      assert.equal(facts().Comments, '1234');
    });
  });

  it('the person assigned by name where the loaded posts give it, else by number', async () => {
    const assigned: Post = { id: 21, responsible_id: 3 };
    const assignee = (posts?: Post[]) => postFactsOf(assigned, undefined, posts).find((fact) => fact.name === 'Assigned to')?.value;
    assert.equal(assignee([{ id: 4, user_id: 3, nick: 'ben' }]), 'ben (user 3)');
    assert.equal(assignee([{ id: 4, user_id: 2, nick: 'anna' }]), 'user 3');
    assert.equal(assignee(), 'user 3');
  });

  it('a time the service wrote as no time is shown as it wrote it (made plain); none, left out', () => {
    assert.equal(timeText('yesterday\u0000 noon'), 'yesterday noon');
    const facts = postFactsOf({ id: 1, created_at: 'soon' }, undefined).map((fact) => [fact.name, fact.value]);
    assert.deepEqual(facts, [
      ['Post', '#1'],
      ['State', 'open'],
      ['Created', 'soon'],
    ]);
  });

  it("each message's time in the thread is the same words", () => {
    const post: Post = { id: 21, content: 'Where is it?', created_at: CREATED };
    const comment: Post = { id: 22, post_id: 21, content: 'Arrived.', created_at: UPDATED };
    const words = { labels: {}, user: (id: number) => `user ${id}`, time: timeText };
    const thread = buildThread(post, [comment], new Set(), { emailPage, contentIsHtml }, words);
    assert.deepEqual(
      thread.messages.map((m) => m.when),
      [timeText(CREATED), timeText(UPDATED)],
    );
    assert.match(thread.messages[0]!.when, /^Apr 14, 2025, 10:07\sAM$/);
  });

  it("the customer card's counts stand under their headings as sentences, and say only that it is loading while it is", async () => {
    const client = { id: 2, name: 'Bluewater Logistics' };
    assert.deepEqual([clientCard(2, undefined, client).postsCount, clientCard(2, undefined, client).dealsCount], ['Loading…', 'Loading…']);
    const none = clientCard(2, { clientId: 2, client, posts: { open: [], looked: 50, all: false }, deals: { items: [] } }, client);
    assert.equal(none.postsCount, 'No other open post among the 50 newest posts');
    assert.equal(none.dealsCount, 'No deals');
    const some = clientCard(
      2,
      {
        clientId: 2,
        client,
        posts: { open: [{ id: 3, title: 'Invoice' }], looked: 9, all: true },
        deals: { items: [{ id: 5, name: 'Gold' }] },
      },
      client,
    );
    assert.deepEqual([some.postsCount, some.dealsCount, some.posts], ['1 other open post', '1 deal', [{ id: 3, title: '#3 Invoice' }]]);
    // Another account's post: no list of its posts here, so none is looked for, while or after its deals are read.
    assert.equal(clientCard(2, undefined, client, { postsListed: false }).postsCount, 'Listed when this window uses this post’s account.');
    const elsewhere = clientCard(2, { clientId: 2, client, deals: { items: [] } }, client, { postsListed: false });
    assert.deepEqual([elsewhere.postsCount, elsewhere.dealsCount], ['Listed when this window uses this post’s account.', 'No deals']);
    await inLanguage('pl', { 'no deals': 'brak szans sprzedaży', 'Loading…': 'Wczytywanie…' }, () => {
      assert.equal(clientCard(2, undefined, client).postsCount, 'Wczytywanie…');
      assert.equal(
        clientCard(2, { clientId: 2, client, posts: { open: [], looked: 1, all: true }, deals: { items: [] } }, client).dealsCount,
        'Brak szans sprzedaży',
      );
    });
  });
});
