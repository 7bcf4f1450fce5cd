import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Post } from '../../src/api';
import { buildThread, EmailPages } from '../../src/conversation/thread';
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

  describe('built again with the e-mail pages kept (EmailPages)', () => {
    /** The bundle's emailPage, counting the e-mails it is given. */
    const counting = () => {
      const made: string[] = [];
      return {
        made,
        email: {
          contentIsHtml,
          emailPage: (html: string, options?: Parameters<typeof emailPage>[1]) => (made.push(html), emailPage(html, options)),
        },
      };
    };
    const post: Post = { id: 1, content: mail.FORWARD_WITH_IMAGE, use_html: true, task_kind: 'email', created_at: '2025-05-16' };
    const comment: Post = { id: 2, post_id: 1, content: mail.HOSTILE_COMMENT, task_kind: 'comment' };

    it('a thread built again sanitizes nothing again; a changed message, or its images allowed, is made anew', () => {
      const { made, email } = counting();
      const pages = new EmailPages(() => email);
      const first = buildThread(post, [comment], new Set(), pages.forThread(), words);
      const count = made.length;
      assert.ok(count >= 2, 'both e-mails made');
      const again = buildThread(post, [comment], new Set(), pages.forThread(), words);
      assert.equal(made.length, count, 'none made again');
      assert.deepEqual(again, first);
      const edited = { ...comment, content: `${mail.HOSTILE_COMMENT}<p>Edited</p>` };
      const changed = buildThread(post, [edited], new Set(), pages.forThread(), words);
      assert.equal(made.length, count + 1, 'only the edited comment');
      assert.match(changed.messages[1]!.html!, /Edited/);
      const shown = buildThread(post, [edited], new Set([1]), pages.forThread(), words);
      assert.ok(made.length > count + 1, 'the post with its images is another page');
      assert.deepEqual(shown, buildThread(post, [edited], new Set([1]), email, words));
    });

    it('what the last thread did not use is let go: a comment gone and back is made again', () => {
      const { made, email } = counting();
      const pages = new EmailPages(() => email);
      buildThread(post, [comment], new Set(), pages.forThread(), words);
      buildThread(post, [], new Set(), pages.forThread(), words);
      const before = made.filter((html) => html === comment.content).length;
      buildThread(post, [comment], new Set(), pages.forThread(), words);
      assert.equal(made.filter((html) => html === comment.content).length, before + 1);
    });

    it('over any sequence of updates, comments and images allowed, the thread is the one built afresh', () => {
      const contents = [mail.FORWARD_WITH_IMAGE, mail.HOSTILE_COMMENT, mail.HOSTILE_ACTIVE, 'Plain <b> text', '<p>Short</p>'];
      const step = fc.record({
        postContent: fc.constantFrom(...contents),
        comments: fc.array(fc.record({ id: fc.integer({ min: 2, max: 5 }), content: fc.constantFrom(...contents), html: fc.boolean() }), {
          maxLength: 4,
        }),
        allowed: fc.subarray([1, 2, 3, 4, 5]),
      });
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
          const pages = new EmailPages(() => email);
          for (const s of steps) {
            const p: Post = { ...post, content: s.postContent };
            const cs: Post[] = s.comments.map((c) => ({ id: c.id, post_id: 1, content: c.content, use_html: c.html }));
            const allowed = new Set(s.allowed);
            assert.deepEqual(buildThread(p, cs, allowed, pages.forThread(), words), buildThread(p, cs, allowed, email, words));
          }
        }),
        { numRuns: 40 },
      );
    });
  });
});
