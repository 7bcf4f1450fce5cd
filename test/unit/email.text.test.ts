import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encode } from 'gpt-tokenizer';
import { HelpdeskClient } from '../../src/api';
import { contentIsHtml, looksLikeHtml } from '../../src/email/contentKind';
import { useHtmlFlag } from '../../src/email/useHtml';
import { emailText, postText } from '../../src/email/toText';
import { timeEmailConversion } from '../../src/email/bench';
import { MAX_HTML_CHARS } from '../../src/email/parse';
import { startStandIn, type ProfileName, type StandIn } from '../server';
import * as mail from '../server/demoEmails';

/** Controls (but newlines and tabs) and invisible format characters: bidi marks, zero-width characters, soft hyphens. */
const INVISIBLE = /\p{Cf}|[^\P{Cc}\n\t]/u;

/* Posts' content as text (src/email/toText.ts): HTML e-mails read as their senders' mail clients
 * show them, plain text as written, on every side of what the service leaves open. */

const text = (html: string, options?: Parameters<typeof emailText>[1]) => emailText(html, options).text;
/** A tag as markup writes it (`<b>`, `</p>`, `<img src…`, `<!--`): not an address between < and >. */
const TAG = /<(\/?[a-z][a-z0-9:-]*(\s|\/?>)|!--|!\[|\?)/i;

describe('whether content is HTML', () => {
  it('use_html in every form the service may send it decides', () => {
    for (const yes of [true, 1, '1', 'true', 'TRUE', ' yes ']) assert.equal(useHtmlFlag(yes), true, String(yes));
    for (const no of [false, 0, '0', 'false', 'no', '']) assert.equal(useHtmlFlag(no), false, String(no));
    for (const unknown of [undefined, null, 2, 'maybe', {}, [], Number.NaN])
      assert.equal(useHtmlFlag(unknown), undefined, JSON.stringify(unknown));
    assert.equal(contentIsHtml({ content: 'plain <b>text</b>', use_html: '1' }), true);
    assert.equal(
      contentIsHtml({ content: mail.OUTLOOK_REPLY, use_html: 'false' }),
      false,
      'use_html false: shown as written, whatever it looks like',
    );
    assert.equal(contentIsHtml({ content: 42, use_html: true }), false, 'no string, no HTML');
  });

  it('without use_html: a document, or for a mail body a body tag with something closed; text that contains < stays text', () => {
    for (const html of [mail.OUTLOOK_REPLY, mail.TEMPLATED_MESSAGE, mail.FORWARD_WITH_IMAGE, mail.HOSTILE_ACTIVE, mail.HOSTILE_HIDDEN])
      assert.equal(looksLikeHtml(html, 'task'), true, html.slice(0, 40));
    for (const html of [
      mail.GMAIL_MESSAGE,
      mail.GMAIL_REPLY_COMMENT,
      mail.HOSTILE_ENCODED,
      '<p>Hello</p>',
      'Hi<br>there'.replace('Hi', '<br>Hi'),
    ])
      assert.equal(looksLikeHtml(html, 'email'), true, html.slice(0, 40));
    assert.equal(looksLikeHtml('\ufeff  <!DOCTYPE html><p>x', 'task'), true, 'a BOM and spaces first');
    assert.equal(looksLikeHtml('<!--[if mso]><x><![endif]--><html><body>x</body></html>', 'email'), true, 'a conditional comment first');
    assert.equal(looksLikeHtml(mail.GMAIL_MESSAGE, 'task'), false, 'a body tag is not enough outside mail');
    for (const plain of [
      mail.PLAIN_MESSAGE,
      'the total is < 0 when the discount is > 100%',
      '<Company name> is printed twice on the invoice',
      '<div> in the template is never closed',
      '<b>important: the API ',
      'x <p>y</p>',
      '',
    ])
      assert.equal(looksLikeHtml(plain, 'email'), false, plain);
    assert.equal(contentIsHtml({ content: mail.GMAIL_MESSAGE, task_kind: 'email' }), true, 'absent use_html: looked at');
    assert.equal(contentIsHtml({ content: mail.PLAIN_MESSAGE, task_kind: 'email' }), false);
  });

  it('plain text is shown as written: what looks like a tag stays, controls go as in all server text', () => {
    const shown = postText({ content: mail.PLAIN_MESSAGE, use_html: false, task_kind: 'email' });
    assert.equal(shown.html, false);
    assert.equal(shown.text, mail.PLAIN_MESSAGE);
    assert.equal(postText({ content: 'a <b>x</b>\u202e\r\nb', task_kind: 'task' }).text, 'a <b>x</b>\nb');
    const long = postText({ content: 'x'.repeat(500) }, { maxChars: 100 });
    assert.equal(long.text.length, 100);
    assert.equal(long.truncated, true);
    assert.deepEqual(postText({ content: null }), { text: '', html: false, truncated: false, quoted: false });
  });
});

describe('an HTML e-mail as text', () => {
  it("Outlook's reply: paragraphs, the list, the link with its address, the signature (Outlook marks none) with its logo as a placeholder, the quoted thread left out", () => {
    const result = emailText(mail.OUTLOOK_REPLY);
    assert.equal(result.quoted, true);
    assert.equal(
      result.text,
      [
        'Hi Anna,',
        '',
        'Thanks for the quote. Could you split the support line into two items, one per office?',
        '',
        '- Seattle: 18 seats',
        '- Portland: 7 seats',
        '',
        'Our purchase order template is here: PO template <https://northwind.example/po/template?lang=en&v=2>. Finance needs it by Friday\u00a023\u00a0May.',
        '',
        'Kind regards,',
        'Laura',
        '',
        '[image: Northwind Traders logo] Laura Callahan',
        'Office Manager | Northwind Traders',
        '+1 555 0142',
        '',
        '[quoted earlier messages left out]',
      ].join('\n'),
    );
    for (const gone of ['Dear Laura', 'MsoNormal', 'font-face', 'behavior', 'From:', 'EUR 3,600.00'])
      assert.ok(!result.text.includes(gone), gone);
  });

  it("quoted: 'quote' keeps the history, each line after a > (Outlook's table a row a line)", () => {
    const quoted = text(mail.OUTLOOK_REPLY, { quoted: 'quote' });
    const lines = quoted.split('\n');
    const from = lines.findIndex((l) => l.startsWith('> From: Anna Kowalska'));
    assert.ok(from > 0, quoted);
    assert.ok(
      lines.slice(from).every((l) => l.startsWith('>')),
      'everything from the divider on is quoted',
    );
    assert.ok(lines.includes('> 25 seats EUR 3,600.00'), quoted);
    assert.ok(lines.includes('> [image: Acme Helpdesk logo] Anna Kowalska') && lines.includes('> Account Manager | Acme Helpdesk'));
    assert.ok(lines.includes('> Dear Laura,'));
  });

  it("Gmail's message: the -- signature gone, the ordered list numbered, gmail_quote left out", () => {
    assert.equal(
      text(mail.GMAIL_MESSAGE),
      [
        'Hi,',
        '',
        'Tracking shows the parcel stuck in Rotterdam since Monday (tracking number JJD0002249123). Can you check with the carrier?',
        '',
        'The order was placed on shop.bluewater.example/orders/4471; the customer is waiting for:',
        ' 1. 2 x label printer',
        ' 2. 1 x charging dock',
        '',
        'Thanks,',
        'Pieter',
        '',
        '[quoted earlier messages left out]',
      ].join('\n'),
      'a link whose text is its address is shown once',
    );
  });

  it('a templated message: the hidden preheader and the tracking pixel gone, the layout tables a line a row, links with their addresses', () => {
    const shown = text(mail.TEMPLATED_MESSAGE);
    assert.ok(!shown.includes(mail.HIDDEN_MARKER));
    assert.ok(shown.includes('● every ticket of 2024, closed ones too'), shown);
    assert.ok(
      shown.includes('View request #7781 <https://portal.evergreen-pg.example/requests/7781?utm_source=mail&utm_medium=notification>'),
    );
    assert.ok(shown.startsWith('[image: Evergreen Property Group]'));
    assert.equal((shown.match(/\[image/g) ?? []).length, 1, 'the 1×1 pixel is no image');
  });

  it('a forward keeps the forwarded message (its title says Fwd:), with its inline image as a placeholder', () => {
    const forward = postText({ content: mail.FORWARD_WITH_IMAGE, use_html: true, title: 'Fwd: Security questionnaire' });
    assert.equal(forward.html, true);
    assert.ok(forward.text.includes('> please forward our yearly security questionnaire'), forward.text);
    assert.ok(forward.text.includes('> [image: Data flow diagram: clinic, helpdesk, backups]'));
    for (const title of ['FW: x', 'PD: x', 'WG: x', 'Tr : x'])
      assert.ok(postText({ content: mail.FORWARD_WITH_IMAGE, use_html: true, title }).text.includes('> Elin'), title);
    assert.ok(text(mail.FORWARD_WITH_IMAGE).includes('[quoted earlier messages left out]'), 'a reply (no Fwd:) folds it');
    const bare = '<blockquote type="cite"><div>Only the quote</div></blockquote>';
    assert.equal(text(bare), '> Only the quote', 'nothing but a quote: the quote is the message');
  });

  it('labels come from the caller (the person reads them in their language)', () => {
    const shown = text(mail.OUTLOOK_REPLY, { labels: { image: (alt) => `[obraz: ${alt}]`, quoted: '[cytowane wiadomości pominięte]' } });
    assert.ok(shown.includes('[obraz: Northwind Traders logo]') && shown.endsWith('[cytowane wiadomości pominięte]'), shown);
  });

  it('the hostile corpus: no markup that was markup, no address that is not http, https or mailto, nothing hidden shown', () => {
    const active = text(mail.HOSTILE_ACTIVE);
    assert.ok(!TAG.test(active), active);
    assert.ok(!/javascript|vbscript|data:|file:|command:|phish\.example\/(login|steal|frame|collect)/i.test(active), active);
    assert.ok(active.includes('Invoice portal <https://pay.phish.example/inv/2291>'), 'a real address is shown with its text');
    assert.ok(active.includes('Pay now · Pay by card · Pay by transfer'), 'a javascript: link is its text alone');
    const hidden = text(mail.HOSTILE_HIDDEN);
    assert.ok(!hidden.includes(mail.HIDDEN_MARKER), hidden);
    assert.ok(
      hidden.includes(mail.VISIBLE_MARKER) && hidden.includes('Storage plans from EUR 2 a month.'),
      'white on a dark background is seen',
    );
    const encoded = text(mail.HOSTILE_ENCODED);
    assert.ok(!INVISIBLE.test(encoded), JSON.stringify(encoded));
    assert.ok(encoded.includes('invoicefdp.exe') && encoded.includes('paypal.example says: urgent transfer'), encoded);
    assert.ok(
      encoded.includes('<script>window.hbPwned20=1</script>'),
      'text that was text (entities) stays text, for the caller to escape',
    );
    assert.ok(
      encoded.includes('https://www.bank.example/login <https://login.phish.example/bank>'),
      'a link whose text lies shows where it goes',
    );
    assert.ok(!/javascript/i.test(encoded) && !encoded.includes('bank.example@'), 'no javascript: nor a disguised address');
    const broken = text(mail.HOSTILE_BROKEN);
    assert.ok(!/<(img|svg|math|style|textarea|noscript|x )/i.test(broken) && !broken.includes('onerror'), broken);
    assert.ok(broken.startsWith('Delivery failure for order 4471'));
    assert.ok(text(mail.HOSTILE_COMMENT).startsWith('Did the payment go through? Confirm here.'));
  });

  it('bounded: a megabyte of nesting, more than MAX_HTML_CHARS, many nodes, deep quotes and lists are cut, linearly, and say so', () => {
    for (const html of [
      mail.deepNesting(),
      '<b>'.repeat(400_000),
      `<p>${'word '.repeat(300_000)}</p>`,
      '<p>a'.repeat(300_000),
      `${'<blockquote>'.repeat(60)}${'x<br>'.repeat(50_000)}`,
      `${'<ul><li>'.repeat(30)}${'x<br>'.repeat(50_000)}`,
    ]) {
      const started = performance.now();
      const result = emailText(html, { maxChars: 20_000 });
      const ms = performance.now() - started;
      assert.ok(ms < 10_000, `${html.slice(0, 20)}… took ${ms} ms`); // a hang guard only: the timing is the bench's
      assert.ok(result.text.length <= 20_000, `${result.text.length}`);
      assert.equal(result.truncated, true, html.slice(0, 20));
      assert.ok(result.text.endsWith('[…the rest of this message is too long to show]'));
    }
    assert.ok(text(`${'<blockquote>'.repeat(20)}deep`).startsWith('> > > deep'), 'three > at most');
    const deepScript = `${'<div>'.repeat(80)}before<script>window.x=1</script><style>p{color:red}</style><title>t</title>after`;
    assert.equal(text(deepScript), 'beforeafter', 'below the depth kept, a script, a style or a title is no text either');
    assert.ok(emailText('<p>x</p>'.repeat(10)).truncated === false);
    assert.ok(MAX_HTML_CHARS >= 1_000_000, 'a megabyte is read');
  });

  it('timings for the bench: a 200 KB thread and a megabyte of nesting (printed; only a hang guard here)', () => {
    const thread = mail.longThread(200_000);
    assert.ok(thread.length >= 200_000);
    const threadTimes = timeEmailConversion(thread, 5);
    const nestingTimes = timeEmailConversion(mail.deepNesting(), 3);
    const pageTimes = timeEmailConversion(thread, 3, { page: true });
    console.log(
      `e-mail conversion: 200 KB thread → text ${threadTimes.medianMs.toFixed(1)} ms median (min ${threadTimes.minMs.toFixed(1)}), ` +
        `→ page ${pageTimes.medianMs.toFixed(1)} ms; 1 MB of nesting → text ${nestingTimes.medianMs.toFixed(1)} ms`,
    );
    assert.equal(threadTimes.samplesMs.length, 5);
    assert.ok(threadTimes.resultChars > 0 && threadTimes.medianMs < 5_000 && nestingTimes.medianMs < 5_000);
  });

  it("a typical e-mail (Outlook's reply) costs an agent at least 3× fewer tokens as text than as HTML", () => {
    const raw = encode(mail.OUTLOOK_REPLY).length;
    const converted = encode(text(mail.OUTLOOK_REPLY)).length;
    console.log(`Outlook reply: ${raw} tokens as HTML, ${converted} as text (${(raw / converted).toFixed(1)}×, o200k_base)`);
    assert.ok(raw >= 3 * converted, `${raw} vs ${converted}`);
  });
});

describe('posts as each profile answers them, read by the API client', () => {
  const servers = {} as Record<ProfileName, StandIn>;
  before(async () => {
    for (const profile of ['likely', 'contrary', 'sparse'] as const) servers[profile] = await startStandIn({ seed: 'demo', profile });
  });
  after(async () => {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  });

  it('use_html as a boolean, a string or absent: the same text; the plain e-mail stays as written', async () => {
    const shown: Record<string, string[]> = {};
    for (const [name, server] of Object.entries(servers)) {
      const api = new HelpdeskClient({ accountUrl: server.url, token: server.token });
      const emails = server.store.list(server.prefix, 'posts').filter((p) => p.task_kind === 'email' && p.content!.length < 100_000);
      shown[name] = [];
      for (const { id } of emails) {
        const post = await api.posts.get(id);
        const result = postText(post, { maxChars: 4000 });
        // HTML shows no tag (but the text one that was written with entities); plain text is as written.
        if (result.html)
          assert.ok(!TAG.test(result.text) || result.text.includes('<script>window.hbPwned20'), `${name} #${id}: ${result.text}`);
        else assert.equal(result.text, post.content, `${name} #${id}`);
        shown[name].push(result.text);
      }
      const plain = shown[name].find((t) => t.includes('<Reference>'));
      assert.ok(plain?.includes('keep the PO number < 20 characters'), `${name}: the plain e-mail as written`);
    }
    assert.deepEqual(shown.contrary, shown.likely);
    assert.deepEqual(shown.sparse, shown.likely, 'without use_html, the HTML e-mails are still read as HTML');
  });
});
