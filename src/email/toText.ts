/**
 * A post's content as plain text: HTML e-mails converted by html-to-text (htmlparser2's tree,
 * made for e-mails), other content as written. The text is data for the caller's own medium: it
 * holds no markup that was markup, but it may hold `<`, `*`, `[` and the like as the sender
 * wrote them, so a caller escapes it for Markdown, a label or a tool's answer as it escapes any
 * server text. No vscode here, so it is tested under Node alone; the words it adds (an image's
 * placeholder, the quoted history left out) come from the caller, translated.
 *
 * The e-mail's tree is read and reduced once (parse.ts, prune.ts) and html-to-text walks that
 * tree: it is handed a placeholder element whose formatter walks the tree given as metadata, so
 * htmlparser2 never reads a sender's HTML without the bounds of parse.ts.
 *
 * Paragraphs and line breaks stay; lists get "- " or their numbers; a link reads
 * `text <https://…>` (its text alone when its address is not http, https or mailto, and its
 * address once when that is its text); an image reads `[image: alt]`; quoted history is left out
 * behind one line (or, with `quoted: 'quote'`, kept with `> ` before each line), except when
 * there is nothing but quoted history (a forward), which is then kept. Controls, bidi marks and
 * zero-width characters go as in all server text (src/text/serverText.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, so that htmlparser2 is bundled once
import htmlToText = require('html-to-text');
import type { DomNode, FormatCallback, RecursiveCallback } from 'html-to-text';
import { bodyText } from '../text/serverText';
import { contentIsHtml, type PostContent } from './contentKind';
import { linkTarget, shownAddress } from './links';
import { MAX_DEPTH, parseEmail, type Document } from './parse';
import { pruneEmail, QUOTE_TAG } from './prune';

type BlockTextBuilder = Parameters<FormatCallback>[2];

/** The words the text adds, in the person's language. */
export interface TextLabels {
  /** An image, by its alternative text (empty when it has none). */
  image: (alt: string) => string;
  /** One line in place of quoted history. */
  quoted: string;
  /** After text cut short: the e-mail was longer than what is read or shown. */
  cut: string;
}

export const ENGLISH_TEXT_LABELS: TextLabels = {
  image: (alt) => (alt ? `[image: ${alt}]` : '[image]'),
  quoted: '[quoted earlier messages left out]',
  cut: '[…the rest of this message is too long to show]',
};

export interface EmailTextOptions {
  /** The text's length at most, the cut's line included (default 100,000 characters). */
  maxChars?: number;
  /** Quoted history left out behind one line (default), or kept with `> ` before each line. */
  quoted?: 'fold' | 'quote';
  labels?: Partial<TextLabels>;
}

export interface EmailText {
  text: string;
  /** Something was left out for length: the HTML read, or the text shown. */
  truncated: boolean;
  /** The e-mail held quoted history (left out or marked). */
  quoted: boolean;
}

export interface PostText extends EmailText {
  /** The content was HTML (and is shown converted). */
  html: boolean;
}

export const DEFAULT_MAX_CHARS = 100_000;
/** Quotes nested deeper get no further `> `: each level would copy every line again. */
const MAX_QUOTE_MARKS = 3;
/** Lists nested deeper are laid out as plain lines: each level would indent every line again. */
const MAX_LIST_INDENT = 4;

interface State {
  root: Document;
  labels: TextLabels;
  quoted: 'fold' | 'quote';
  quoteDepth: number;
  listDepth: number;
}

/** html-to-text passes the metadata of a conversion to its formatters as `builder.metadata` (its README: "Custom metadata"). */
const stateOf = (builder: BlockTextBuilder): State => (builder as BlockTextBuilder & { metadata: State }).metadata;
type Formatters = Record<string, FormatCallback>;
const formattersOf = (builder: BlockTextBuilder): Formatters =>
  (builder as BlockTextBuilder & { options: { formatters: Formatters } }).options.formatters;

/**
 * html-to-text walks htmlparser2's own nodes, which these are; its types simplify them (every node
 * with `children`), so domhandler's nodes are named by that simpler type here, in one place.
 */
const htmlToTextNodes = (nodes: Document['children']): DomNode[] => nodes as unknown as DomNode[];

const root: FormatCallback = (_elem, walk, builder) => walk(htmlToTextNodes(stateOf(builder).root.children), builder);

function quotedBlock(walk: RecursiveCallback, elem: Parameters<FormatCallback>[0], builder: BlockTextBuilder): void {
  const state = stateOf(builder);
  state.quoteDepth++;
  try {
    if (state.quoteDepth > MAX_QUOTE_MARKS)
      formattersOf(builder).block!(elem, walk, builder, { leadingLineBreaks: 1, trailingLineBreaks: 1 });
    else formattersOf(builder).blockquote!(elem, walk, builder, { leadingLineBreaks: 2, trailingLineBreaks: 2 });
  } finally {
    state.quoteDepth--;
  }
}

const quote: FormatCallback = (elem, walk, builder) => {
  const state = stateOf(builder);
  if (state.quoted === 'quote') {
    // A quote made of one blockquote is marked by it: one `> `, not two.
    const only = elem.children.length === 1 ? elem.children[0] : undefined;
    return only?.name === 'blockquote' ? walk(elem.children, builder) : quotedBlock(walk, elem, builder);
  }
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addInline(state.labels.quoted, { noWordTransform: true });
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const blockquote: FormatCallback = (elem, walk, builder) => quotedBlock(walk, elem, builder);

/** Link text as the words html-to-text collected, without the spaces; compared loosely with the address. */
function sameAsAddress(words: string, address: string): boolean {
  const loose = (s: string) =>
    s
      .toLowerCase()
      .replace(/^(https?:\/\/|mailto:)/, '')
      .replace(/\/$/, '');
  return loose(words) === loose(address);
}

const link: FormatCallback = (elem, walk, builder) => {
  const target = linkTarget((elem.attribs as Record<string, string> | undefined)?.href);
  if (!target) return walk(elem.children, builder);
  let words = '';
  builder.pushWordTransform((word) => {
    words += word;
    return word;
  });
  walk(elem.children, builder);
  builder.popWordTransform();
  const address = shownAddress(target);
  if (!sameAsAddress(words, address)) builder.addInline(words ? ` <${address}>` : `<${address}>`, { noWordTransform: true });
};

const image: FormatCallback = (elem, _walk, builder) => {
  const alt = bodyText((elem.attribs as Record<string, string> | undefined)?.alt ?? '', 200)
    .replace(/\s+/g, ' ')
    .trim();
  builder.addInline(stateOf(builder).labels.image(alt), { noWordTransform: true });
};

function list(format: 'orderedList' | 'unorderedList'): FormatCallback {
  return (elem, walk, builder, options) => {
    const state = stateOf(builder);
    state.listDepth++;
    try {
      if (state.listDepth > MAX_LIST_INDENT)
        formattersOf(builder).block!(elem, walk, builder, { leadingLineBreaks: 1, trailingLineBreaks: 1 });
      else formattersOf(builder)[format]!(elem, walk, builder, options);
    } finally {
      state.listDepth--;
    }
  };
}

/** A table's cell: its text, then a space before the next cell's (a row is one line; a cell's blocks break it). */
const cell: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  builder.addInline(' ');
};

type Sibling = { type: string; name?: string; data?: string; next: Sibling | null } | null;

/**
 * Outlook's paragraph in a table's cell: on the row's line, and a line of its own only after
 * another (a cell of one paragraph is one cell of the row; a signature's lines stay lines).
 */
const cellParagraph: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  let next = (elem as unknown as { next: Sibling }).next;
  while (next && next.type === 'text' && next.data?.trim() === '') next = next.next;
  if (next?.type === 'tag') builder.addLineBreak();
};

const BLOCKS = ['center', 'address', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'caption', 'details', 'summary', 'fieldset', 'legend', 'tr'];
const line = { leadingLineBreaks: 1, trailingLineBreaks: 1 };

const convert = htmlToText.compile({
  wordwrap: false,
  // The tree is parse.ts's, given as metadata; html-to-text reads only the placeholder.
  baseElements: { selectors: [], returnDomByDefault: true },
  limits: { maxDepth: MAX_DEPTH + 16, maxInputLength: 100, ellipsis: '…' },
  formatters: {
    hbRoot: root,
    hbQuote: quote,
    hbBlockquote: blockquote,
    hbLink: link,
    hbImage: image,
    hbOrderedList: list('orderedList'),
    hbUnorderedList: list('unorderedList'),
    hbCell: cell,
    hbCellParagraph: cellParagraph,
  },
  // HTML's own whitespace only: a zero-width space is no space between words, and goes with the other invisible characters.
  whitespaceCharacters: ' \t\r\n\f',
  selectors: [
    { selector: 'hb-root', format: 'hbRoot' },
    { selector: QUOTE_TAG, format: 'hbQuote' },
    { selector: 'blockquote', format: 'hbBlockquote' },
    { selector: 'a', format: 'hbLink' },
    { selector: 'img', format: 'hbImage' },
    { selector: 'ol', format: 'hbOrderedList' },
    { selector: 'ul', format: 'hbUnorderedList', options: { itemPrefix: '- ' } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'hr', options: { length: 10 } },
    { selector: 'table', format: 'block', options: line },
    { selector: 'td', format: 'hbCell' },
    { selector: 'th', format: 'hbCell' },
    // Outlook's paragraphs have no margins: one line each, its empty ones (&nbsp;) making the gaps.
    { selector: 'p.MsoNormal', format: 'block', options: line },
    { selector: 'td > p.MsoNormal', format: 'hbCellParagraph' },
    { selector: 'th > p.MsoNormal', format: 'hbCellParagraph' },
    ...BLOCKS.map((selector) => ({ selector, format: 'block', options: line })),
  ],
}) as (html: string, metadata: State) => string;

function labelsOf(options: EmailTextOptions): TextLabels {
  return { ...ENGLISH_TEXT_LABELS, ...options.labels };
}

/** An HTML e-mail as text (see the top of this file). */
export function emailText(html: string, options: EmailTextOptions = {}): EmailText {
  const labels = labelsOf(options);
  const parsed = parseEmail(html);
  const pruned = pruneEmail(parsed.root, { quotes: 'later' });
  // Nothing but quoted history (a forward, a bare quote): that is the message, so it is kept.
  const quoted = options.quoted === 'quote' || (pruned.quoted && !pruned.textOutsideQuotes) ? 'quote' : 'fold';
  // Folded, the history is one line: what is inside it is not read.
  if (quoted === 'quote') pruned.pruneQuotes();
  const raw = convert('<hb-root></hb-root>', { root: pruned.root, labels, quoted, quoteDepth: 0, listDepth: 0 });
  return finish(raw, parsed.truncated, pruned.quoted, options.maxChars ?? DEFAULT_MAX_CHARS, labels);
}

/**
 * A post's or comment's content as text: converted when it is HTML (contentKind.ts decides),
 * otherwise as written, controls and invisible characters taken out (as `bodyText` does).
 */
export function postText(post: PostContent & { title?: unknown }, options: EmailTextOptions = {}): PostText {
  const max = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (typeof post.content !== 'string') return { text: '', html: false, truncated: false, quoted: false };
  if (!contentIsHtml(post)) {
    const clean = bodyText(post.content, Number.MAX_SAFE_INTEGER);
    return { text: bodyText(clean, max), html: false, truncated: clean.length > max, quoted: false };
  }
  const quoted = options.quoted ?? (isForward(post.title) ? 'quote' : 'fold');
  return { ...emailText(post.content, { ...options, quoted }), html: true };
}

/** "Fwd:", "FW:" and their Polish, German, French, Spanish, Dutch and Nordic forms: a forward, whose quoted part is its content. */
const FORWARD = /^\s*(fwd?|pd|wg|tr|rv|doorst|vb|vs|vl)\s*:/i;

export function isForward(title: unknown): boolean {
  return typeof title === 'string' && FORWARD.test(title);
}

/** Blank lines (spaces and no-break spaces only) emptied, at most one empty line in a row, invisible characters out, cut to `max`. */
function finish(raw: string, truncated: boolean, quoted: boolean, max: number, labels: TextLabels): EmailText {
  const lines = bodyText(raw, Number.MAX_SAFE_INTEGER)
    .split('\n')
    .map((l) => l.trimEnd());
  const kept: string[] = [];
  for (const l of lines) if (l !== '' || (kept.length > 0 && kept[kept.length - 1] !== '')) kept.push(l);
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  let text = kept.join('\n');
  const room = Math.max(0, max - labels.cut.length - 2);
  if (text.length > max || (truncated && text.length > room)) {
    text = bodyText(text, room);
    truncated = true;
  }
  if (truncated) text = text ? `${text}\n\n${labels.cut}` : labels.cut;
  return { text, truncated, quoted };
}
