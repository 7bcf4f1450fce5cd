import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { buildThread } from '../../src/conversation/thread';
import { contentIsHtml } from '../../src/email/contentKind';
import { emailPage } from '../../src/email/toPage';
import * as mail from '../server/demoEmails';
import { checkPage } from './emailPageCheck';

/* The thread a conversation page shows (src/conversation/thread.ts): the post, then its own
 * comments oldest first; e-mails sanitized, text as text; links and images kept on the
 * extension's side, named by number. */

const email = { emailPage, contentIsHtml };
const words = { labels: {}, user: (id: number) => `user ${id}`, time: (value: unknown) => (typeof value === 'string' ? value : '') };

describe('the thread of a conversation page', () => {
  it('the post, then its own comments oldest first, each once; others’ comments are not in it', () => {
    const post: Post = { id: 10, title: 'Parcel', content: 'Where is it?', nick: 'Pieter', created_at: '2025-05-16' };
    const comments: Post[] = [
      { id: 14, post_id: 10, content: 'Second', email: 'a@b.example' },
      { id: 11, post_id: 10, content: 'First', user_id: 7 },
      { id: 12, post_id: 99, content: 'Of another post' },
      { id: 11, post_id: 10, content: 'First' },
    ];
    const thread = buildThread(post, comments, new Set(), email, words);
    assert.deepEqual(
      thread.messages.map((m) => [m.id, m.who, m.comment, m.text]),
      [
        [10, 'Pieter', false, 'Where is it?'],
        [11, 'user 7', true, 'First'],
        [14, 'a@b.example', true, 'Second'],
      ],
    );
  });

  it('the hostile corpus: every message sanitized, links by number only, remote images withheld until asked for that message', () => {
    const post: Post = { id: 1, content: mail.HOSTILE_ACTIVE, use_html: true, task_kind: 'email' };
    const comment: Post = { id: 2, post_id: 1, content: mail.HOSTILE_COMMENT, task_kind: 'comment' };
    const tracked: Post = { id: 3, post_id: 1, content: mail.FORWARD_WITH_IMAGE, use_html: true };
    for (const allowed of [new Set<number>(), new Set([1, 2, 3])]) {
      const thread = buildThread(post, [comment, tracked], allowed, email, words);
      assert.equal(thread.messages.length, 3);
      thread.messages.forEach((message, i) => {
        assert.ok(typeof message.html === 'string', `message ${message.id} is an e-mail`);
        const check = checkPage(message.html, allowed.has(message.id));
        assert.deepEqual(check.problems, [], `message ${message.id}`);
        assert.doesNotMatch(message.html, /<script|\son\w+=|javascript:|href=/i);
        for (const n of check.links) assert.ok(thread.targets[i]!.links[n], 'each link is one of the extension’s list');
        assert.equal(message.imagesShown, allowed.has(message.id));
      });
    }
  });

  it("a plain post's text stays text: what looks like markup is shown as written", () => {
    const post: Post = { id: 5, content: 'The total is <b> when x < y', use_html: false };
    const [message] = buildThread(post, [], new Set(), email, words).messages;
    assert.equal(message?.html, undefined);
    assert.equal(message?.text, 'The total is <b> when x < y');
  });
});
