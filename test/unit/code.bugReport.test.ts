import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildBugReportContent,
  closeOpenBlocks,
  stripCommonIndent,
  suggestTitle,
  type CodeLocation,
  type CodeSelection,
} from '../../src/code/bugReport';
import { formatDraftDocument, parseDraftDocument } from '../../src/drafts/draftDocument';

const URL = 'https://github.com/o/r/blob/0123456/src/app.ts#L10-L12';

function selection(overrides: Partial<CodeSelection> = {}): CodeSelection {
  return {
    relativePath: 'src/app.ts',
    startLine: 10,
    endLine: 12,
    languageId: 'typescript',
    text: 'const a = 1;\nconst b = 2;\nfoo(a, b);\n',
    ...overrides,
  };
}

function content(
  overrides: { description?: string; selection?: Partial<CodeSelection>; location?: CodeLocation; maxLines?: number } = {},
): string {
  return buildBugReportContent({
    description: overrides.description,
    selection: selection(overrides.selection),
    location: overrides.location ?? { kind: 'permalink', url: URL },
    maxLines: overrides.maxLines ?? 50,
  });
}

/** The fenced code block of the content: its fence, info string and body. */
function codeBlock(markdown: string): { fence: string; tag: string; body: string } {
  const match = /^(`{3,})([^\n`]*)\n([\s\S]*?)\n\1$/m.exec(markdown);
  assert.ok(match, `no code block in:\n${markdown}`);
  return { fence: match[1]!, tag: match[2]!, body: match[3]! };
}

describe('bug report content', () => {
  it('puts the description first, then the location, then the code', () => {
    const text = content({ description: '  The sum is wrong.\n' });
    assert.equal(
      text,
      [
        'The sum is wrong.',
        '',
        '**Location**',
        '',
        '- File: `src/app.ts`, lines 10–12',
        '- Language: typescript',
        `- Permalink: [src/app.ts (lines 10–12)](${URL})`,
        '',
        '```typescript',
        'const a = 1;',
        'const b = 2;',
        'foo(a, b);',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('starts with the location when there is no description', () => {
    assert.match(content(), /^\*\*Location\*\*\n/);
    assert.match(content({ description: ' \n\t' }), /^\*\*Location\*\*\n/);
  });

  it('says "line N" for one line', () => {
    assert.match(content({ selection: { startLine: 7, endLine: 7, text: 'x()' } }), /- File: `src\/app\.ts`, line 7\n/);
  });

  it('writes the local note and its reason instead of a link', () => {
    const text = content({ location: { kind: 'local', reason: 'the file has uncommitted changes' } });
    assert.match(text, /- No link: the code is local or uncommitted \(the file has uncommitted changes\)\.\n/);
    assert.ok(!text.includes('Permalink'), text);
    assert.ok(!text.includes('https://'), text);
  });

  it('uses a fence longer than any backtick run in the code', () => {
    const code = 'const md = `\n```js\nx\n```\n`;\nconst t = ````;';
    const block = codeBlock(content({ selection: { text: code } }));
    assert.equal(block.fence, '`````');
    assert.equal(block.body, code);
    assert.equal(codeBlock(content({ selection: { text: 'a`b' } })).fence, '```');
  });

  it('sanitizes the language tag', () => {
    assert.equal(codeBlock(content({ selection: { languageId: 'c++ `x` {.y}' } })).tag, 'c++xy');
    assert.equal(codeBlock(content({ selection: { languageId: 'objective-c_2' } })).tag, 'objective-c_2');
  });

  it('cuts the code to the line limit with a note', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `line${i + 1}();`);
    const text = content({ selection: { text: lines.join('\n'), startLine: 1, endLine: 120 }, maxLines: 50 });
    const block = codeBlock(text);
    assert.equal(block.body, lines.slice(0, 50).join('\n'));
    assert.match(text, /\n_\(showing 50 of 120 lines\)_\n$/);
    assert.match(text, /lines 1–120/);
  });

  it('cuts code past 20,000 characters (one long minified line) with a note: the report stays far under 65,535', () => {
    const minified = 'a=1;'.repeat(24_042); // 96,168 characters on one line
    const text = content({ selection: { text: minified, startLine: 1, endLine: 1 }, maxLines: 80 });
    assert.equal(codeBlock(text).body, minified.slice(0, 20_000));
    assert.match(text, /\n_\(the code is cut here: a report carries at most 20,000 bytes of it\)_\n$/);
    assert.ok(text.length < 21_000, `${text.length}`);
    const many = Array.from({ length: 80 }, () => 'x'.repeat(1_000)).join('\n');
    const lines = codeBlock(content({ selection: { text: many, startLine: 1, endLine: 80 }, maxLines: 80 })).body.split('\n');
    assert.ok(lines.length < 21 && lines.join('\n').length <= 20_000, `${lines.length} lines`);
  });

  it('a line of exactly 20,000 characters fits: no note', () => {
    const exact = 'x'.repeat(20_000);
    const text = content({ selection: { text: exact, startLine: 1, endLine: 1 }, maxLines: 80 });
    assert.equal(codeBlock(text).body, exact);
    assert.doesNotMatch(text, /cut/);
  });

  it('cuts code by its UTF-8 size (a service may count 65,535 bytes), at a whole character', () => {
    const euros = '€'.repeat(10_000); // 3 bytes each: 30,000 bytes
    const body = codeBlock(content({ selection: { text: euros, startLine: 1, endLine: 1 }, maxLines: 80 })).body;
    assert.equal(new TextEncoder().encode(body).length, 19_998, 'as many whole characters as 20,000 bytes hold');
    const faces = '😀'.repeat(6_000); // a surrogate pair each, 4 bytes
    const cut = codeBlock(content({ selection: { text: faces, startLine: 1, endLine: 1 }, maxLines: 80 })).body;
    assert.equal(cut, '😀'.repeat(5_000), 'no half of a pair');
  });

  it('adds no note when the code fits, and shows at least one line', () => {
    assert.ok(!content({ maxLines: 3 }).includes('showing'));
    assert.match(content({ maxLines: 0 }), /\(showing 1 of 3 lines\)/);
  });

  it('strips the common indentation, keeps tabs and deeper indents', () => {
    const text = '    if (x) {\n\n      y();\n    }\n';
    assert.equal(codeBlock(content({ selection: { text } })).body, 'if (x) {\n\n  y();\n}');
    assert.equal(codeBlock(content({ selection: { text: '\t\tif (x) {\n\t\t\ty();\n\t\t}' } })).body, 'if (x) {\n\ty();\n}');
    assert.deepEqual(stripCommonIndent(['\t  a', '\t b', '   ']), [' a', 'b', '']);
    assert.deepEqual(stripCommonIndent(['  a', 'b']), ['  a', 'b']);
  });

  it('normalizes CRLF and CR line ends', () => {
    const text = content({ description: 'One\r\nTwo', selection: { text: '  a();\r\n  b();\r\n' } });
    assert.ok(!text.includes('\r'), JSON.stringify(text));
    assert.equal(codeBlock(text).body, 'a();\nb();');
    assert.match(text, /^One\nTwo\n\n/);
  });

  it('keeps a path with backticks and brackets inside its inline code and link text', () => {
    const path = 'src/`weird`/[x](y)*_.ts';
    const text = content({ selection: { relativePath: path } });
    assert.match(text, /- File: ``src\/`weird`\/\[x\]\(y\)\*_\.ts``, lines 10–12\n/);
    const link = /- Permalink: \[(.*)\]\((.*)\)\n/.exec(text);
    assert.ok(link, text);
    assert.equal(link[1], 'src/\\`weird\\`/\\[x\\](y)\\*\\_.ts (lines 10–12)');
    assert.equal(link[2], URL);
  });

  it('percent-encodes what would end the link destination', () => {
    const text = content({ location: { kind: 'permalink', url: 'https://h/a (b)<c>.ts' } });
    assert.match(text, /\]\(https:\/\/h\/a%20%28b%29%3Cc%3E\.ts\)\n/);
  });

  it('keeps HTML in the description and closes blocks that would swallow the rest', () => {
    assert.match(
      content({ description: '<b>bold</b> <img src=x onerror=alert(1)>' }),
      /^<b>bold<\/b> <img src=x onerror=alert\(1\)>\n\n\*\*Location\*\*/,
    );
    assert.match(content({ description: 'see:\n```js\nbroken(' }), /^see:\n```js\nbroken\(\n```\n\n\*\*Location\*\*/);
    assert.match(content({ description: '<pre>\nraw' }), /^<pre>\nraw\n<\/pre>\n\n\*\*Location\*\*/);
    assert.match(content({ description: 'a\n<!-- hidden' }), /^a\n<!-- hidden\n-->\n\n\*\*Location\*\*/);
  });

  it('leaves closed blocks alone', () => {
    for (const text of [
      '```\ncode\n```',
      '~~~~\n```\n~~~~',
      '<pre>x</pre>',
      '<!--\nx\n-->',
      'inline ``` not a fence',
      '<script>\n</script>\nafter',
    ]) {
      assert.equal(closeOpenBlocks(text), text, text);
    }
    assert.equal(closeOpenBlocks('~~~~\n~~~'), '~~~~\n~~~\n~~~~');
  });

  it('says when no code was selected', () => {
    const text = content({ selection: { text: '' } });
    assert.match(text, /_\(no code was selected\)_\n$/);
    assert.ok(!text.includes('```'), text);
  });
});

describe('title suggestion', () => {
  it('takes the first line of code that is not blank, a comment or punctuation', () => {
    const text = '\n  // explain\n  /* more\n   * lines */\n  }\n  # py comment\n    return total / count;\n';
    assert.equal(suggestTitle(selection({ text })), 'return total / count;');
  });

  it('collapses whitespace and shortens long lines at a word', () => {
    assert.equal(suggestTitle(selection({ text: 'const  x\t=   1;' })), 'const x = 1;');
    const long = `callSomething(${'argument, '.repeat(12)}last)`;
    const title = suggestTitle(selection({ text: long }));
    assert.ok([...title].length <= 80, title);
    assert.ok(title.endsWith('…'), title);
    assert.ok(long.startsWith(title.slice(0, -1)), title);
  });

  it('falls back to the file name and line', () => {
    assert.equal(suggestTitle(selection({ text: '// only a comment\n\n}' })), 'Bug in app.ts:10');
    assert.equal(suggestTitle(selection({ text: '', relativePath: 'README.md', startLine: 3, endLine: 3 })), 'Bug in README.md:3');
  });
});

describe('draft documents', () => {
  it('reads the first line as the title and the rest after a blank line as the description', () => {
    assert.deepEqual(parseDraftDocument('Crash on save\n\nSteps:\n1. save\n'), { title: 'Crash on save', description: 'Steps:\n1. save' });
    assert.deepEqual(parseDraftDocument('# Crash on save\r\n\r\nBody'), { title: 'Crash on save', description: 'Body' });
    assert.deepEqual(parseDraftDocument('Only a title'), { title: 'Only a title', description: '' });
    assert.deepEqual(parseDraftDocument('Title\nno blank line'), { title: 'Title', description: 'no blank line' });
    assert.deepEqual(parseDraftDocument('#hashtag title\n\n\n    indented code'), {
      title: '#hashtag title',
      description: '    indented code',
    });
  });

  it('round-trips titles and descriptions', () => {
    const cases: [string, string][] = [
      ['Crash on save', 'It fails.\n\n```ts\nx()\n```'],
      ['# Heading-like title', 'body'],
      ['#tag', ''],
      ['Title', '    indented first line\nmore'],
      ['', 'no title'],
    ];
    for (const [title, description] of cases) {
      const doc = formatDraftDocument(title, description);
      assert.deepEqual(parseDraftDocument(doc), { title, description }, JSON.stringify(doc));
      assert.equal(formatDraftDocument(parseDraftDocument(doc).title, parseDraftDocument(doc).description), doc);
    }
  });

  it('writes the title on the first line and one blank line before the description', () => {
    assert.equal(formatDraftDocument('T', 'D'), 'T\n\nD\n');
    assert.equal(formatDraftDocument('T', ''), 'T\n');
    assert.equal(formatDraftDocument('# T', 'D'), '# # T\n\nD\n');
    assert.equal(formatDraftDocument('two\nlines', 'D\r\n'), 'two lines\n\nD\n');
  });
});
