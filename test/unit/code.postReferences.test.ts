import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  findPostReferences,
  isValidReferencePrefix,
  MAX_SCANNED_CHARS,
  shortReference,
  typedReference,
  type ReferenceOptions,
} from '../../src/code/postReferences';
import { hostileText } from './hostile';
import { guardMs } from '../limits';

const BASE = 'https://acme.example.com';
const OPTIONS: ReferenceOptions = { accountUrl: BASE, prefix: 'HD-' };

/** Each reference as `text@start-end=id`, so a case reads as one line. */
function refs(text: string, options: ReferenceOptions = OPTIONS): string[] {
  return findPostReferences(text, options).map((r) => `${text.slice(r.start, r.end)}@${r.start}=${r.postId}`);
}

describe('post references: web addresses', () => {
  it('finds the address of a post in the account, without what follows the id', () => {
    assert.deepEqual(refs('see https://acme.example.com/app/posts/123 now'), ['https://acme.example.com/app/posts/123@4=123']);
    for (const tail of ['/', '?tab=comments', '#c5', '/?x=1', '/#top', '.', ',', ')', ':', '!']) {
      assert.deepEqual(refs(`${BASE}/app/posts/42${tail}`), [`${BASE}/app/posts/42@0=42`], tail);
    }
    assert.deepEqual(findPostReferences(`(${BASE}/app/posts/7)`, OPTIONS), [
      { start: 1, end: 1 + `${BASE}/app/posts/7`.length, postId: 7, form: 'address', accountUrl: BASE },
    ]);
  });

  it('compares scheme and host without case, the path exactly', () => {
    assert.deepEqual(refs('HTTPS://ACME.Example.COM/app/posts/5'), ['HTTPS://ACME.Example.COM/app/posts/5@0=5']);
    assert.deepEqual(refs('https://acme.example.com/App/posts/5'), []);
    assert.deepEqual(refs('https://acme.example.com/app/Posts/5'), []);
    const sub = { accountUrl: 'https://Host.example:8443/helpdesk' };
    assert.deepEqual(refs('https://host.EXAMPLE:8443/helpdesk/app/posts/9', sub), ['https://host.EXAMPLE:8443/helpdesk/app/posts/9@0=9']);
    assert.deepEqual(refs('https://host.example:8443/Helpdesk/app/posts/9', sub), []);
    assert.deepEqual(refs('https://host.example/helpdesk/app/posts/9', sub), []);
    assert.deepEqual(refs('https://host.example:8443/app/posts/9', sub), []);
  });

  it('takes a stored address with a trailing slash as without it', () => {
    assert.deepEqual(refs(`${BASE}/app/posts/3`, { accountUrl: `${BASE}/` }), [`${BASE}/app/posts/3@0=3`]);
  });

  it('does not find other accounts, other schemes, other records or other pages', () => {
    for (const text of [
      'https://evil.example.com/app/posts/1',
      'https://acme.example.com.evil.com/app/posts/1',
      'https://evil.com/acme.example.com/app/posts/1',
      'http://acme.example.com/app/posts/1',
      'xhttps://acme.example.com/app/posts/1',
      'https://user@acme.example.com/app/posts/1',
      'https://acme.example.com/app/clients/1',
      'https://acme.example.com/app/posts/1/comments',
      'https://acme.example.com/app/posts/1.json',
      'https://acme.example.com/app/posts/12abc',
      'https://acme.example.com/app/posts/',
      'https://acme.example.com/app/posts/x1',
    ]) {
      assert.deepEqual(refs(text), [], text);
    }
  });

  it("finds the address where it stands in another address's query: it is still that post", () => {
    assert.deepEqual(refs('https://sso.example/?next=https://acme.example.com/app/posts/1'), ['https://acme.example.com/app/posts/1@26=1']);
  });

  it('takes ids of 1 to 15 digits without leading zeros', () => {
    assert.deepEqual(refs(`${BASE}/app/posts/999999999999999`), [`${BASE}/app/posts/999999999999999@0=999999999999999`]);
    for (const id of ['0', '007', '1234567890123456', '-1']) assert.deepEqual(refs(`${BASE}/app/posts/${id}`), [], id);
  });
});

describe('post references: several accounts', () => {
  it("an address of another account signed in to is a reference to that account; a short form is always the window account's", () => {
    const other = 'https://beta.example.org';
    const text = `${BASE}/app/posts/1 and ${other}/app/posts/2 and HD-3 and https://gamma.example.net/app/posts/4`;
    const found = findPostReferences(text, { ...OPTIONS, otherAccountUrls: [other] });
    assert.deepEqual(
      found.map((r) => [r.postId, r.accountUrl ?? 'window']),
      [
        [1, BASE],
        [2, other],
        [3, 'window'],
      ],
    );
    assert.deepEqual(findPostReferences(`${other}/app/posts/2`, OPTIONS), [], 'not signed in to it: not a reference');
  });
});

describe('post references: the short form', () => {
  it('finds the prefix and an id as a whole word', () => {
    assert.deepEqual(refs('fixed in HD-123, see HD-7.'), ['HD-123@9=123', 'HD-7@21=7']);
    assert.deepEqual(refs('TODO(HD-12): x'), ['HD-12@5=12']);
    assert.deepEqual(refs('[HD-1] "HD-2" HD-3\nHD-4'), ['HD-1@1=1', 'HD-2@8=2', 'HD-3@14=3', 'HD-4@19=4']);
  });

  it('does not find the short form inside a word, a path or a longer token', () => {
    for (const text of [
      'XHD-123',
      'xHD-1',
      '_HD-1',
      'éHD-1',
      '-HD-1',
      '/HD-1',
      '#HD-1',
      'HD-123abc',
      'HD-1_',
      'HD-1é',
      'HD-1.5',
      'HD-1-2',
      'HD-1/x',
      'HD-1:3',
      'HD-0',
      'HD-01',
      'HD-',
      'HD-x1',
      'hd-1',
      'Hd-1',
      'HD-1234567890123456',
    ]) {
      assert.deepEqual(refs(text), [], text);
    }
  });

  it('finds nothing in the short form without a valid prefix', () => {
    assert.deepEqual(refs('HD-1', { accountUrl: BASE }), []);
    assert.deepEqual(refs('HD1', { prefix: 'HD' }), ['HD1@0=1']);
    assert.deepEqual(refs('-1', { prefix: '-' }), []);
    assert.deepEqual(refs('x 1', { prefix: '' }), []);
  });

  it('takes `#` alone as a prefix, but not in an HTML entity or after a word', () => {
    const hash = { prefix: '#' };
    assert.deepEqual(refs('fixes #12 (#3)', hash), ['#12@6=12', '#3@11=3']);
    assert.deepEqual(refs('&#123; a#1 ##1', hash), []);
  });

  it('validates the prefix: 1–10 of letters, digits, - _ # /, with a letter (or `#` alone), not ending in a digit', () => {
    for (const ok of ['HD-', 'HD', 'hd_', 'T#', 'PROJ/', '#', 'A1-', 'ABCDEFGHI-']) assert.equal(isValidReferencePrefix(ok), true, ok);
    for (const bad of ['', 'HD1', 'ABCDEFGHIJK', 'HD ', 'H.D', '-', '##', '/', '_', '12-', 'É-', 'HD\n', 'HD)'])
      assert.equal(isValidReferencePrefix(bad), false, bad);
  });

  it('writes the short form', () => {
    assert.equal(shortReference('HD-', 123), 'HD-123');
  });
});

describe('post references: both forms, limits', () => {
  it('keeps the order of appearance', () => {
    assert.deepEqual(refs(`HD-2 ${BASE}/app/posts/1 HD-3`), [
      'HD-2@0=2',
      `${BASE}/app/posts/1@5=1`,
      `HD-3@${6 + `${BASE}/app/posts/1`.length}=3`,
    ]);
  });

  it('scans only the first MAX_SCANNED_CHARS characters, but reads a reference begun there to its end', () => {
    const pad = ' '.repeat(MAX_SCANNED_CHARS - 4);
    assert.deepEqual(refs(`${pad}HD-123456`), [`HD-123456@${pad.length}=123456`]);
    assert.deepEqual(refs(`${pad}    HD-1`), []);
  });

  it('stays fast on long lines of near misses', () => {
    for (const line of [
      'HD-'.repeat(400_000),
      '/app/posts/'.repeat(100_000),
      `${BASE}/app/posts/`.repeat(30_000),
      `${BASE}/app/posts/1x`.repeat(30_000),
      'HD-1x'.repeat(300_000),
    ]) {
      const started = performance.now();
      findPostReferences(line, OPTIONS);
      assert.ok(performance.now() - started < guardMs(10), `${line.slice(0, 20)}…: ${performance.now() - started} ms`);
    }
  });
});

describe('post references: the short form being typed', () => {
  it('is the prefix and the digits before the cursor, at the start of a word', () => {
    assert.equal(typedReference('HD-', 3, 'HD-'), 'HD-');
    assert.equal(typedReference('HD-12', 5, 'HD-'), 'HD-12');
    assert.equal(typedReference('fixes HD-1', 10, 'HD-'), 'HD-1');
    assert.equal(typedReference('fixes HD-12 and more', 11, 'HD-'), 'HD-12');
    assert.equal(typedReference('fixes HD-12 and more', 10, 'HD-'), 'HD-1');
    for (const before of ['(', '[', '{', ',', ';', '\t', ' ']) assert.equal(typedReference(`a${before}#7`, 4, '#'), '#7', before);
    assert.equal(typedReference('HD-123', 99, 'HD-'), 'HD-123');
  });

  it('is nothing where the cursor is not after the prefix and digits, or the prefix joins a word', () => {
    for (const [line, cursor] of [
      ['', 0],
      ['HD', 2],
      ['HD-1x', 5],
      ['xHD-1', 5],
      ['a-HD-1', 6],
      ['HD-12', 2],
      ['12', 2],
    ] as const) {
      assert.equal(typedReference(line, cursor, 'HD-'), undefined, `${line}@${cursor}`);
    }
  });

  it('takes up to 15 digits, as many as an id has, and nothing longer', () => {
    const fifteen = '123456789012345';
    assert.equal(typedReference(`HD-${fifteen}`, 18, 'HD-'), `HD-${fifteen}`);
    assert.equal(typedReference(`HD-${fifteen}6`, 19, 'HD-'), undefined);
    assert.equal(typedReference(`#${'1'.repeat(100_000)}`, 100_001, '#'), undefined);
    assert.equal(typedReference(`HD-${'1'.repeat(200_000)}`, 200_003, 'HD-'), undefined);
  });

  it('reads a long line only near the cursor', () => {
    const digits = '1'.repeat(100_000);
    assert.equal(typedReference(`${digits} HD-42`, 100_006, 'HD-'), 'HD-42');
    assert.equal(typedReference(`${digits}x`, 100_001, 'HD-'), undefined);
    assert.equal(typedReference(`${digits} HD-7 ${digits}x`, 100_005, 'HD-'), 'HD-7');
    assert.equal(typedReference(`${'HD-'.repeat(50_000)} HD-9`, 150_005, 'HD-'), 'HD-9');
  });
});

// An independent statement of the rules, as regular expressions, to compare with on random text.
const WORD = String.raw`[\p{L}\p{N}\p{M}_]`;
const AFTER = String.raw`(?!${WORD})(?![.:/\-@]${WORD})`;
const anyCase = (text: string) => text.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).replace(/[.]/g, '\\.');
const ORACLE_BASE = 'https://acme.example.com:8443/hd';
const ORACLE = new RegExp(
  String.raw`(?<![\p{L}\p{N}\p{M}_+.\-/@:])${anyCase('https://acme.example.com:8443')}/hd/app/posts/([1-9]\d{0,14})${AFTER}` +
    String.raw`|(?<![\p{L}\p{N}\p{M}_\-#/&])HD-([1-9]\d{0,14})${AFTER}`,
  'gu',
);

function oracle(text: string): string[] {
  return [...text.matchAll(ORACLE)].map((m) => `${m[0]}@${m.index}=${Number(m[1] ?? m[2])}`);
}

/** Pieces of both forms and of every near miss, so that random joins often come close. */
const PIECES = [
  'HD-',
  'hd-',
  'X',
  'HD',
  '-',
  'https://',
  'HTTPS://',
  'acme.example.com',
  'ACME.example.COM',
  ':8443',
  '/hd',
  '/HD',
  '/app/posts/',
  '/app/Posts/',
  '0',
  '1',
  '9',
  '42',
  '999999999999999',
  '1234567890123456',
  'a',
  'é',
  '_',
  '.',
  '/',
  ':',
  '?',
  '#',
  '&',
  '@',
  ' ',
  '\n',
  '(',
  ')',
  '😀',
  'e\u0301',
];

describe('post references: properties', () => {
  it('finds exactly what the rules say in text made of their pieces', () => {
    const options = { accountUrl: ORACLE_BASE, prefix: 'HD-' };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        assert.deepEqual(refs(text, options), oracle(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds nothing in text without the forms', () => {
    fc.assert(
      fc.property(hostileText(30), (text) => {
        fc.pre(!text.includes('/app/posts/') && !text.includes('HD-'));
        assert.deepEqual(findPostReferences(text, OPTIONS), []);
      }),
    );
  });

  it('finds references set into any text, with their exact ranges', () => {
    const filler = hostileText(20).filter((t) => !t.includes('/app/posts/') && !t.includes('HD-'));
    const reference = fc.record({
      id: fc.integer({ min: 1, max: 999_999_999_999_999 }),
      address: fc.boolean(),
      tail: fc.constantFrom('', '/', '?a=1', '#x', '.', ')'),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, reference), { maxLength: 8 }), filler, (parts, last) => {
        let text = '';
        const expected: { start: number; end: number; postId: number; form: string; accountUrl?: string }[] = [];
        for (const [before, { id, address, tail }] of parts) {
          text += `${before} `;
          const written = address ? `${BASE}/app/posts/${id}` : `HD-${id}`;
          expected.push({
            start: text.length,
            end: text.length + written.length,
            postId: id,
            form: address ? 'address' : 'short',
            ...(address ? { accountUrl: BASE } : {}),
          });
          text += `${written}${tail} `;
        }
        text += last;
        assert.deepEqual(findPostReferences(text, OPTIONS), expected);
      }),
    );
  });
});
