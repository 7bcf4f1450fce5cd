import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { mayBeHtml } from '../../src/email/useHtml';
import { matchingPosts } from '../../src/search/matching';
import { contentText } from '../../src/text/contentText';
import { postTitle } from '../../src/text/postFacts';
import { PostNode } from '../../src/views/nodes';
import { matchesFilter } from '../../src/views/postFilter';
import { renderPost } from '../../src/views/postDocument';
import { compare } from '../../src/watch/news';
import { untitledName } from '../../src/watch/watcher';
import { GMAIL_MESSAGE, HIDDEN_MARKER, HOSTILE_ACTIVE, PLAIN_MESSAGE } from '../server/demoEmails';
import { assertReadable, HOSTILE_CONTENTS, shownByMarkdown, USE_HTML_SIDES } from './readableCheck';
import { whoIs } from './whoIs';

/*
 * Issue 49: a post's content, an e-mail's HTML included, as readable text in every place that
 * shows or reads it, on each side of `use_html` (a boolean, a string, left out). Each place's
 * test failed on the code before (it showed or read the markup).
 */

const cases = USE_HTML_SIDES.flatMap(({ side, use_html }, s) =>
  HOSTILE_CONTENTS.map(({ name, content, task_kind }, i) => ({
    what: `${name} (use_html ${side})`,
    post: { id: 100 * (s + 1) + i, content, task_kind, ...(use_html === undefined ? {} : { use_html }) } as Post,
  })),
);
const fresh = (post: Post): Post => ({ ...post });

describe("a post's content as readable text (issue 49)", () => {
  it('the hostile corpus reads as text: no markup, no address that is none, nothing hidden or invisible', () => {
    for (const { what, post } of cases) {
      const shown = contentText(fresh(post));
      assert.equal(shown.html, true, what);
      assertReadable(shown.text, what);
    }
    const active = contentText({ content: HOSTILE_ACTIVE, use_html: true }).text;
    assert.match(active, /Invoice portal <https:\/\/pay\.phish\.example\/inv\/2291>/, 'a link is its text and its address');
    assert.match(active, /Pay now · Pay by card/, 'a javascript: link is its text alone');
  });

  it('a Gmail message: paragraphs, a numbered list, links with their address, the signature gone, the quote folded', () => {
    const { text, quoted } = contentText({ content: GMAIL_MESSAGE, task_kind: 'email' });
    assert.match(text, /^Hi,\n\nTracking shows/);
    assert.match(text, /1\. 2 x label printer\n +2\. 1 x charging dock/);
    assert.doesNotMatch(text, /Bluewater Logistics \| Rotterdam/, 'the signature');
    assert.match(text, /\[quoted earlier messages left out\]$/);
    assert.ok(quoted);
  });

  it('plain text stays as written, whatever looks like a tag in it, and needs no e-mail bundle', () => {
    for (const use_html of [false, 'false', undefined]) {
      const post = { content: PLAIN_MESSAGE, ...(use_html === undefined ? {} : { use_html }) };
      assert.deepEqual(contentText(post), { text: PLAIN_MESSAGE, html: false, truncated: false, quoted: false });
      assert.equal(mayBeHtml(post), false);
    }
    assert.equal(contentText({ content: '<b>bold</b>', use_html: false }).text, '<b>bold</b>', 'use_html false: as written');
    assert.equal(contentText({ content: 'a\u202eb\u200bc' }).text, 'abc', 'invisible characters out, as in all server text');
    assert.equal(mayBeHtml({ content: '  <p>x</p>' }), true);
    assert.equal(mayBeHtml({ content: 'x', use_html: '1' }), true);
  });

  it('cut to the length asked, and said so', () => {
    const long = contentText({ content: 'word '.repeat(1000) }, 100);
    assert.equal(long.text.length, 100);
    assert.ok(long.truncated);
  });

  it("the Helpdesk view's tooltip shows the e-mail as text, escaped", () => {
    for (const { what, post } of cases) {
      const markdown = new PostNode(fresh(post)).tooltipMarkdown(0).value;
      assertReadable(shownByMarkdown(markdown, what), what);
    }
    const portal = shownByMarkdown(
      new PostNode({ id: 1, title: 'Invoice', content: HOSTILE_ACTIVE, use_html: true }).tooltipMarkdown(0).value,
      'x',
    );
    assert.match(portal, /Invoice portal <https:\/\/pay\.phish\.example\/inv\/2291>/);
  });

  it("an untitled post's or comment's title is the start of its text, not of its markup", () => {
    for (const { what, post } of cases) assertReadable(postTitle(fresh(post)), what);
    assert.equal(
      postTitle({ id: 1, content: GMAIL_MESSAGE, use_html: true }),
      'Hi, Tracking shows the parcel stuck in Rotterdam since Mond…',
    );
  });

  it('the post document shows the e-mail as text in its fence, and says it was HTML', () => {
    for (const { what, post } of cases) {
      const document = renderPost(fresh(post), undefined, 'https://acme.example/posts/1');
      const fenced = /^(`{3,})text\n([\s\S]*?)\n\1$/m.exec(document);
      assert.ok(fenced, `${what}: a fenced block`);
      assertReadable(fenced[2]!, what);
      assert.match(document, /^- Content: an HTML e-mail, shown as text$/m, what);
    }
    assert.doesNotMatch(renderPost({ id: 2, content: PLAIN_MESSAGE }, undefined, 'x'), /^- Content:/m, 'plain text is not said to be HTML');
  });

  it('searches match what the e-mail says, never its markup or hidden text', async () => {
    const posts = cases.map(({ post }) => fresh(post));
    const search = async (word: string) => (await matchingPosts(posts, { words: [word], state: 'all' }, () => undefined)).size;
    assert.equal(await search('invoice portal'), USE_HTML_SIDES.length, 'the visible words');
    // (The encoded e-mail writes `<script>` and `onerror=` as text: they are its words, and found.)
    for (const word of ['onmouseover', 'hidden-text', 'display:none', 'phish.example/steal', 'href', 'mso-hide', 'srcdoc'])
      assert.equal(await search(word), 0, word);
    const filter = (text: string) => posts.filter((post) => matchesFilter(post, { text }, true)).length;
    assert.equal(filter('Invoice portal'), USE_HTML_SIDES.length);
    for (const text of ['onmouseover', HIDDEN_MARKER, '<iframe', 'style=']) assert.equal(filter(text), 0, text);
  });

  it('the news of an untitled e-mail names it by its text, not its markup', () => {
    const me = whoIs(7);
    const before = compare(undefined, [], me, 0).snapshot;
    // Comments are news through their post's count, not of their own.
    const posts = cases.filter(({ post }) => post.task_kind !== 'comment').map(({ post }) => ({ ...fresh(post), responsible_id: 7 }));
    const { news } = compare(before, posts, me, 1, untitledName);
    assert.equal(news.length, posts.length);
    for (const item of news) assertReadable(item.title, `news of #${item.id}`);
    assert.ok(
      news.some((item) => item.title.startsWith('Dear customer, your invoice')),
      news.map((n) => n.title).join('\n'),
    );
  });
});
