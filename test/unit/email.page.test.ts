import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emailPage } from '../../src/email/toPage';
import { emailText } from '../../src/email/toText';
import * as mail from '../server/demoEmails';
import { checkPage } from './emailPageCheck';

/* An e-mail as sanitized HTML for a webview page (src/email/toPage.ts), read back as a browser
 * reads it (parse5): only the allow-list, links as numbers for the extension to open, images as
 * placeholders unless the person asked, quoted history folded, nothing hidden, nothing to run. */

const text = (html: string) => emailText(html).text;

const ALL = {
  OUTLOOK_REPLY: mail.OUTLOOK_REPLY,
  GMAIL_MESSAGE: mail.GMAIL_MESSAGE,
  PLAIN_MESSAGE: mail.PLAIN_MESSAGE,
  TEMPLATED_MESSAGE: mail.TEMPLATED_MESSAGE,
  FORWARD_WITH_IMAGE: mail.FORWARD_WITH_IMAGE,
  OUTLOOK_REPLY_COMMENT: mail.OUTLOOK_REPLY_COMMENT,
  GMAIL_REPLY_COMMENT: mail.GMAIL_REPLY_COMMENT,
  HOSTILE_ACTIVE: mail.HOSTILE_ACTIVE,
  HOSTILE_HIDDEN: mail.HOSTILE_HIDDEN,
  HOSTILE_ENCODED: mail.HOSTILE_ENCODED,
  HOSTILE_BROKEN: mail.HOSTILE_BROKEN,
  HOSTILE_COMMENT: mail.HOSTILE_COMMENT,
};

/** What may never be in page HTML, whatever the browser makes of it. */
const NEVER = [
  /<script/i,
  /\son\w+\s*=/i,
  /javascript:/i,
  /vbscript:/i,
  /data:/i,
  /\sstyle\s*=/i,
  /\sclass\s*=/i,
  /\sid\s*=/i,
  /\shref\s*=/i,
  /<(iframe|object|embed|form|input|svg|math|base|meta|link|style|template|textarea)/i,
];

describe('an e-mail as page HTML', () => {
  it('the whole corpus, read as a browser reads it: only the allow-list, no handler, no address that runs, no style, nothing hidden', () => {
    for (const [name, html] of Object.entries(ALL)) {
      for (const remoteImages of [false, true]) {
        const page = emailPage(html, { remoteImages, quotedHistory: 'open' });
        // Its text escapes every <: each < begins a tag of the page's.
        const tags = (page.html.match(/<[^>]*>/g) ?? []).join('\n');
        for (const never of NEVER) assert.ok(!never.test(tags), `${name}: ${never} in ${tags}`);
        const check = checkPage(page.html, remoteImages);
        assert.deepEqual(check.problems, [], name);
        assert.ok(!check.text.includes(mail.HIDDEN_MARKER), name);
        assert.ok(
          check.links.every((n) => Number.isInteger(n) && n >= 0 && n < page.links.length),
          `${name}: every link is one of links[]`,
        );
        for (const link of page.links) assert.match(link, /^(https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+)$/, name);
        for (const image of page.images) assert.match(image, /^https?:\/\//, name);
      }
    }
  });

  it("Gmail's message: links by number in document order, the signature gone, the quote in a closed <details>", () => {
    const page = emailPage(mail.GMAIL_MESSAGE);
    assert.deepEqual(page.links, [
      'https://shop.bluewater.example/orders/4471',
      'mailto:support@acme.example',
      'https://tracking.example/JJD0002249123',
    ]);
    assert.ok(
      page.html.includes(
        '<a data-hb-link="0" title="https://shop.bluewater.example/orders/4471" tabindex="0" role="link">shop.bluewater.example/orders/4471</a>',
      ),
      page.html,
    );
    assert.ok(page.html.includes('<details data-hb-quote="quoted"><summary>Quoted earlier messages</summary>'));
    assert.ok(!page.html.includes(' open'), 'closed');
    assert.ok(!page.html.includes('Bluewater Logistics | Rotterdam'), 'the signature');
    const omitted = emailPage(mail.GMAIL_MESSAGE, { quotedHistory: 'omitted' });
    assert.ok(omitted.html.includes('<details data-hb-quote="omitted"><summary>Quoted earlier messages</summary></details>'), omitted.html);
    assert.ok(!omitted.html.includes('Hello Pieter'));
  });

  it('images: cid: a placeholder; remote: a placeholder with its number unless allowed, then <img src> for http(s) only; the pixel gone', () => {
    const blocked = emailPage(mail.TEMPLATED_MESSAGE);
    assert.deepEqual(blocked.images, ['https://cdn.evergreen-pg.example/mail/logo.png']);
    assert.ok(
      blocked.html.includes(
        '<span data-hb-image="remote" role="img" aria-label="Evergreen Property Group" data-hb-index="0">[image: Evergreen Property Group]</span>',
      ),
      blocked.html,
    );
    assert.ok(!/<img/.test(blocked.html) && !blocked.html.includes('t.evergreen-pg.example'), 'no image, no tracking pixel');
    const shown = emailPage(mail.TEMPLATED_MESSAGE, { remoteImages: true });
    assert.ok(
      shown.html.includes('<img src="https://cdn.evergreen-pg.example/mail/logo.png" alt="Evergreen Property Group" />'),
      shown.html,
    );
    assert.deepEqual(shown.images, []);
    assert.ok(!shown.html.includes('t.evergreen-pg.example'), 'the tracking pixel is never loaded');
    const inline = emailPage(mail.FORWARD_WITH_IMAGE, { remoteImages: true, quotedHistory: 'open' });
    assert.ok(
      inline.html.includes('<span data-hb-image="inline" role="img" aria-label="Data flow diagram: clinic, helpdesk, backups">'),
      inline.html,
    );
    const broken = emailPage(mail.HOSTILE_BROKEN, { remoteImages: true });
    assert.ok(broken.html.includes('data-hb-image="other"') && !broken.html.includes('svg+xml'), 'a data: image is no image');
  });

  it('a mailto link is its address alone: no subject, body, cc or bcc a sender filled in', () => {
    const page = emailPage('<a href="mailto:Sales@ok.example?bcc=spy@evil.example&amp;body=Send%20the%20invoice">write to us</a>');
    assert.deepEqual(page.links, ['mailto:Sales@ok.example']);
    assert.equal(text('<a href="mailto:sales@ok.example?cc=spy@evil.example">write to us</a>'), 'write to us <sales@ok.example>');
    assert.deepEqual(emailPage('<a href="mailto:?body=x">no one</a>').links, [], 'a mailto: without an address is no link');
    for (const odd of [
      'mailto:&lt;script&gt;@x.example',
      'mailto:&quot;x y&quot;&lt;a@b.example&gt;',
      'mailto:a b@x.example',
      'mailto:a@x.example,b@y.example',
      'mailto:a%3Cb@x.example',
    ])
      assert.equal(
        text(`<a href="${odd}">odd</a>`),
        'odd',
        `${odd}: the URL parser keeps < > " and spaces in a mailto address: no address`,
      );
  });

  it('the hostile corpus: a link is its text alone unless it is http, https or mailto; the real address is its title', () => {
    const active = emailPage(mail.HOSTILE_ACTIVE);
    assert.deepEqual(active.links, ['https://pay.phish.example/inv/2291']);
    assert.ok(active.html.includes('<p>Pay now · Pay by card · Pay by transfer</p>'), active.html);
    assert.ok(!/phish\.example\/(login|steal|frame|collect|track)/.test(active.html), 'no refresh, base, script, frame or form address');
    const encoded = emailPage(mail.HOSTILE_ENCODED);
    assert.deepEqual(encoded.links, ['https://login.phish.example/bank']);
    assert.ok(
      encoded.html.includes('title="https://login.phish.example/bank"') && encoded.html.includes('>https://www.bank.example/login</a>'),
    );
    assert.ok(encoded.html.includes('&lt;script&gt;window.hbPwned20=1&lt;/script&gt;'), 'text that was text stays escaped text');
    const hidden = checkPage(emailPage(mail.HOSTILE_HIDDEN).html, false).text;
    assert.ok(
      hidden.includes(mail.VISIBLE_MARKER) && hidden.includes('Storage plans from EUR 2 a month.') && !hidden.includes(mail.HIDDEN_MARKER),
    );
  });

  it('labels come from the caller; bounded like the text (a megabyte of nesting: cut, said, fast)', () => {
    const page = emailPage(mail.OUTLOOK_REPLY, { labels: { quoted: 'Cytowane wiadomości', image: (alt) => `[obraz: ${alt}]` } });
    assert.ok(page.html.includes('<summary>Cytowane wiadomości</summary>') && page.html.includes('[obraz: Northwind Traders logo]'));
    const started = performance.now();
    const deep = emailPage(mail.deepNesting());
    assert.ok(performance.now() - started < 10_000); // a hang guard only: the timing is the bench's
    assert.equal(deep.truncated, true);
    assert.ok(deep.html.endsWith('<p>[…the rest of this message is too long to show]</p>'), deep.html.slice(-200));
    assert.deepEqual(checkPage(deep.html, false).problems, []);
  });
});
