import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cutMarkdown, inertMarkdown, inertMarkdownLines } from '../../src/text/markdown';
import { fences } from './toolRig';
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

describe('cutMarkdown (issue 47: bounded answers)', () => {
  it('text within the bound is left as it is', () => {
    assert.equal(cutMarkdown('short', 10), 'short');
  });

  it('cut inside an open fence: the fence is closed before the note, and the note says how much was left out', () => {
    const text = `Intro\n\`\`\`\`\n${'line with ``` inside\n'.repeat(5000)}\`\`\`\`\nafter`;
    const cut = cutMarkdown(text, 1000);
    assert.ok(cut.length < 1200, String(cut.length));
    assert.match(cut, /\n````\n\n\(Cut: the whole answer was [\d,]+ characters; the first [\d,]+ are shown\.\)$/);
    assert.equal(fences(cut).length, 1);
  });

  it('any text, any bound: never ends inside a fence it opened (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('```', '````', '~~~', 'text', '', '  ```'), { maxLength: 60 }),
        fc.integer({ min: 1, max: 200 }),
        (lines, max) => {
          const text = lines.join('\n');
          const cut = cutMarkdown(text, max);
          let open: string | undefined;
          for (const line of cut.split('\n')) {
            const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
            if (!fence) continue;
            if (open === undefined) open = fence;
            else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
          }
          return text.length <= max || open === undefined;
        },
      ),
    );
  });
});
