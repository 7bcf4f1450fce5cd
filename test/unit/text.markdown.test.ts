import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { inertMarkdown, inertMarkdownLines } from '../../src/text/markdown';
import { hostileText } from './hostile';

/** What a reader sees of inline Markdown with no syntax left in it: entities and escapes undone. */
const shown = (markdown: string) =>
  markdown.replace(
    /\\(.)|&#(\d+);/g,
    (_, escaped: string | undefined, code: string | undefined) => escaped ?? String.fromCharCode(Number(code)),
  );

describe('inertMarkdown', () => {
  it('leaves no autolink: <scheme:…>, a bare address, www. or an e-mail address', () => {
    for (const text of [
      '<command:helpdesk.goToCode?>',
      '<https://evil.example/login>',
      'see https://evil.example/login now',
      'www.evil.example',
      'mail me@evil.example',
    ]) {
      const markdown = inertMarkdown(text);
      assert.doesNotMatch(markdown, /(^|[^\\])<[a-z]|[a-z]:\/\/|www\.|\w@\w/i, `${text} → ${markdown}`);
      assert.equal(shown(markdown), text, 'and reads as written');
    }
  });

  it('any text reads back as written (on one line), with nothing left that Markdown would act on', () => {
    fc.assert(
      fc.property(hostileText(40), (text) => {
        const markdown = inertMarkdown(text);
        assert.equal(shown(markdown), text.replace(/\r?\n|\r/g, ' '));
        assert.doesNotMatch(markdown, /(^|[^\\])[[\]<>`*_|~!]/);
        assert.doesNotMatch(markdown, /:\/\/|www\.|@|\$\(/i);
      }),
      { numRuns: 60 },
    );
  });

  it('theme icons are written out, not drawn: $(zap) reads as written', () => {
    assert.doesNotMatch(inertMarkdown('$(zap) fast'), /\$\(/);
    assert.equal(shown(inertMarkdown('$(zap) fast')), '$(zap) fast');
  });

  it('on many lines, no line starts a heading, a list or a rule', () => {
    const markdown = inertMarkdownLines('# title\n- item\n+ item\n---\n===\n  # indented\nplain');
    assert.equal(markdown.split('  \n').filter((line) => /^\s*[#+=-]/.test(line)).length, 0, markdown);
    assert.equal(shown(markdown.split('  \n').join('\n')), '# title\n- item\n+ item\n---\n===\n  # indented\nplain');
  });
});
