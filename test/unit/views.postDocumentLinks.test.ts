import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import MarkdownIt12 from 'markdown-it-12';
import type { Client, Deal, Post } from '../../src/api';
import type { ClientContext } from '../../src/store/clientContext';
import { linklessMarkdown } from '../../src/text/markdown';
import { clientSection } from '../../src/views/clientContextText';
import { renderPost } from '../../src/views/postDocument';
import { hostileText } from './hostile';

/*
 * Issue 47: a post's document, as VS Code's Markdown preview renders it — markdown-it with
 * `html: true` and linkify on, fuzzy links off (extensions/markdown-language-features: its
 * engine sets `linkify.set({ fuzzyLink: false })`), in the two versions VS Code has bundled
 * (12 until 1.100; 14 since) — and as markdown-it does by default (fuzzy links on: example.com),
 * as other previews do. No server text becomes a link in any of them: client and deal names,
 * other posts' titles, the post's own title line, every field. The one link is the post's web
 * page, which the extension makes from the account's address.
 */

const renderers = (['12', '14'] as const).flatMap((version) =>
  [false, true].map((fuzzy) => {
    const md = version === '12' ? new MarkdownIt12({ html: true, linkify: true }) : new MarkdownIt({ html: true, linkify: true });
    if (!fuzzy) md.linkify.set({ fuzzyLink: false });
    return { name: `markdown-it ${version}${fuzzy ? ', fuzzy links' : " (VS Code's preview)"}`, render: (text: string) => md.render(text) };
  }),
);

/** The targets of the links in rendered HTML. */
const links = (html: string) => [...html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => m[1]);

/** Web addresses, e-mail addresses, `www.` hosts and host names, as a hostile service sends them in any text. */
const ADDRESSES = [
  'https://evil.example/login',
  'http://10.0.0.1:8080/x',
  '//evil.example/path',
  'ftp://files.evil.example',
  'mailto:boss@evil.example',
  'boss@evil.example',
  'www.evil.example',
  'WWW.EVIL.EXAMPLE/now',
  'evil.com',
  'login.evil.co.uk/reset',
  '(https://evil.example)',
  '<https://evil.example>',
  '[x](https://evil.example)',
  'xmpp:boss@evil.example',
  'https&#58;//evil&#46;example',
  'https\\://evil.example',
];

const link = 'https://acme.sugester.com/app/posts/12';

function documentOf(text: string): string {
  // The service sends what it likes in its enumerations too.
  const post = {
    id: 12,
    title: `Login fails ${text}`,
    kind: text,
    task_kind: `task ${text}`,
    closed: false,
    client_id: 3,
    responsible_id: 5,
    created_at: text,
    updated_at: `2026-03-02 ${text}`,
    content: `Body ${text}`,
  } as unknown as Post;
  const client: Client = { id: 3, name: `Acme ${text}`, email: text, phone: text };
  const other: Post = { id: 13, title: `Other ${text}`, closed: false, client_id: 3 };
  const deal: Deal = { id: 4, name: `Deal ${text}`, price: text };
  const context: ClientContext = {
    clientId: 3,
    client,
    posts: { open: [other], looked: 500, all: false, error: new Error(`page ${text}`) },
    deals: { items: [deal], error: new Error(`deals ${text}`) },
  };
  const author: Post = { id: 14, user_id: 5, nick: `Anna ${text}` };
  return renderPost(post, client, link, { status: `status ${text}`, posts: [author] }, clientSection(3, client, context));
}

describe('the post document in a Markdown preview: no server text becomes a link', () => {
  for (const { name, render } of renderers) {
    it(`${name}: web and e-mail addresses in every field`, () => {
      for (const address of ADDRESSES) {
        const html = render(documentOf(address));
        assert.deepEqual(links(html), [link], `${address}:\n${html}`);
      }
    });
  }

  it('any hostile text, any address, in every field: only the web page links', () => {
    fc.assert(
      fc.property(fc.tuple(hostileText(20), fc.constantFrom(...ADDRESSES), hostileText(20)), ([before, address, after]) => {
        const text = `${before}${address}${after}`;
        for (const { name, render } of renderers)
          assert.deepEqual(links(render(documentOf(text))), [link], `${name}: ${JSON.stringify(text)}`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('linklessMarkdown: server text as inline Markdown that no renderer links', () => {
  /** What a reader sees of it: the text of the HTML, entities undone. */
  const shown = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .trim();

  it('reads as written, in every renderer, on one line', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.string({ maxLength: 10 }),
          fc.constantFrom(...ADDRESSES, 'Sp. z o.o.', 'v1.2.3', 'e.g. this'),
          fc.string({ maxLength: 10 }),
        ),
        (parts) => {
          const text = parts.join(' ').replace(/\s+/g, ' ').trim();
          for (const { render } of renderers) {
            const html = render(`- Name: ${linklessMarkdown(text)}`);
            assert.deepEqual(links(html), []);
            assert.equal(shown(html), `Name: ${text}`, html);
          }
        },
      ),
      // The counterexample CI met (seed -737680367): linkify-it takes `~` as a letter of a host name.
      { numRuns: 150, examples: [[['', 'https://evil.example/login', '~.AC']]] },
    );
  });

  it('no character a renderer takes into a host name makes a link: every code point before ".ac", and after a word', () => {
    // linkify-it takes as a host's letter what is not space, punctuation or control in its own
    // Unicode tables (symbols, marks, emoji, U+FEFF); those tables are older than Node's.
    const ranges: [number, number][] = [
      [0x21, 0xd7ff],
      [0xe000, 0xfffd],
      [0x10000, 0x10fff],
      [0x1f000, 0x1faff],
      [0xe0000, 0xe007f],
    ];
    const linked: string[] = [];
    for (const [first, last] of ranges)
      for (let point = first; point <= last; point++) {
        const text = `${String.fromCodePoint(point)}.ac`;
        for (const { render } of renderers)
          if (
            links(render(`- Name: ${linklessMarkdown(text)}`)).length > 0 ||
            links(render(`- Name: x ${linklessMarkdown(text)}`)).length > 0
          ) {
            linked.push(`U+${point.toString(16).toUpperCase()}`);
            break;
          }
      }
    assert.deepEqual(linked, []);
  });

  it('plain words stay plain: only what a renderer could link is code', () => {
    assert.equal(linklessMarkdown('Acme Sp. z o.o. fails on v1.2 (e.g. Safari)'), 'Acme Sp. z o.o. fails on v1.2 (e.g. Safari)');
    assert.equal(linklessMarkdown('see https://evil.example now'), 'see `https://evil.example` now');
    assert.equal(linklessMarkdown('mail boss@evil.example'), 'mail `boss@evil.example`');
  });
});

describe('what the views show goes through the Markdown made for showing', () => {
  it('no module of src/views or src/editor uses escapeMarkdown, which is for what is sent (a draft), not for server text shown', () => {
    const root = join(__dirname, '..', '..', 'src');
    const users = ['views', 'editor'].flatMap((folder) =>
      readdirSync(join(root, folder))
        .filter((file) => file.endsWith('.ts') && readFileSync(join(root, folder, file), 'utf8').includes('escapeMarkdown'))
        .map((file) => `${folder}/${file}`),
    );
    assert.deepEqual(users, []);
  });
});
