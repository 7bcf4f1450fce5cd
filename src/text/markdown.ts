/** Markdown made from text that must read as written: escaping, inline code and code fences. No vscode import. */

/**
 * Text for inline Markdown (after a heading's `# `, a list item's `- name: `, in link text):
 * line breaks become spaces and what Markdown reads as syntax inside a line is backslash-escaped.
 * (`#`, `-`, `+` and `1.` only mean something at the start of a line, where this text never
 * stands; parentheses only after a `]`, which is escaped. Leaving them makes a draft easier to read.)
 */
import { madeOnFirstUse } from '../firstUse';
export function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/[\\`*_[\]<>!|~&]/g, '\\$&');
}

/**
 * A word a Markdown renderer could turn into a link by itself, whichever renderer: a web address
 * (`scheme://`, `//host`), an e-mail address (`@`), a `www.` host, or a host name (a dot between
 * any other character and two letters: `evil.com`, `пример.рф`, `~.ac`; not `v1.2`, `e.g.` or
 * `o.o.`). A superset of what linkify-it (markdown-it's, in VS Code's preview) and GFM's autolinks
 * take: linkify-it counts symbols, marks and emoji as a host's letters, by Unicode tables older
 * than the runtime's, so no narrower class can match it.
 */
const LINKABLE = madeOnFirstUse(() => /\/\/|@|www\.|[^.]\.\p{L}{2}/iu);

/** What separates words: white space as a renderer reads it (U+FEFF is white space to JavaScript, a letter to linkify-it). */
const BETWEEN_WORDS = madeOnFirstUse(() => /([^\S\uFEFF]+)/);

/**
 * Untrusted text for inline Markdown in a document a person reads both as it is and in a
 * preview (a post's document): escaped as `escapeMarkdown` does, and every word a renderer could
 * make a link of (see LINKABLE) as inline code, which no renderer links. Entities and escapes do
 * not do it: markdown-it 12 (VS Code's preview until 1.100) decodes them before it looks for
 * links. Reads as written, source and preview alike; plain words stay plain.
 */
export function linklessMarkdown(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .split(BETWEEN_WORDS())
    .map((word, i) => (i % 2 === 1 || !word ? word : LINKABLE().test(word) ? inlineCode(word) : escapeMarkdown(word)))
    .join('');
}

/**
 * Untrusted text for inline Markdown that is rendered (a hover, a tooltip): escaped as
 * `escapeMarkdown` does, and nothing a renderer would turn into a link or an icon by itself
 * either: no `<scheme:…>`, bare `https://…`, `www.`, e-mail address or `$(icon)` (the characters
 * that make them are written as entities, which read the same).
 */
export function inertMarkdown(text: string): string {
  return escapeMarkdown(text).replace(/[:@.$]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Multi-line untrusted text as `inertMarkdown`, line by line: no line can start a heading, a list or a rule. */
export function inertMarkdownLines(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => inertMarkdown(line).replace(/^(\s*)([#+=-])/, '$1\\$2'))
    .join('  \n');
}

/** Text as inline code, with a backtick run longer than any inside it (CommonMark). */
export function inlineCode(text: string): string {
  const oneLine = text.replace(/\r?\n|\r/g, ' ');
  const fence = '`'.repeat(longestBacktickRun(oneLine) + 1);
  const pad = /^`|`$|^ .* $/.test(oneLine) ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
export function codeBlock(text: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/** A URL as a Markdown link destination: the characters that would end it are percent-encoded. */
export function linkDestination(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * Markdown cut to at most `max` characters (a few more for the note), at a line's end where one is
 * near: a fence open where it is cut is closed, so what follows is never read as its content, and
 * a note says how much was left out. Text within `max` is returned as it is. Linear.
 */
export function cutMarkdown(text: string, max: number): string {
  if (text.length <= max) return text;
  const lineEnd = text.lastIndexOf('\n', max);
  const kept = text.slice(0, lineEnd > max / 2 ? lineEnd : max);
  let open: string | undefined;
  for (const line of kept.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  const closing = open === undefined ? '' : `\n${open}`;
  return `${kept}${closing}\n\n(Cut: the whole answer was ${text.length.toLocaleString('en-US')} characters; the first ${kept.length.toLocaleString('en-US')} are shown.)`;
}
