import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildBugReportContent, suggestTitle, type BugReportInput, type CodeSelection } from '../../src/code/bugReport';
import { formatDraftDocument, parseDraftDocument } from '../../src/drafts/draftDocument';
import { brokenText, hostileText } from './hostile';

/** Code as people select it: hostile pieces, backtick runs of every length, indents, CR/LF. */
const code = fc.string({
  unit: fc.oneof(
    hostileText(4),
    fc.integer({ min: 1, max: 12 }).map((n) => '`'.repeat(n)),
    fc.constantFrom('\n', '\r\n', '  ', '\t', '~~~~'),
  ),
  maxLength: 40,
});

const selection: fc.Arbitrary<CodeSelection> = fc.record({
  // Never empty: it names a file.
  relativePath: fc.oneof(hostileText(20), brokenText(20), fc.constant('x'.repeat(10_000))).filter((path) => path.length > 0),
  startLine: fc.integer({ min: 1, max: 1_000_000 }),
  endLine: fc.integer({ min: 1, max: 1_000_000 }),
  languageId: hostileText(8),
  text: code,
});

const input: fc.Arbitrary<BugReportInput> = fc.record({
  description: fc.option(fc.oneof(hostileText(40), code), { nil: undefined }),
  selection,
  location: fc.oneof(
    fc.record({ kind: fc.constant('permalink' as const), url: fc.oneof(fc.webUrl(), hostileText(20)) }),
    fc.record({ kind: fc.constant('local' as const), reason: hostileText(20) }),
  ),
  maxLines: fc.integer({ min: 1, max: 60 }),
});

/** The selection's lines as the report should show them: line ends normalized, the last newline dropped. */
function sourceLines(text: string): string[] {
  const normalized = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  return normalized ? normalized.split('\n') : [];
}

const longestRun = (text: string) => Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));

describe('bug report content (properties)', () => {
  it('the code sits in a fence longer than any backtick run in it, whole and in order', () => {
    fc.assert(
      fc.property(input, (report) => {
        const markdown = buildBugReportContent(report);
        const lines = markdown.split('\n');
        // The description comes first; ours is the last "**Location**" line.
        const location = lines.lastIndexOf('**Location**');
        assert.ok(location >= 0, markdown);
        const source = sourceLines(report.selection.text);
        const open = lines.findIndex((line, i) => i > location && /^`{3,}[A-Za-z0-9_+-]*$/.test(line));
        if (source.length === 0) {
          assert.equal(open, -1);
          assert.ok(markdown.endsWith('_(no code was selected)_\n'), markdown);
          return;
        }
        assert.ok(open > location, markdown);
        const fence = /^`+/.exec(lines[open]!)![0];
        // CommonMark closes a backtick fence at the first line of at least as many backticks.
        const close = lines.findIndex((line, i) => i > open && new RegExp(`^ {0,3}\`{${fence.length},}[ \\t]*$`).test(line));
        assert.equal(lines[close], fence, 'closed by its own fence, not by the code');
        const body = lines.slice(open + 1, close);
        assert.ok(longestRun(body.join('\n')) < fence.length);
        const shown = Math.min(source.length, report.maxLines);
        assert.equal(body.length, shown);
        body.forEach((line, i) => assert.ok(source[i]!.endsWith(line), `line ${i + 1}: only indentation is removed`));
        if (shown < source.length) assert.ok(markdown.endsWith(`_(showing ${shown} of ${source.length} lines)_\n`), markdown);
        else assert.equal(close, lines.length - 2, 'nothing after the code');
      }),
      { numRuns: 400 },
    );
  });

  it('names the file in inline code and the line range, on one line each', () => {
    fc.assert(
      fc.property(input, (report) => {
        const { relativePath, startLine, endLine } = report.selection;
        const markdown = buildBugReportContent(report);
        const file = markdown.split('\n').find((line) => line.startsWith('- File: '));
        assert.ok(file, markdown);
        const [low, high] = [Math.min(startLine, endLine), Math.max(startLine, endLine)];
        const range = low === high ? `line ${low}` : `lines ${low}–${high}`;
        assert.ok(file.endsWith(`, ${range}`), file);
        const span = file.slice('- File: '.length, -`, ${range}`.length);
        const ticks = /^`+/.exec(span)![0];
        assert.ok(span.endsWith(ticks) && span.length >= 2 * ticks.length, span);
        const inner = span.slice(ticks.length, -ticks.length);
        assert.ok(longestRun(inner) < ticks.length, 'the path cannot close its code span');
        const oneLine = relativePath.replace(/\r?\n|\r/g, ' ');
        assert.ok(inner === oneLine || inner === ` ${oneLine} `, `${JSON.stringify(inner)} shows ${JSON.stringify(oneLine)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('a permalink stays one link: nothing in the address can end it', () => {
    fc.assert(
      fc.property(input, (report) => {
        const markdown = buildBugReportContent(report);
        const line = markdown.split('\n').find((l) => l.startsWith('- Permalink: ') || l.startsWith('- No link: '));
        assert.ok(line, markdown);
        if (report.location.kind === 'permalink') assert.match(line, /\]\([^\s()<>\\]*\)$/);
      }),
      { numRuns: 300 },
    );
  });

  it('suggestTitle is one line of at most 80 characters', () => {
    fc.assert(
      fc.property(selection, (s) => {
        const title = suggestTitle(s);
        assert.ok([...title].length <= 80, `${[...title].length}: ${title}`);
        // eslint-disable-next-line no-control-regex -- a title holds no control character: the test looks for them
        assert.ok(!/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(title), JSON.stringify(title));
        assert.ok(title.trim().length > 0);
      }),
      { numRuns: 400 },
    );
  });

  it('a draft document gives back its title and description', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(30), brokenText(30)), fc.oneof(hostileText(60), code), (title, description) => {
        const draft = parseDraftDocument(formatDraftDocument(title, description));
        assert.equal(draft.title, title.replace(/\s+/g, ' ').trim());
        assert.equal(
          draft.description,
          description
            .replace(/\r\n?/g, '\n')
            .replace(/^([ \t]*\n)+/, '')
            .trimEnd(),
        );
      }),
      { numRuns: 500 },
    );
  });
});
