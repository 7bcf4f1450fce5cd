/** The Markdown of a bug report made from selected code. No vscode import. */
import { codeBlock, escapeMarkdown, inlineCode, linkDestination } from '../text/markdown';

export interface CodeSelection {
  /** Relative to the workspace folder, forward slashes. */
  relativePath: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  languageId: string;
  text: string;
}

export type CodeLocation = { kind: 'permalink'; url: string } | { kind: 'local'; reason: string };

export interface BugReportInput {
  description?: string;
  selection: CodeSelection;
  location: CodeLocation;
  /** The most lines of code to include; the rest is cut with a note. */
  maxLines: number;
}

export function lineRangeText(startLine: number, endLine: number): string {
  const [start, end] = startLine <= endLine ? [startLine, endLine] : [endLine, startLine];
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Removes the longest whitespace prefix that every non-blank line shares (tabs and spaces as they are). */
export function stripCommonIndent(lines: readonly string[]): string[] {
  let common: string | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let i = 0;
      while (i < common.length && i < indent.length && common[i] === indent[i]) i++;
      common = common.slice(0, i);
    }
    if (!common) break;
  }
  const prefix = common ?? '';
  return lines.map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line.trim() ? line : ''));
}

/**
 * Closes what a description leaves open and would swallow the rest of the post: a code fence,
 * or an HTML block that only ends at a closing tag (`<pre>`, `<script>`, `<style>`,
 * `<textarea>`, `<!--`, `<?`, `<![CDATA[`).
 */
export function closeOpenBlocks(markdown: string): string {
  let fence: string | undefined;
  let htmlEnd: RegExp | undefined;
  let htmlCloser = '';
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = undefined;
      continue;
    }
    const open = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/.exec(line);
    if (open) {
      fence = open[1]!;
      continue;
    }
    const html = /^ {0,3}<(?:(pre|script|style|textarea)(?=[\s>]|$)|(!--)|(\?)|(!\[CDATA\[))/i.exec(line);
    if (!html) continue;
    const [end, closer] = html[1]
      ? [new RegExp(`</${html[1]}>`, 'i'), `</${html[1].toLowerCase()}>`]
      : html[2]
        ? [/-->/, '-->']
        : html[3]
          ? [/\?>/, '?>']
          : [/\]\]>/, ']]>'];
    if (!end.test(line.slice(html.index + html[0].length))) {
      htmlEnd = end;
      htmlCloser = closer;
    }
  }
  if (fence !== undefined) return `${markdown}\n${fence}`;
  if (htmlEnd) return `${markdown}\n${htmlCloser}`;
  return markdown;
}

/**
 * The most code a report carries, in UTF-8 bytes, whatever `maxLines` allows: a service may keep
 * only the first 65,535 characters or bytes of a post (one line of minified code is often more),
 * and the rest of the report must fit beside it.
 */
export const SNIPPET_MAX_BYTES = 20_000;

/**
 * The snippet's lines as shown: CRLF normalized, the final newline dropped, cut to `maxLines`
 * and to `SNIPPET_MAX_BYTES` (a longer line is cut at a whole character), common indent removed.
 */
function snippetLines(text: string, maxLines: number): { shown: string[]; total: number; cutBytes: boolean } {
  const normalized = normalizeNewlines(text).replace(/\n$/, '');
  const lines = normalized ? normalized.split('\n') : [];
  const limit = Number.isNaN(maxLines) ? lines.length : Math.max(1, Math.floor(maxLines));
  const shown: string[] = [];
  let room = SNIPPET_MAX_BYTES;
  let cutBytes = false;
  for (const line of lines.slice(0, limit)) {
    const newline = shown.length > 0 ? 1 : 0;
    const cut = headInBytes(line, room - newline);
    if (cut.length > 0 || cut === line) shown.push(cut);
    room -= newline + utf8Length(cut);
    if (cut !== line) {
      cutBytes = true;
      break;
    }
  }
  return { shown: stripCommonIndent(shown), total: lines.length, cutBytes };
}

/** The longest start of `text` that `bytes` UTF-8 bytes hold, at a whole character. */
function headInBytes(text: string, bytes: number): string {
  if (text.length * 3 <= bytes) return text;
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += utf8Length(char);
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, Math.max(0, end));
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

/** The post's content (Markdown): description, where the code is, and the code itself. */
export function buildBugReportContent({ description, selection, location, maxLines }: BugReportInput): string {
  const parts: string[] = [];
  const text = normalizeNewlines(description ?? '').trim();
  if (text) parts.push(closeOpenBlocks(text));

  const range = lineRangeText(selection.startLine, selection.endLine);
  const language = selection.languageId.trim();
  const where = [`- File: ${inlineCode(selection.relativePath)}, ${range}`];
  if (language) where.push(`- Language: ${escapeMarkdown(language)}`);
  where.push(
    location.kind === 'permalink'
      ? `- Permalink: [${escapeMarkdown(`${selection.relativePath} (${range})`)}](${linkDestination(location.url)})`
      : `- No link: the code is local or uncommitted (${escapeMarkdown(location.reason)}).`,
  );
  parts.push(['**Location**', '', ...where].join('\n'));

  const { shown, total, cutBytes } = snippetLines(selection.text, maxLines);
  if (total === 0) {
    parts.push('_(no code was selected)_');
  } else {
    parts.push(codeBlock(shown.join('\n'), language.replace(/[^A-Za-z0-9_+-]/g, '')));
    if (cutBytes) parts.push(`_(the code is cut here: a report carries at most ${SNIPPET_MAX_BYTES.toLocaleString('en')} bytes of it)_`);
    else if (shown.length < total) parts.push(`_(showing ${shown.length} of ${total} lines)_`);
  }
  return `${parts.join('\n\n')}\n`;
}

const COMMENT_LINE = /^(\/\/|\/\*|\*|#|--|;|<!--|%|"""|''')/;
const TITLE_MAX = 80;

/** A title for the report: the first line of code that says something, else `Bug in <file>:<line>`. */
export function suggestTitle(selection: CodeSelection): string {
  for (const raw of normalizeNewlines(selection.text).split('\n')) {
    const line = oneLine(raw);
    if (!line || COMMENT_LINE.test(line) || !/[\p{L}\p{N}]/u.test(line)) continue;
    return shorten(line, TITLE_MAX);
  }
  // A file name can hold line breaks and be of any length too.
  const name = oneLine(selection.relativePath.split('/').filter(Boolean).pop() ?? selection.relativePath);
  const at = `:${Math.min(selection.startLine, selection.endLine)}`;
  return `Bug in ${shorten(name, TITLE_MAX - 'Bug in '.length - at.length)}${at}`;
}

/** Controls (C0 and C1) as spaces, whitespace runs and line separators as one space. */
function oneLine(text: string): string {
  return text
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function shorten(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
