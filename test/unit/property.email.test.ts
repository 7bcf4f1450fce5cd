import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { emailPage } from '../../src/email/toPage';
import { emailText, postText } from '../../src/email/toText';
import { bodyText } from '../../src/text/serverText';
import { checkPage } from './emailPageCheck';
import { hostileText, wellFormed } from './hostile';

/*
 * "Server text is data", for e-mails: over random markup made of the pieces attacks are made of
 * (every dangerous element, handlers, addresses that run, styles that hide or overlay, entities,
 * comments, broken and unclosed tags), the page HTML holds only the allow-list as a browser
 * reads it, and the text holds no tag that was markup, no address but http, https and mailto,
 * no invisible character, and stays within its bounds.
 */

const TAGS = [
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'svg',
  'math',
  'mtext',
  'mglyph',
  'noscript',
  'template',
  'xmp',
  'title',
  'base',
  'meta',
  'link',
  'img',
  'a',
  'div',
  'p',
  'span',
  'b',
  'table',
  'tr',
  'td',
  'ul',
  'li',
  'blockquote',
  'details',
  'summary',
  'font',
  'o:p',
  'hb-quote',
  'foreignObject',
];
const ATTRIBUTES = [
  'onerror',
  'onload',
  'onclick',
  'ONMOUSEOVER',
  'style',
  'href',
  'src',
  'srcdoc',
  'formaction',
  'action',
  'class',
  'id',
  'type',
  'background',
  'data-hb-link',
  'data-hb-image',
  'open',
  'hidden',
  'colspan',
  'xlink:href',
  'cite',
  'dir',
];
const VALUES = [
  'javascript:window.hbPwnedP=1',
  ' JaVaScRiPt:alert(1)',
  'java&#x09;script:alert(1)',
  '&#x6A;avascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,x',
  'data:image/svg+xml,x',
  'https://ok.example/a?b=1&amp;c=2',
  'http://ok.example/',
  'mailto:someone@ok.example',
  'cid:part1.png',
  'command:workbench.action.quit',
  'file:///etc/passwd',
  '//evil.example/x',
  'display:none',
  'position:fixed;top:0;left:0;width:100%;height:100%',
  'background:url(javascript:alert(1))',
  'color:#fff',
  'font-size:0',
  'cite',
  'gmail_quote',
  'x" onerror="alert(1)',
  "x' onload='alert(1)",
  '3',
  'rtl',
  '',
];
/** Entities that decode to nothing markup-like (see the page's own pieces for those that do). */
const ENTITIES = ['&amp;', '&nbsp;', '&#x6A;', '&#x202E;', '&#8203;', '&quot;', '&#0000106;', '&colon;', '&bogus;', '&'];
/** Entities that decode to markup characters: text as written, escaped in the page, `<` in the text. */
const MARKUP_ENTITIES = ['&lt;script&gt;', '&#60;img src=x onerror=alert(1)&#62;', '&lt;/p&gt;'];
const BROKEN = [
  '<!--',
  '-->',
  '<!-->',
  '<![CDATA[',
  ']]>',
  '<?xml ?>',
  '</',
  '<',
  '>',
  '"',
  "'",
  '=',
  '</textarea/>',
  '<p <b>',
  '<scr<script>ipt>',
  '<!DOCTYPE html>',
  '</p>',
  '</div>',
];

/** Text without `<` or `&`: whatever tag or entity the output shows came from the markup around it. */
const words = hostileText(12).map((text) => text.replace(/[<&>]/g, ' '));

const attribute = fc
  .tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...VALUES), fc.constantFrom('"', "'", ''))
  .map(([name, value, quote]) => ` ${name}=${quote}${quote ? value.replaceAll(quote, '') : value.replace(/[\s>]/g, '')}${quote}`);
const openTag = fc
  .tuple(fc.constantFrom(...TAGS), fc.array(attribute, { maxLength: 3 }))
  .map(([tag, attrs]) => `<${tag}${attrs.join('')}>`);
const closeTag = fc.constantFrom(...TAGS).map((tag) => `</${tag}>`);

/**
 * Random markup of these pieces. `bareLessThan`: with a lone `<` or `</` among the broken pieces,
 * which before an entity that decodes to a letter (`<&#x6A;`) is text reading like a tag, as in a
 * browser: fine for the page (it is escaped), not for a check that the text shows no tag.
 */
function markup(entities: readonly string[], bareLessThan = true): fc.Arbitrary<string> {
  const broken = bareLessThan ? BROKEN : BROKEN.filter((b) => b !== '<' && b !== '</');
  const piece = fc.oneof(
    { weight: 4, arbitrary: openTag },
    { weight: 3, arbitrary: closeTag },
    { weight: 4, arbitrary: words },
    { weight: 1, arbitrary: fc.constantFrom(...entities) },
    { weight: 1, arbitrary: fc.constantFrom(...broken) },
  );
  return fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
}

/** A tag as markup writes it (`<b>`, `</p>`, `<img src…`, `<!--`): not an address between < and >. */
const TAG = /<(\/?[a-z][a-z0-9:-]*(\s|\/?>)|!--|!\[|\?)/i;
/** Controls (but newlines and tabs) and invisible format characters. */
const INVISIBLE = /\p{Cf}|[^\P{Cc}\n\t]/u;

describe('e-mails over random hostile markup', () => {
  it('the page: only the allow-list as a browser reads it; links and images only by number, to http(s) or mailto', () => {
    fc.assert(
      fc.property(markup([...ENTITIES, ...MARKUP_ENTITIES]), fc.boolean(), (html, remoteImages) => {
        const page = emailPage(html, { remoteImages, quotedHistory: 'open' });
        const check = checkPage(page.html, remoteImages);
        assert.deepEqual(check.problems, [], page.html);
        const tags = (page.html.match(/<[^>]*>/g) ?? []).join('\n');
        assert.ok(!/\son\w+\s*=|javascript|vbscript|data:|\sstyle=|\sclass=|\sid=|\shref=/i.test(tags), tags);
        assert.ok(check.links.every((n) => Number.isInteger(n) && n >= 0 && n < page.links.length));
        for (const link of [...page.links, ...page.images]) assert.match(link, /^(https?:\/\/ok\.example\/|mailto:someone@ok\.example)/);
      }),
      { numRuns: 300 },
    );
  });

  it('the text: no tag that was markup, no address but http(s) and mailto, no invisible character, within its bound', () => {
    fc.assert(
      fc.property(
        markup(ENTITIES, false),
        fc.integer({ min: 60, max: 4000 }),
        fc.constantFrom<'fold' | 'quote'>('fold', 'quote'),
        (html, maxChars, quoted) => {
          const { text } = emailText(html, { maxChars, quoted });
          assert.ok(!TAG.test(text), `${JSON.stringify(text)} from ${JSON.stringify(html)}`);
          // (The words carry command: links as text; these come only from attributes.)
          assert.ok(!/javascript|vbscript|data:|file:|\/\/evil/i.test(text), text);
          assert.ok(!INVISIBLE.test(text), JSON.stringify(text));
          assert.ok(text.length <= maxChars, `${text.length} > ${maxChars}`);
          assert.ok(wellFormed(text) || !wellFormed(html), 'no surrogate pair split');
          // A link's address as the text shows it: only the ones the markup gave (its own text may hold `<…>` as written).
          for (const address of text.match(/<([a-z]+:\/\/|[^<>\s@]+@)[^<>\s]*>/gi) ?? [])
            assert.match(address, /^<(https?:\/\/ok\.example\/|someone@ok\.example>)/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('whatever use_html and task_kind say, any content becomes bounded text without invisible characters, and plain text is as written', () => {
    const useHtml = fc.constantFrom(true, false, 'true', '1', '0', 'false', undefined, null, 2, 'x');
    fc.assert(
      fc.property(
        fc.oneof(markup([...ENTITIES, ...MARKUP_ENTITIES]), hostileText(60)),
        useHtml,
        fc.constantFrom('email', 'comment', 'task', undefined),
        (content, use_html, task_kind) => {
          const result = postText({ content, use_html, task_kind }, { maxChars: 2000 });
          assert.ok(result.text.length <= 2000);
          assert.ok(!INVISIBLE.test(result.text), JSON.stringify(result.text));
          if (use_html === false || use_html === '0' || use_html === 'false') assert.equal(result.html, false);
          // Not HTML: as written, with what all server text loses (controls, bidi marks, zero-width characters).
          if (!result.html) assert.equal(result.text, bodyText(content, 2000));
        },
      ),
      { numRuns: 300 },
    );
  });
});
