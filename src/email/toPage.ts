/**
 * An HTML e-mail as HTML a webview page may show: only text and an allow-list of elements, with
 * no attribute of the sender's. The e-mail's tree (parse.ts, prune.ts: hidden text, signatures,
 * tracking pixels and what is no content already gone) is rebuilt from the allow-list, written
 * out by dom-serializer, and passed through sanitize-html with the same allow-list: what leaves
 * here has been through a well-kept sanitizer, whatever this file gets wrong.
 *
 * What the page gets:
 * - text formatting, paragraphs, lists, tables (`colspan`/`rowspan` only), blockquotes, headings;
 *   no `style`, `class`, `id`, `dir` or event attribute, so nothing can hide, overlay or take on
 *   the page's own styles;
 * - a link as `<a data-hb-link="N" title="address" tabindex="0" role="link">`: no `href`; `links[N]`
 *   is its address (http, https or mailto, normalized), for the page to ask the extension to open
 *   through VS Code's own confirmation. A link to anything else is its text alone;
 * - an image as `<span data-hb-image="inline|remote|other" role="img" aria-label="alt">[image: alt]</span>`,
 *   a remote one with `data-hb-index="N"` (`images[N]` is its address), unless the caller allows
 *   remote images for this message: then `<img src="https://…" alt="…">` (http and https only);
 * - quoted history as `<details data-hb-quote="quoted"><summary>…</summary>…</details>`, closed
 *   unless asked, or left out (`quotedHistory`); the sender's own `details` and `summary` become `div`s.
 * Text is cleaned of controls, bidi marks and zero-width characters as all server text is.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with htmlparser2
import domhandler = require('domhandler');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with html-to-text
import domSerializer = require('dom-serializer');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS only
import sanitizeHtml = require('sanitize-html');
import { bodyText } from '../text/serverText';
import { imageSource, linkTarget, shownAddress } from './links';
import { MAX_DEPTH, parseEmail, type Document, type Element } from './parse';
import { pruneEmail, QUOTE_TAG, setChildren } from './prune';

type Node = domhandler.ChildNode;

export interface PageLabels {
  /** An image not shown, by its alternative text (empty when it has none). */
  image: (alt: string) => string;
  /** The summary line of quoted history. */
  quoted: string;
  /** After a message cut short. */
  cut: string;
}

export const ENGLISH_PAGE_LABELS: PageLabels = {
  image: (alt) => (alt ? `[image: ${alt}]` : '[image]'),
  quoted: 'Quoted earlier messages',
  cut: '[…the rest of this message is too long to show]',
};

export interface EmailPageOptions {
  /** The person asked to load this message's remote images (http and https). Default false. */
  remoteImages?: boolean;
  /**
   * Quoted history closed (the default: one click or Enter away), open, or left out (an empty
   * `<details data-hb-quote="omitted">`, for a page that asks again, with `closed`, when it is
   * opened: a long thread is mostly quotes, and the page then pays only for the reply).
   */
  quotedHistory?: 'closed' | 'open' | 'omitted';
  labels?: Partial<PageLabels>;
}

export interface EmailPage {
  html: string;
  /** The links' addresses, by their `data-hb-link` number. */
  links: string[];
  /** The remote images' addresses, by their `data-hb-index` number (empty when remote images are shown). */
  images: string[];
  /** Something was left out for length. */
  truncated: boolean;
}

/** Kept as they are (without attributes but the few below). */
const KEPT = [
  'p',
  'div',
  'span',
  'br',
  'hr',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'del',
  'ins',
  'sub',
  'sup',
  'small',
  'mark',
  'code',
  'pre',
  'kbd',
  'samp',
  'q',
  'cite',
  'blockquote',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
];
/** Kept under another name: the sender's meaning, in an element of the allow-list. */
const RENAMED: Record<string, string> = {
  center: 'div',
  font: 'span',
  tt: 'code',
  strike: 's',
  big: 'span',
  section: 'div',
  article: 'div',
  header: 'div',
  footer: 'div',
  main: 'div',
  nav: 'div',
  aside: 'div',
  address: 'div',
  figure: 'div',
  figcaption: 'div',
  form: 'div',
  fieldset: 'div',
  legend: 'div',
  details: 'div',
  summary: 'div',
  label: 'span',
  button: 'span',
  abbr: 'span',
  acronym: 'span',
  var: 'i',
  dfn: 'i',
  nobr: 'span',
  wbr: 'span',
};
const KEPT_SET = new Set(KEPT);
/** The allow-list sanitize-html enforces again: the kept elements, links, image placeholders, quotes. */
const ALLOWED_TAGS = [...KEPT, 'a', 'details', 'summary'];
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['data-hb-link', 'title', 'tabindex', 'role'],
  span: ['data-hb-image', 'data-hb-index', 'role', 'aria-label'],
  img: ['src', 'alt'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  details: ['data-hb-quote', 'open'],
};
/** A span of more cells than this is none a message needs. */
const MAX_SPAN = 100;

function labelsOf(options: EmailPageOptions): PageLabels {
  return { ...ENGLISH_PAGE_LABELS, ...options.labels };
}

/** One line of server text for an attribute: controls and invisible characters out, whitespace as single spaces. */
function attributeText(value: unknown, max = 300): string {
  return bodyText(typeof value === 'string' ? value : '', max)
    .replace(/\s+/g, ' ')
    .trim();
}

const element = (name: string, attribs: Record<string, string>, children: Node[] = []) => {
  const made = new domhandler.Element(name, attribs, []);
  setChildren(made, children);
  return made;
};
const text = (data: string) => new domhandler.Text(data);

/** Rebuilds the tree from the allow-list (see the top of this file): every element's attributes are made here, none kept. */
function rebuild(root: Document, options: EmailPageOptions, labels: PageLabels): { links: string[]; images: string[] } {
  const found: Found = { links: [], linkIndex: new Map(), images: [], own: new WeakSet() };
  const stack: (Document | Element)[] = [root];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    const kept: Node[] = [];
    const walkNext: Element[] = [];
    // The children in order, an unwrapped element's own children in its place.
    const pending: Node[] = [...parent.children].reverse();
    while (pending.length > 0) {
      const child = pending.pop()!;
      if (domhandler.isText(child)) {
        child.data = bodyText(child.data, Number.MAX_SAFE_INTEGER);
        kept.push(child);
        continue;
      }
      if (!domhandler.isTag(child)) continue;
      const made = found.own.has(child) ? child : rebuilt(child, options, labels, found);
      if (made === undefined) {
        for (let i = child.children.length - 1; i >= 0; i--) pending.push(child.children[i]!);
        continue;
      }
      kept.push(made);
      if (made === child) walkNext.push(made);
    }
    setChildren(parent, kept);
    // In document order: the links are numbered as they come.
    for (let i = walkNext.length - 1; i >= 0; i--) stack.push(walkNext[i]!);
  }
  return { links: found.links, images: found.images };
}

interface Found {
  links: string[];
  linkIndex: Map<string, number>;
  images: string[];
  /** The elements made here (a quote's summary): kept as they are. */
  own: WeakSet<Element>;
}

/**
 * The element as the page gets it: itself with attributes made here (walked further), a new
 * element in its place (an image's placeholder: not walked), or undefined to put its children in
 * its place.
 */
function rebuilt(child: Element, options: EmailPageOptions, labels: PageLabels, found: Found): Element | undefined {
  const from = child.attribs;
  const name = child.name;
  if (name === QUOTE_TAG) {
    const summary = element('summary', {}, [text(labels.quoted)]);
    found.own.add(summary);
    const how = options.quotedHistory ?? 'closed';
    child.name = 'details';
    child.attribs = { 'data-hb-quote': how === 'omitted' ? 'omitted' : 'quoted', ...(how === 'open' ? { open: 'open' } : {}) };
    setChildren(child, how === 'omitted' ? [summary] : [summary, ...child.children]);
    return child;
  }
  if (name === 'a') {
    const target = linkTarget(from.href);
    if (target === undefined) return undefined;
    let index = found.linkIndex.get(target);
    if (index === undefined) {
      index = found.links.push(target) - 1;
      found.linkIndex.set(target, index);
    }
    child.attribs = { 'data-hb-link': String(index), title: shownAddress(target), tabindex: '0', role: 'link' };
    return child;
  }
  if (name === 'img') {
    const source = imageSource(from.src);
    const alt = attributeText(from.alt, 200);
    if (source.kind === 'remote' && options.remoteImages) return element('img', { src: source.url, alt });
    const attribs: Record<string, string> = { 'data-hb-image': source.kind, role: 'img', 'aria-label': alt || labels.image('') };
    if (source.kind === 'remote') attribs['data-hb-index'] = String(found.images.push(source.url) - 1);
    return element('span', attribs, [text(labels.image(alt))]);
  }
  const kept = KEPT_SET.has(name) ? name : RENAMED[name];
  if (kept === undefined) return undefined;
  child.name = kept;
  child.attribs = kept === 'td' || kept === 'th' ? spans(from) : {};
  return child;
}

function spans(from: Record<string, string>): Record<string, string> {
  const attribs: Record<string, string> = {};
  for (const name of ['colspan', 'rowspan']) {
    const value = from[name]?.trim();
    if (value && /^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_SPAN) attribs[name] = String(Number(value));
  }
  return attribs;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  allowedClasses: {},
  allowedSchemes: [],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'action', 'formaction', 'background', 'poster', 'xlink:href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'xmp',
    'iframe',
    'noembed',
    'noframes',
    'plaintext',
    'template',
    'svg',
    'math',
  ],
  nestingLimit: MAX_DEPTH + 8,
  parseStyleAttributes: false,
  enforceHtmlBoundary: false,
  textFilter: (escaped) => bodyText(escaped, Number.MAX_SAFE_INTEGER),
};

/** The e-mail as page HTML (see the top of this file). */
export function emailPage(html: string, options: EmailPageOptions = {}): EmailPage {
  const labels = labelsOf(options);
  const parsed = parseEmail(html);
  const { root } = pruneEmail(parsed.root);
  const { links, images } = rebuild(root, options, labels);
  if (parsed.truncated) setChildren(root, [...root.children, element('p', {}, [text(labels.cut)])]);
  const written = domSerializer.render(root, { encodeEntities: 'utf8', decodeEntities: true });
  const sanitized = sanitizeHtml(written, {
    ...SANITIZE,
    allowedTags: options.remoteImages ? [...ALLOWED_TAGS, 'img'] : ALLOWED_TAGS,
  });
  return { html: sanitized, links, images, truncated: parsed.truncated };
}
