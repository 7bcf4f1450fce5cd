/**
 * Comment lines that start with a trigger word (`// TODO: …`), and the edit that names a post in
 * them (`// TODO(HD-123): …`). No vscode import.
 *
 * A line counts when its first non-blank characters are the language's comment token (a line
 * comment, a block comment's opener, or the `*` of a block comment's continuation line), or when
 * it ends in a `//` or `#` comment that follows white space and no quote character stands before
 * it: without a parser a quote may open a string that holds the token (`"# TODO"`).
 */
import { madeOnFirstUse } from '../firstUse';

export interface CommentSyntax {
  /** Tokens of comments that run to the end of the line. */
  line: readonly string[];
  /** Openers and closers of block comments. */
  block: readonly (readonly [open: string, close: string])[];
}

export interface TriggerComment {
  word: string;
  /** Offset of the word in the line. */
  wordStart: number;
  /** What stood in parentheses after the word, trimmed (`alice` in `TODO(alice):`); '' when nothing did. */
  tag: string;
  /** Whether a `:` followed the word (and its parentheses). */
  colon: boolean;
  /** The comment after the word, its parentheses and separator, trimmed, up to a block comment's closer. */
  text: string;
  /** The part of the line, right after the word, that `(REF): ` replaces. */
  header: { start: number; end: number };
  /** What the caller's `containsReference` said of the comment after the word. */
  hasReference: boolean;
}

export interface TriggerOptions {
  /** The trigger words (default `DEFAULT_TRIGGER_WORDS`); words that are not `isValidTriggerWord` are ignored. */
  words?: readonly string[];
  /** Whether the comment's text after the word already names a post (e.g. through `findPostReferences`). */
  containsReference?: (text: string) => boolean;
}

export const DEFAULT_TRIGGER_WORDS: readonly string[] = ['TODO', 'FIXME', 'BUG', 'HACK'];

/**
 * A longer line is not read at all: a comment a person wrote, even a paragraph on one line, fits;
 * past it stand minified or generated code and data, whose `// TODO` is nobody's task (and a task
 * made from the line would carry all of it). The same length as the references' `MAX_SCANNED_CHARS`.
 */
export const MAX_TRIGGER_LINE_CHARS = 10_000;

const C_BLOCK = ['/*', '*/'] as const;
const HTML_BLOCK = ['<!--', '-->'] as const;

const SYNTAX_TABLE: readonly [languageIds: readonly string[], syntax: CommentSyntax][] = [
  [
    [
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
      'groovy',
      'objective-c',
      'objective-cpp',
      'jsonc',
      'scss',
      'less',
    ],
    { line: ['//'], block: [C_BLOCK] },
  ],
  [['php'], { line: ['//', '#'], block: [C_BLOCK] }],
  [['css'], { line: [], block: [C_BLOCK] }],
  [
    [
      'python',
      'ruby',
      'shellscript',
      'perl',
      'r',
      'yaml',
      'toml',
      'dockerfile',
      'makefile',
      'elixir',
      'coffeescript',
      'julia',
      'cmake',
      'properties',
      'dotenv',
    ],
    { line: ['#'], block: [] },
  ],
  [['powershell'], { line: ['#'], block: [['<#', '#>']] }],
  [['sql'], { line: ['--'], block: [C_BLOCK] }],
  [['lua'], { line: ['--'], block: [['--[[', ']]']] }],
  [['haskell'], { line: ['--'], block: [['{-', '-}']] }],
  [['lisp', 'clojure', 'scheme'], { line: [';'], block: [] }],
  [['ini'], { line: [';', '#'], block: [] }],
  [['latex', 'tex', 'bibtex', 'matlab', 'erlang'], { line: ['%'], block: [] }],
  [['html', 'xml', 'xsl', 'markdown', 'svg'], { line: [], block: [HTML_BLOCK] }],
  [['vb'], { line: ["'", 'REM'], block: [] }],
  [['bat'], { line: ['REM', '::'], block: [] }],
];

const SYNTAX = new Map(SYNTAX_TABLE.flatMap(([ids, syntax]) => ids.map((id) => [id, syntax] as const)));

/** Tokens that may end a line of code (see the module's comment). */
const TRAILING_TOKENS = ['//', '#'];
const QUOTES = /["'`]/;
const WORD_CHAR = madeOnFirstUse(() => /[\p{L}\p{N}\p{M}_]/u);

/** The comment syntax of a VS Code language id; undefined for plain text and languages not in the table. */
export function commentSyntax(languageId: string): CommentSyntax | undefined {
  return SYNTAX.get(languageId);
}

/** A trigger word is an ASCII letter and up to 19 more letters, digits or `_`. */
export function isValidTriggerWord(word: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_]{0,19}$/.test(word);
}

/** The trigger comment on `line`, or undefined when the line is not a comment that starts with a trigger word or is longer than `MAX_TRIGGER_LINE_CHARS`. */
export function findTriggerComment(line: string, languageId: string, options: TriggerOptions = {}): TriggerComment | undefined {
  const syntax = line.length <= MAX_TRIGGER_LINE_CHARS ? commentSyntax(languageId) : undefined;
  const body = syntax && commentBody(line, syntax);
  if (!body) return undefined;
  const end = body.closer ? indexOrEnd(line, body.closer, body.start) : line.length;
  const wordStart = skipMarks(line, body.start, body.token, end);
  const words = (options.words ?? DEFAULT_TRIGGER_WORDS).filter(isValidTriggerWord);
  const word = words
    .filter((w) => line.startsWith(w, wordStart) && wordStart + w.length <= end && !WORD_CHAR().test(line[wordStart + w.length] ?? ''))
    .sort((a, b) => b.length - a.length)[0];
  if (!word) return undefined;

  const wordEnd = wordStart + word.length;
  let at = skipBlanks(line, wordEnd, end);
  let tag = '';
  const close = line[at] === '(' ? line.indexOf(')', at) : -1;
  if (close >= 0 && close < end && !line.slice(at + 1, close).includes('(')) {
    tag = line.slice(at + 1, close).trim();
    at = close + 1;
  } else {
    at = wordEnd;
  }
  const beforeSeparator = skipBlanks(line, at, end);
  const colon = line[beforeSeparator] === ':';
  const dash = beforeSeparator > at && '-–—'.includes(line[beforeSeparator] ?? '_') && /^[ \t]/.test(line[beforeSeparator + 1] ?? '');
  if (colon || dash) at = beforeSeparator + 1;
  const textStart = skipBlanks(line, at, end);
  const text = line.slice(textStart, end).trimEnd();
  return {
    word,
    wordStart,
    tag,
    colon,
    text,
    // Without text, the blanks before a closer (`/* TODO */`) stay.
    header: { start: wordEnd, end: text ? textStart : at },
    hasReference: options.containsReference?.(line.slice(wordEnd, end)) ?? false,
  };
}

/**
 * The edit that puts `reference` into the comment (`TODO(REF): text`, `TODO(alice, REF): text`,
 * `TODO(REF):`, `TODO(REF)`), as a range of the line; undefined when it already has a reference.
 */
export function referenceEdit(comment: TriggerComment, reference: string): { start: number; end: number; newText: string } | undefined {
  if (!reference || /[()\r\n\u0085\u2028\u2029]|\*\/|-->/.test(reference))
    throw new RangeError(`Not a reference to put in a comment: ${JSON.stringify(reference)}`);
  if (comment.hasReference) return undefined;
  const inside = comment.tag ? `${comment.tag}, ${reference}` : reference;
  const after = comment.text ? ': ' : comment.colon ? ':' : '';
  return { ...comment.header, newText: `(${inside})${after}` };
}

/** The line with `reference` put into its comment (unchanged when the comment already has one). */
export function withReference(line: string, comment: TriggerComment, reference: string): string {
  const edit = referenceEdit(comment, reference);
  return edit ? `${line.slice(0, edit.start)}${edit.newText}${line.slice(edit.end)}` : line;
}

/** A comment's line as it was read: where, its whole text, and in which open document at which version. */
export interface CommentPlace {
  line: number;
  lineText: string;
  version: number;
  /** The open document read (an id that names it until it is closed); unknown in drafts saved before it was kept. */
  opened?: string;
}

/** A document as it is now. */
export interface DocumentNow {
  opened: string;
  version: number;
  lineCount: number;
  lineAt(line: number): string;
}

/**
 * The line a comment read earlier is on now. In the same open document at the same version, its
 * own line. A version counts in no other: a document closed and opened again (changed on disk
 * meanwhile, maybe) counts its versions from the start again. Otherwise it is the one line that
 * reads exactly as the comment did: with none, 'none'; with several, 'several', as writing on
 * the wrong one is worse than writing on none.
 */
export function commentLineNow(place: CommentPlace, now: DocumentNow): number | 'none' | 'several' {
  if (place.opened !== undefined && place.opened === now.opened && place.version === now.version) {
    return place.line < now.lineCount && now.lineAt(place.line) === place.lineText ? place.line : 'none';
  }
  let found: number | undefined;
  for (let line = 0; line < now.lineCount; line++) {
    if (now.lineAt(line) !== place.lineText) continue;
    if (found !== undefined) return 'several';
    found = line;
  }
  return found ?? 'none';
}

interface CommentBody {
  /** Where the comment's text begins, right after its token. */
  start: number;
  token: string;
  /** The block comment's closer, when the comment may end on this line. */
  closer?: string;
}

function commentBody(line: string, syntax: CommentSyntax): CommentBody | undefined {
  const first = skipBlanks(line, 0, line.length);
  const starts = [
    ...syntax.block.map(([open, close]) => ({ token: open, closer: close })),
    ...syntax.line.map((token) => ({ token, closer: undefined })),
  ].sort((a, b) => b.token.length - a.token.length);
  for (const { token, closer } of starts) {
    if (startsWithToken(line, token, first)) return { start: first + token.length, token, closer };
  }
  const continuesBlock = syntax.block.some(([open]) => open === '/*');
  if (continuesBlock && line[first] === '*' && (first + 1 === line.length || /[ \t]/.test(line[first + 1]!))) {
    return { start: first + 1, token: '*', closer: '*/' };
  }
  // Only tokens before the first quote count; where that quote stands is read once, not for each token.
  const quote = line.search(QUOTES);
  const beforeQuote = quote < 0 ? line.length : quote;
  for (const token of syntax.line.filter((t) => TRAILING_TOKENS.includes(t))) {
    for (let at = line.indexOf(token, first); at > first && at < beforeQuote; at = line.indexOf(token, at + 1)) {
      if (/[ \t]/.test(line[at - 1]!)) return { start: at + token.length, token };
    }
  }
  return undefined;
}

function startsWithToken(line: string, token: string, at: number): boolean {
  if (token !== 'REM') return line.startsWith(token, at);
  // Batch and VB keywords are not case-sensitive, and REM is a keyword only when a blank or the end follows.
  return line.slice(at, at + 3).toUpperCase() === 'REM' && (at + 3 === line.length || /[ \t]/.test(line[at + 3]!));
}

/** Skips what decorates a comment's token (`///`, `//!`, `/**`, `;;`, `%%`, `##`), then blanks. */
function skipMarks(line: string, at: number, token: string, end: number): number {
  const last = token[token.length - 1]!;
  if (!/[A-Za-z]/.test(last)) while (at < end && line[at] === last) at++;
  if (line[at] === '!' && at < end) at++;
  return skipBlanks(line, at, end);
}

function skipBlanks(line: string, at: number, end: number): number {
  while (at < end && (line[at] === ' ' || line[at] === '\t')) at++;
  return at;
}

function indexOrEnd(line: string, text: string, from: number): number {
  const at = line.indexOf(text, from);
  return at < 0 ? line.length : at;
}
