import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findPostReferences } from '../../src/code/postReferences';
import {
  commentLineNow,
  commentSyntax,
  DEFAULT_TRIGGER_WORDS,
  findTriggerComment,
  isValidTriggerWord,
  MAX_TRIGGER_LINE_CHARS,
  referenceEdit,
  withReference,
  type CommentPlace,
  type TriggerOptions,
} from '../../src/code/todoComments';
import { hostileText } from './hostile';

const hasHd = (text: string) => findPostReferences(text, { prefix: 'HD-' }).length > 0;

/** The line with `HD-123` put in, or undefined when the line is not a trigger comment or already has a reference. */
function edited(line: string, languageId = 'typescript', options: TriggerOptions = { containsReference: hasHd }): string | undefined {
  const comment = findTriggerComment(line, languageId, options);
  return comment && !comment.hasReference ? withReference(line, comment, 'HD-123') : undefined;
}

describe('trigger comments: which lines', () => {
  it('finds the trigger word right after each language family’s comment token', () => {
    const cases: [string, string][] = [
      ['typescript', '// TODO fix'],
      ['typescriptreact', '  //TODO fix'],
      ['javascript', '/* TODO fix'],
      ['java', ' * TODO fix'],
      ['rust', '/// TODO fix'],
      ['rust', '//! TODO fix'],
      ['c', '/** TODO fix'],
      ['go', '\t// TODO fix'],
      ['php', '# TODO fix'],
      ['css', '/* TODO fix */'],
      ['scss', '// TODO fix'],
      ['python', '# TODO fix'],
      ['python', '## TODO fix'],
      ['shellscript', '# TODO fix'],
      ['yaml', '  # TODO fix'],
      ['dockerfile', '# TODO fix'],
      ['makefile', '# TODO fix'],
      ['powershell', '<# TODO fix #>'],
      ['sql', '-- TODO fix'],
      ['sql', '/* TODO fix */'],
      ['lua', '-- TODO fix'],
      ['lua', '--[[ TODO fix ]]'],
      ['haskell', '-- TODO fix'],
      ['haskell', '{- TODO fix -}'],
      ['clojure', ';; TODO fix'],
      ['lisp', '; TODO fix'],
      ['ini', '; TODO fix'],
      ['latex', '% TODO fix'],
      ['erlang', '%% TODO fix'],
      ['html', '<!-- TODO fix -->'],
      ['xml', '  <!-- TODO fix'],
      ['markdown', '<!-- TODO fix -->'],
      ['vb', "' TODO fix"],
      ['vb', 'REM TODO fix'],
      ['bat', 'rem TODO fix'],
      ['bat', ':: TODO fix'],
    ];
    for (const [languageId, line] of cases) {
      const comment = findTriggerComment(line, languageId);
      assert.equal(comment?.word, 'TODO', `${languageId}: ${line}`);
      assert.equal(comment.text, 'fix', `${languageId}: ${line}`);
      assert.equal(line.slice(comment.wordStart, comment.wordStart + 4), 'TODO');
    }
  });

  it('has a table for the common languages, and none for plain text', () => {
    for (const id of [
      'javascript',
      'typescript',
      'javascriptreact',
      'typescriptreact',
      'c',
      'cpp',
      'csharp',
      'java',
      'go',
      'rust',
      'swift',
      'kotlin',
      'scala',
      'dart',
      'php',
      'python',
      'ruby',
      'shellscript',
      'perl',
      'r',
      'yaml',
      'toml',
      'dockerfile',
      'makefile',
      'powershell',
      'elixir',
      'sql',
      'lua',
      'haskell',
      'lisp',
      'clojure',
      'latex',
      'html',
      'xml',
      'markdown',
      'vb',
      'css',
      'scss',
      'less',
    ]) {
      assert.ok(commentSyntax(id), id);
    }
    assert.equal(commentSyntax('plaintext'), undefined);
    assert.equal(findTriggerComment('TODO fix', 'plaintext'), undefined);
    assert.equal(findTriggerComment('// TODO fix', 'no-such-language'), undefined);
  });

  it('takes each default word, whole and in its case', () => {
    assert.deepEqual(DEFAULT_TRIGGER_WORDS, ['TODO', 'FIXME', 'BUG', 'HACK']);
    for (const word of DEFAULT_TRIGGER_WORDS) assert.equal(findTriggerComment(`// ${word}: x`, 'go')?.word, word);
    for (const line of [
      '// todo fix',
      '// Todo fix',
      '// TODOS fix',
      '// TODO_fix',
      '// TODO2',
      '// BUGS',
      '// xTODO',
      '// the TODO list',
      '// BUGé',
    ]) {
      assert.equal(findTriggerComment(line, 'go'), undefined, line);
    }
  });

  it('takes configured words instead, and ignores words that are not words', () => {
    assert.equal(findTriggerComment('// NOTE x', 'go', { words: ['NOTE'] })?.word, 'NOTE');
    assert.equal(findTriggerComment('// TODO x', 'go', { words: ['NOTE'] }), undefined);
    assert.equal(findTriggerComment('// a b x', 'go', { words: ['a b', '', '(', 'a'] })?.word, 'a');
    assert.equal(findTriggerComment('// FIXMEPLZ x', 'go', { words: ['FIXME', 'FIXMEPLZ'] })?.word, 'FIXMEPLZ');
    for (const ok of ['TODO', 'XXX', 'todo', 'Fix_me', 'T2']) assert.equal(isValidTriggerWord(ok), true, ok);
    for (const bad of ['', '2DO', 'TO DO', 'TODO:', '@todo', 'X'.repeat(21), 'ÉTÉ']) assert.equal(isValidTriggerWord(bad), false, bad);
  });

  it('does not take code, strings, or a token of another language', () => {
    for (const [languageId, line] of [
      ['typescript', 'const TODO = 1;'],
      ['typescript', 'TODO();'],
      ['typescript', 'const s = "// TODO fix";'],
      ['typescript', "log('x') // TODO fix"],
      ['typescript', 'const url = `a` // TODO fix'],
      ['typescript', 'a //x TODO fix'],
      ['typescript', '# TODO fix'],
      ['typescript', '-- TODO fix'],
      ['typescript', '*TODO fix'],
      ['typescript', '*/ TODO fix'],
      ['python', 'x = "# TODO fix"'],
      ['python', "x = '#' # TODO fix"],
      ['python', '// TODO fix'],
      ['shellscript', 'echo a#TODO fix'],
      ['c', '# TODO fix'],
      ['rust', '#[TODO]'],
      ['html', '// TODO fix'],
      ['sql', 'x -- TODO fix'],
      ['vb', "x = 1 ' TODO fix"],
      ['bat', 'REMTODO fix'],
    ] as const) {
      assert.equal(findTriggerComment(line, languageId)?.word, undefined, `${languageId}: ${line}`);
    }
  });

  it('takes a trailing // or # comment after code without quotes before it', () => {
    assert.equal(findTriggerComment('foo(a, b); // TODO fix', 'typescript')?.text, 'fix');
    assert.equal(findTriggerComment('x = 1  # FIXME: later', 'python')?.text, 'later');
    assert.equal(findTriggerComment('$a = 1; # TODO x', 'php')?.text, 'x');
    assert.equal(findTriggerComment('ls -la # HACK x', 'shellscript')?.word, 'HACK');
  });

  it('reads the tag, the separator and the text, and stops at a block comment’s closer', () => {
    const read = (line: string, id = 'c') => {
      const c = findTriggerComment(line, id);
      return c && [c.tag, c.colon, c.text];
    };
    assert.deepEqual(read('// TODO(alice): fix it '), ['alice', true, 'fix it']);
    assert.deepEqual(read('// TODO ( alice ) fix'), ['alice', false, 'fix']);
    assert.deepEqual(read('// TODO() fix'), ['', false, 'fix']);
    assert.deepEqual(read('// TODO - fix'), ['', false, 'fix']);
    assert.deepEqual(read('// TODO — fix'), ['', false, 'fix']);
    assert.deepEqual(read('// TODO -fix'), ['', false, '-fix']);
    assert.deepEqual(read('// TODO:'), ['', true, '']);
    assert.deepEqual(read('// TODO'), ['', false, '']);
    assert.deepEqual(read('// TODO(unclosed fix'), ['', false, '(unclosed fix']);
    assert.deepEqual(read('/* TODO: fix */ int x;'), ['', true, 'fix']);
    assert.deepEqual(read('<!-- BUG(x) -->', 'html'), ['x', false, '']);
    assert.deepEqual(read('/* TODO(a */ b)'), ['', false, '(a']);
  });

  it('says whether the comment already has a reference, as the caller judges', () => {
    assert.equal(findTriggerComment('// TODO(HD-5): x', 'go', { containsReference: hasHd })?.hasReference, true);
    assert.equal(findTriggerComment('// TODO: see HD-5', 'go', { containsReference: hasHd })?.hasReference, true);
    assert.equal(findTriggerComment('// TODO(alice): x', 'go', { containsReference: hasHd })?.hasReference, false);
    assert.equal(findTriggerComment('/* TODO x */ HD-5', 'go', { containsReference: hasHd })?.hasReference, false);
    assert.equal(findTriggerComment('// TODO(HD-5): x', 'go')?.hasReference, false);
  });
});

describe('trigger comments: long lines', () => {
  /** `line` padded at its end with `pad` to exactly `length` characters. */
  const padded = (line: string, length: number, pad = 'x') => line + pad.repeat(length - line.length);

  it('reads a line up to MAX_TRIGGER_LINE_CHARS long, to its end', () => {
    const line = padded('// TODO: fix ', MAX_TRIGGER_LINE_CHARS);
    const comment = findTriggerComment(line, 'typescript');
    assert.equal(comment?.word, 'TODO');
    assert.equal(comment.text.length, MAX_TRIGGER_LINE_CHARS - '// TODO: '.length);
    const trailing = `${'a//x '.repeat((MAX_TRIGGER_LINE_CHARS - 20) / 5)}b; // TODO fix`;
    assert.ok(trailing.length <= MAX_TRIGGER_LINE_CHARS);
    assert.equal(findTriggerComment(trailing, 'typescript')?.text, 'fix');
  });

  it('does not take a longer line, wherever its comment stands', () => {
    for (const [languageId, line] of [
      ['typescript', padded('// TODO: fix ', MAX_TRIGGER_LINE_CHARS + 1)],
      ['typescript', padded('/* TODO fix */', 200_000)],
      ['python', padded('# FIXME ', 100_000, '#')],
      ['typescript', `${'a'.repeat(MAX_TRIGGER_LINE_CHARS)} // TODO fix`],
      ['typescript', `${'a//x '.repeat(40_000)}b; // TODO fix`],
    ] as const) {
      assert.equal(findTriggerComment(line, languageId), undefined, `${languageId}: ${line.slice(0, 20)}… (${line.length})`);
    }
  });

  it('stops at the first quote on a line of many comment tokens', () => {
    const tokens = '1//x 2#y '.repeat(1000);
    assert.equal(findTriggerComment(`${tokens}// TODO a`, 'php')?.text, 'a');
    assert.equal(findTriggerComment(`${tokens}# TODO b`, 'php')?.text, 'b');
    assert.equal(findTriggerComment(`${tokens}# TODO c`, 'python')?.text, 'c');
    assert.equal(findTriggerComment(`${tokens}// TODO d 'e'`, 'php')?.text, "d 'e'");
    for (const quote of ['"', "'", '`']) {
      assert.equal(findTriggerComment(`${tokens}${quote} ${tokens}// TODO fix`, 'php'), undefined, quote);
      assert.equal(findTriggerComment(`${tokens.slice(0, 3000)}${quote}${tokens.slice(3000)}# TODO fix`, 'python'), undefined, quote);
    }
  });

  it('finds the first trailing token after blanks, among many that follow code', () => {
    const line = `${'x//y#z'.repeat(1500)} // TODO first // TODO second`;
    assert.equal(findTriggerComment(line, 'typescript')?.text, 'first // TODO second');
    assert.equal(findTriggerComment(line, 'php')?.wordStart, 'x//y#z'.repeat(1500).length + 4);
  });
});

describe('trigger comments: putting a reference in', () => {
  it('writes WORD(REF): text whatever stood after the word', () => {
    for (const [line, expected] of [
      ['// TODO fix it', '// TODO(HD-123): fix it'],
      ['// TODO: fix it', '// TODO(HD-123): fix it'],
      ['// TODO :fix it', '// TODO(HD-123): fix it'],
      ['// TODO() fix it', '// TODO(HD-123): fix it'],
      ['// TODO(): fix it', '// TODO(HD-123): fix it'],
      ['// TODO - fix it', '// TODO(HD-123): fix it'],
      ['// TODO(alice): fix it', '// TODO(alice, HD-123): fix it'],
      ['// TODO(alice) fix it', '// TODO(alice, HD-123): fix it'],
      ['// TODO:', '// TODO(HD-123):'],
      ['// TODO', '// TODO(HD-123)'],
      ['// TODO   ', '// TODO(HD-123)   '],
      ['  x(); //FIXME fix', '  x(); //FIXME(HD-123): fix'],
      ['/* TODO fix */', '/* TODO(HD-123): fix */'],
      ['/* TODO */', '/* TODO(HD-123) */'],
      [' * HACK: a  b', ' * HACK(HD-123): a  b'],
    ] as const) {
      assert.equal(edited(line), expected, line);
    }
    assert.equal(edited('<!-- TODO: fix -->', 'markdown'), '<!-- TODO(HD-123): fix -->');
    assert.equal(edited('# TODO fix', 'python'), '# TODO(HD-123): fix');
  });

  it('does nothing where the comment already has a reference', () => {
    assert.equal(edited('// TODO(HD-1): x'), undefined);
    const comment = findTriggerComment('// TODO(HD-1): x', 'go', { containsReference: hasHd })!;
    assert.equal(referenceEdit(comment, 'HD-2'), undefined);
    assert.equal(withReference('// TODO(HD-1): x', comment, 'HD-2'), '// TODO(HD-1): x');
  });

  it('gives the edit as a range of the line and its new text', () => {
    const comment = findTriggerComment('// TODO: x', 'go')!;
    assert.deepEqual(comment.header, { start: 7, end: 9 });
    assert.deepEqual(referenceEdit(comment, 'HD-9'), { start: 7, end: 9, newText: '(HD-9): ' });
  });

  it('refuses a reference that would break the comment', () => {
    const comment = findTriggerComment('// TODO: x', 'go')!;
    for (const bad of ['', 'a)b', 'a(b', 'a\nb', 'a*/']) assert.throws(() => referenceEdit(comment, bad), RangeError, bad);
  });

  it('keeps the rest of any line and finds the reference it put in (property)', () => {
    const tail = hostileText(20).filter((t) => !/[\r\n\u2028\u2029\u0085]/.test(t));
    fc.assert(
      fc.property(
        fc.constantFrom('// ', '//', '  // ', '/* ', ' * '),
        fc.constantFrom('TODO', 'FIXME'),
        fc.constantFrom(':', ' ', ': ', '(a) ', '(): ', ' - '),
        tail,
        (token, word, header, rest) => {
          const line = `${token}${word}${header}${rest}`;
          const comment = findTriggerComment(line, 'typescript', { containsReference: hasHd });
          assert.ok(comment, line);
          if (comment.hasReference) return;
          const after = withReference(line, comment, 'HD-77');
          assert.ok(after.startsWith(`${token}${word}(`), after);
          assert.ok(after.endsWith(line.slice(comment.header.end)), after);
          const again = findTriggerComment(after, 'typescript', { containsReference: hasHd });
          assert.equal(again?.hasReference, true, after);
          assert.equal(again.text, comment.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('trigger comments: where a comment read earlier is now', () => {
  const now = (lines: string[], opened = 'w.1', version = 1) => ({
    opened,
    version,
    lineCount: lines.length,
    lineAt: (line: number) => lines[line]!,
  });
  const place: CommentPlace = { line: 2, lineText: '// TODO: handle errors', version: 1, opened: 'w.1' };
  const alike = ['// TODO: handle errors', 'first();', '// TODO: handle errors', 'second();'];

  it('in the same open document at the same version: its own line, though another reads the same', () => {
    assert.equal(commentLineNow(place, now(alike)), 2);
    assert.equal(commentLineNow(place, now(['x', 'y', '// TODO: other'])), 'none');
    assert.equal(commentLineNow({ ...place, line: 9 }, now(alike)), 'none');
  });

  it('closed and opened again, at the same version number: the version is not trusted, the lines are searched', () => {
    const reopened = (lines: string[]) => now(lines, 'w.2', 1);
    assert.equal(
      commentLineNow(place, reopened(['import a;', 'import b;', ...alike])),
      'several',
      'the comment two lines up reads the same: neither',
    );
    assert.equal(
      commentLineNow(place, reopened(['import a;', 'import b;', 'first();', 'second();', '// TODO: handle errors'])),
      4,
      'the one line that reads as it did',
    );
    assert.equal(commentLineNow(place, reopened(['import a;', 'import b;', '// TODO: handle all errors'])), 'none');
  });

  it('another version, or a draft saved before the open document was named: the lines are searched', () => {
    assert.equal(commentLineNow(place, now(alike, 'w.1', 2)), 'several');
    assert.equal(commentLineNow({ ...place, opened: undefined }, now(alike)), 'several');
    assert.equal(commentLineNow({ ...place, opened: undefined }, now(['a', 'b', 'c', '// TODO: handle errors'])), 3);
  });

  it('property: a line found reads as the comment did, and outside the same open document at the same version it is the only one that does', () => {
    const lines = fc.array(fc.constantFrom('// TODO: a', '// TODO: b', 'code();', ''), { maxLength: 12 });
    fc.assert(
      fc.property(
        lines,
        fc.nat(14),
        fc.constantFrom('// TODO: a', '// TODO: b'),
        fc.boolean(),
        fc.boolean(),
        (text, line, lineText, sameDocument, sameVersion) => {
          const found = commentLineNow(
            { line, lineText, version: 1, opened: 'w.1' },
            now(text, sameDocument ? 'w.1' : 'w.2', sameVersion ? 1 : 2),
          );
          if (typeof found !== 'number') return;
          assert.equal(text[found], lineText);
          if (!(sameDocument && sameVersion)) assert.equal(text.filter((t) => t === lineText).length, 1);
        },
      ),
    );
  });
});
