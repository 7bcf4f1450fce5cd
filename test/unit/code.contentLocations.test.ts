import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildBugReportContent, type CodeSelection } from '../../src/code/bugReport';
import {
  findContentLocations,
  MAX_CONTENT_CHARS,
  MAX_LOCATIONS,
  normalizeLocationPath,
  type ContentLocation,
} from '../../src/code/contentLocations';
import { buildPermalink, parseRemoteUrl } from '../../src/code/permalink';
import { brokenText, hostileText } from './hostile';
import { guardMs } from '../limits';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const GITHUB = parseRemoteUrl('https://github.com/owner/repo')!;

/** Each location as `source path:start[-end][:column]`, so a case reads as one line. */
function where(content: string): string[] {
  return findContentLocations(content).map(
    (l) => `${l.source} ${l.path}:${l.startLine}${l.endLine ? `-${l.endLine}` : ''}${l.column ? `:${l.column}` : ''}`,
  );
}

function report(selection: Partial<CodeSelection>, url?: string): string {
  return buildBugReportContent({
    description: 'It breaks.',
    selection: { relativePath: 'src/app.ts', startLine: 3, endLine: 7, languageId: 'typescript', text: 'a();\n', ...selection },
    location: url ? { kind: 'permalink', url } : { kind: 'local', reason: 'the file has unsaved changes' },
    maxLines: 80,
  });
}

describe('locations in a post: what Report Bug wrote', () => {
  it('reads the file and lines of a report, then its permalink with the repository', () => {
    const url = buildPermalink(GITHUB, SHA, 'src/app.ts', 3, 7);
    const found = findContentLocations(report({}, url));
    assert.deepEqual(found, [
      { path: 'src/app.ts', startLine: 3, endLine: 7, source: 'report' },
      { path: 'src/app.ts', startLine: 3, endLine: 7, source: 'permalink', repository: GITHUB, ref: SHA },
    ] satisfies ContentLocation[]);
  });

  it('reads a single line, a local report, and paths that need inline-code fences', () => {
    assert.deepEqual(where(report({ startLine: 4, endLine: 4 })), ['report src/app.ts:4']);
    assert.deepEqual(where(report({ startLine: 9, endLine: 2 })), ['report src/app.ts:2-9']);
    for (const path of ['a`b.ts', '`a.ts', 'a.ts`', ' a.ts ', 'dir name/x, lines 1–2.ts', '``x``']) {
      assert.deepEqual(where(report({ relativePath: path, startLine: 1, endLine: 1 })), [`report ${path}:1`], path);
    }
  });

  it('round-trips any report (property)', () => {
    // Not a path that reads as a frame too (`a:1`), nor one that names no file (blank, a folder).
    const path = hostileText(20).filter((p) => !/[\r\n\u0085\u2028\u2029]|:\d/u.test(p) && normalizeLocationPath(p) !== undefined);
    fc.assert(
      fc.property(
        path,
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.boolean(),
        (relativePath, startLine, endLine, linked) => {
          const url = linked ? buildPermalink(GITHUB, SHA, relativePath, startLine, endLine) : undefined;
          const found = findContentLocations(report({ relativePath, startLine, endLine, text: relativePath }, url));
          const [start, end] = [Math.min(startLine, endLine), Math.max(startLine, endLine)];
          const lines = end > start ? { startLine: start, endLine: end } : { startLine: start };
          const normalized = normalizeLocationPath(relativePath);
          assert.deepEqual(found[0], { path: normalized, ...lines, source: 'report' }, JSON.stringify(relativePath));
          if (linked) assert.deepEqual(found[1], { path: normalized, ...lines, source: 'permalink', repository: GITHUB, ref: SHA });
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Pieces of every form, so that random joins come close to locations. */
const PIECES = [
  'a.ts',
  'x.java',
  'C.java',
  'java.',
  'Main',
  ':',
  '12',
  '0',
  '7',
  '/',
  '\\',
  './',
  'file://',
  'file:///',
  'C:',
  '%20',
  ' at ',
  'at ',
  '(',
  ')',
  'File "',
  '", line ',
  ') in ',
  ':line ',
  ' +0x1d',
  '--> ',
  'https://github.com/o/r/blob/abc1234/',
  'https://dev.azure.com/o/p/_git/r?path=/a.cs&version=GCabc1234&line=',
  '#L',
  '-L',
  '#lines-',
  '- File: `',
  '`',
  '`, lines ',
  '`, line ',
  '–',
  '\n',
  '\r\n',
  ' ',
  '.',
  'node:',
  '<anonymous>',
  // and whole forms, cut into by the pieces around them
  'src/a.ts:3',
  'a.ts:12:5',
  'C:\\x\\b.cs:4',
  '\n  at f (src/x.ts:1:2)\n',
  '\n  File "a.py", line 3\n',
  '\n- File: `a b.ts`, lines 2–4\n',
  '\n\tat a.b.C.m(C.java:9)\n',
  ' https://github.com/o/r/blob/abc1234/a.ts#L3-L5 ',
  ' https://gitlab.com/g/r/-/blob/abc1234/a.ts#L3 ',
  ' file:///home/a%20b.ts:4:1 ',
];

describe('locations in a post: pasted text', () => {
  it('reads permalinks of each host wherever they stand', () => {
    const gitlab = buildPermalink(parseRemoteUrl('https://gitlab.com/g/r')!, SHA, 'a.go', 1, 2);
    const azure = buildPermalink(parseRemoteUrl('https://dev.azure.com/o/p/_git/r')!, SHA, 'b.cs', 5, 5);
    assert.deepEqual(where(`see ${gitlab}, and <${azure}>.\n[link](https://bitbucket.org/o/r/src/${SHA}/c.py#lines-4:6)`), [
      'permalink a.go:1-2',
      'permalink b.cs:5',
      'permalink c.py:4-6',
    ]);
  });

  it('reads stack frames of JavaScript, Python, Go, Java, Rust, C# and the generic path:line[:column]', () => {
    const trace = [
      'TypeError: x is undefined',
      '    at render (src/app.ts:12:5)',
      '    at async Object.<anonymous> (/home/me/proj/src/main.ts:40:1)',
      '    at src/boot.ts:3:9',
      '    at run (C:\\My Project\\src\\win.ts:7:2)',
      '    at load (file:///home/me/proj/src/url%20x.mjs:8:3)',
      '  File "/srv/app/views.py", line 33, in index',
      'main.main()',
      '\t/home/me/go/src/app/main.go:40 +0x1d',
      'worker.go:12',
      '\tat com.acme.shop.Cart.total(Cart.java:88)',
      '\tat com.acme.shop.Cart$Line.<init>(Cart.java:90)',
      '\tat java.base/java.lang.Thread.run(Thread.java:833)',
      '\tat Native.m(Native Method)',
      '  --> src/main.rs:3:5',
      '   at Acme.Cart.Total() in C:\\src\\Acme\\Cart.cs:line 21',
      'error in lib/x.rb:9:in `call`',
      'see ./docs/setup.md:4',
    ].join('\n');
    assert.deepEqual(where(trace), [
      'frame src/app.ts:12:5',
      'frame /home/me/proj/src/main.ts:40:1',
      'frame src/boot.ts:3:9',
      'frame C:/My Project/src/win.ts:7:2',
      'frame /home/me/proj/src/url x.mjs:8:3',
      'frame /srv/app/views.py:33',
      'frame /home/me/go/src/app/main.go:40',
      'frame worker.go:12',
      'frame com/acme/shop/Cart.java:88',
      'frame com/acme/shop/Cart.java:90',
      'frame java/lang/Thread.java:833',
      'frame src/main.rs:3:5',
      'frame C:/src/Acme/Cart.cs:21',
      'frame lib/x.rb:9',
      'frame docs/setup.md:4',
    ]);
  });

  it('does not take addresses, times, versions or names without a known extension for files', () => {
    for (const text of [
      'https://example.com:8080/a/b.ts:3',
      'listening on example.com:8080',
      'localhost:3000',
      'at 12:30:45',
      'v1.2:3',
      '10.0.0.1:8080',
      'notes.txt:abc',
      'a.ts:0',
      'git@github.com:owner/repo.git',
      'a.ts:12abc',
      '    at Module._compile (node:internal/modules/cjs/loader:1364:14)',
      '    at <anonymous>:1:2',
    ]) {
      assert.deepEqual(where(text), [], text);
    }
  });

  it('keeps the first of each location, in order of appearance', () => {
    assert.deepEqual(where('b.ts:2 a.ts:1\nat f (b.ts:2)\nb.ts:2\na.ts:1:4'), ['frame b.ts:2', 'frame a.ts:1', 'frame a.ts:1:4']);
    const url = buildPermalink(GITHUB, SHA, 'a.ts', 1, 1);
    assert.deepEqual(where(`${url} ${url}\na.ts:1`), ['permalink a.ts:1', 'frame a.ts:1']);
  });

  it(`stops at ${MAX_LOCATIONS} locations and ${MAX_CONTENT_CHARS} characters`, () => {
    const many = Array.from({ length: 80 }, (_, i) => `f${i}.ts:${i + 1}`).join('\n');
    assert.equal(findContentLocations(many).length, MAX_LOCATIONS);
    assert.deepEqual(where(`${'\n'.repeat(MAX_CONTENT_CHARS)}a.ts:1`), []);
    assert.deepEqual(where(`${'\n'.repeat(MAX_CONTENT_CHARS - 10)}a.ts:1`), ['frame a.ts:1']);
    assert.deepEqual(where(`${' '.repeat(2_000)}a.ts:1 https://github.com/o/r/blob/${SHA}/b.ts#L1`), ['permalink b.ts:1']);
  });

  it('is quick on long hostile lines', () => {
    for (const text of [
      'a'.repeat(MAX_CONTENT_CHARS),
      'a/'.repeat(50_000),
      'at ('.repeat(25_000),
      '- File: `'.repeat(10_000) + ', line 1',
      'x.ts:'.repeat(20_000),
      'https://a/'.repeat(10_000),
    ]) {
      const started = performance.now();
      findContentLocations(text);
      assert.ok(performance.now() - started < guardMs(20), `${text.slice(0, 12)}…: ${performance.now() - started} ms`);
    }
  });

  it('returns only well-formed locations from any text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...PIECES), brokenText(6), hostileText(6)), { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        const found = findContentLocations(text);
        assert.ok(found.length <= MAX_LOCATIONS);
        const keys = found.map(({ source: _, ...rest }) => JSON.stringify(rest));
        assert.equal(new Set(keys).size, keys.length, 'each location once');
        for (const l of found) {
          assert.ok(l.path && !l.path.includes('\\') && !/\p{Cc}/u.test(l.path), JSON.stringify(l));
          assert.ok(Number.isInteger(l.startLine) && l.startLine >= 1);
          assert.ok(l.endLine === undefined || (Number.isInteger(l.endLine) && l.endLine > l.startLine));
          assert.ok(l.column === undefined || (Number.isInteger(l.column) && l.column >= 1));
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('location paths', () => {
  it('are normalised to forward slashes, without file://, ./ or doubled slashes', () => {
    assert.equal(normalizeLocationPath('C:\\a\\b.ts'), 'C:/a/b.ts');
    assert.equal(normalizeLocationPath('file:///C:/a%20b/c.ts'), 'C:/a b/c.ts');
    assert.equal(normalizeLocationPath('file:///home/x.ts'), '/home/x.ts');
    assert.equal(normalizeLocationPath('./././a//b.ts'), 'a/b.ts');
    assert.equal(normalizeLocationPath('a\nb.ts'), undefined);
    assert.equal(normalizeLocationPath('dir/'), undefined);
    assert.equal(normalizeLocationPath('  '), undefined);
  });

  it("a line of backticks where a report's file line would be is read at once, not for seconds", () => {
    // A hang guard, not a speed target: the old pattern took 0.3 s on 5,000 backticks and grows
    // with the square of the length; 20,000 took seconds. Bounded, it takes microseconds.
    const started = performance.now();
    for (const n of [100, 20_000, 60_000]) assert.deepEqual(findContentLocations(`- File: ${'`'.repeat(n)}x`), []);
    assert.ok(performance.now() - started < 1000, `${Math.round(performance.now() - started)} ms`);
  });
});
