/**
 * An e-mail's tree (parse.ts) reduced to what its reader is meant to see, and its quoted history
 * marked: one pass over the tree (with a stack, not recursion) and one over the quoted tail, so
 * linear in its size. Both the text (toText.ts) and the page (toPage.ts) read the result.
 *
 * Left out, with all they hold: what is no content (head, scripts, styles, forms' fields, frames,
 * objects, SVG and MathML, templates), what is hidden (style.ts), signatures marked as such
 * (Gmail's, Thunderbird's, Outlook on the web's and Outlook mobile's; Outlook for Windows marks
 * none, so its signature stays), and tracking pixels (an image 1 pixel or less wide or high).
 *
 * Quoted history goes into `<hb-quote>` elements: a `<blockquote type=cite>` (Apple Mail,
 * Thunderbird), Gmail's `gmail_quote`, Yahoo's `yahoo_quoted` are each wrapped where they are;
 * from Outlook's divider (the `border-top` box around "From: … Sent: …", in any language),
 * Outlook on the web's `divRplyFwdMsg` or Thunderbird's `moz-cite-prefix` on, everything to the
 * end of the message is moved into one quote at the end. Nothing inside a quote is looked at for
 * further quotes.
 *
 * With `quotes: 'later'`, what is inside the quoted history is reduced only when `pruneQuotes` is
 * called, with the same result: a text that folds the history away never reads it (in a long
 * thread it is most of the message).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with htmlparser2
import domhandler = require('domhandler');
import { NOT_CONTENT, OWN_PREFIX, type Document, type Element } from './parse';
import { backgroundOf, colorOf, declarations, DEFAULT_INK, hidesBox, inkIsInvisible, lengthPx, PAGE_BACKGROUND } from './style';
import type { Background, Ink } from './style';

type Node = domhandler.ChildNode;
type Parent = Document | Element;

/** The element the quoted history is put in. */
export const QUOTE_TAG = `${OWN_PREFIX}quote`;

const SIGNATURE_CLASSES = ['gmail_signature', 'gmail_signature_prefix', 'moz-signature'];
const SIGNATURE_IDS = ['signature', 'ms-outlook-mobile-signature'];
const QUOTE_CLASSES = ['gmail_quote', 'yahoo_quoted'];
/** Everything from these on is quoted history. */
const DIVIDER_IDS = ['appendonsend', 'divrplyfwdmsg'];
const DIVIDER_CLASSES = ['moz-cite-prefix'];

/** More of a class attribute is not looked at. */
const MAX_CLASS_CHARS = 512;

export interface PrunedEmail {
  root: Document;
  /** Some quoted history was marked. */
  quoted: boolean;
  /** There is text outside the quoted history (a forward or a bare quote has none). */
  textOutsideQuotes: boolean;
  /** Reduces what is inside the quoted history too, where `quotes: 'later'` left it (see above). */
  pruneQuotes(): void;
}

interface Context {
  parent: Parent;
  background: Background;
  ink: Ink;
  quoted: boolean;
}

export function pruneEmail(root: Document, { quotes = 'now' }: { quotes?: 'now' | 'later' } = {}): PrunedEmail {
  let quoted = false;
  let divider: Element | undefined;
  /** From the divider on, in document order: the quoted tail. */
  let inTail = false;
  /** What is inside quoted history, left for pruneQuotes. */
  let later: Context[] = [];
  const reduce = (stack: Context[], defer: boolean) => {
    while (stack.length > 0) {
      const context = stack.pop()!;
      // The stack is walked in document order: everything after the divider is in the tail.
      if (context.parent === divider) inTail = true;
      if (defer && (context.quoted || inTail)) later.push(context);
      else reduceChildren(context, stack);
    }
  };
  const reduceChildren = ({ parent, background, ink, quoted: inQuote }: Context, stack: Context[]) => {
    const kept: Node[] = [];
    const visit: Context[] = [];
    for (const child of parent.children) {
      if (domhandler.isText(child)) {
        if (inkIsInvisible(ink, background)) continue;
        kept.push(child);
        continue;
      }
      // Comments, directives; scripts and styles are left out by name (htmlparser2 gives them types of their own).
      if (!domhandler.isTag(child)) continue;
      const element = child;
      if (NOT_CONTENT.has(element.name)) continue;
      const attribs = element.attribs;
      const style = declarations(attribs.style);
      if (hidesBox(style, attribs) || isSignature(attribs) || (element.name === 'img' && isTrackingPixel(style, attribs))) continue;
      const context: Context = {
        parent: element,
        background: backgroundOf(style, attribs, background),
        ink: colorOf(style, attribs, ink),
        quoted: inQuote,
      };
      if (!inQuote && isQuote(element)) {
        kept.push(new domhandler.Element(QUOTE_TAG, {}, [element]));
        context.quoted = quoted = true;
      } else {
        kept.push(element);
        if (!inQuote && divider === undefined && isDivider(element, style)) divider = element;
      }
      visit.push(context);
    }
    setChildren(parent, kept);
    // Children last in first out: the tree is walked in document order, so the first divider found is the first in the message.
    for (let i = visit.length - 1; i >= 0; i--) stack.push(visit[i]!);
  };
  const pruneQuotes = () => {
    const left = later.reverse();
    later = [];
    reduce(left, false);
  };
  reduce([{ parent: root, background: PAGE_BACKGROUND, ink: DEFAULT_INK, quoted: false }], quotes === 'later');
  if (divider && quoteFrom(root, divider)) quoted = true;
  // A tail that could not be moved into a quote is read as the message: reduced now.
  else if (inTail) pruneQuotes();
  return { root, quoted, textOutsideQuotes: hasTextOutsideQuotes(root), pruneQuotes };
}

/**
 * Moves `from` and everything after it in the message into one quote at the end of `root`: its
 * later siblings, then each ancestor's later siblings. False when `from` is no longer in the tree.
 */
function quoteFrom(root: Document, from: Element): boolean {
  const moved: Node[][] = [];
  let child: Node = from;
  // Elements and the document are the only parents in this tree (parse.ts keeps no CDATA).
  let parent = from.parent as Parent | null;
  let inclusive = true;
  while (parent) {
    const at = parent.children.indexOf(child);
    if (at < 0) return false;
    const cut = inclusive ? at : at + 1;
    moved.push(parent.children.slice(cut));
    setChildren(parent, parent.children.slice(0, cut));
    if (parent === root) break;
    inclusive = false;
    child = parent;
    parent = parent.parent as Parent | null;
  }
  const quote = new domhandler.Element(QUOTE_TAG, {}, []);
  setChildren(quote, moved.flat());
  setChildren(root, [...root.children, quote]);
  return true;
}

/** True when some text that is not blank lies outside the quotes; it stops at the first. */
function hasTextOutsideQuotes(root: Document): boolean {
  const stack: Node[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (domhandler.isText(node) && node.data.trim() !== '') return true;
    if (domhandler.isTag(node) && node.name !== QUOTE_TAG) for (const child of node.children) stack.push(child);
  }
  return false;
}

/** Gives `parent` these children, each linked to it and to its neighbours as htmlparser2's tree expects. */
export function setChildren(parent: Parent, children: Node[]): void {
  parent.children = children;
  let previous: Node | null = null;
  for (const child of children) {
    child.parent = parent;
    child.prev = previous;
    if (previous) previous.next = child;
    previous = child;
  }
  if (previous) previous.next = null;
}

function classes(attribs: Record<string, string>): string[] {
  const value = attribs.class;
  return value ? value.slice(0, MAX_CLASS_CHARS).toLowerCase().split(/\s+/) : [];
}

function isSignature(attribs: Record<string, string>): boolean {
  if (attribs['data-smartmail'] === 'gmail_signature') return true;
  const id = attribs.id?.toLowerCase();
  if (id !== undefined && SIGNATURE_IDS.includes(id)) return true;
  return classes(attribs).some((c) => SIGNATURE_CLASSES.includes(c));
}

/** An image of 1 pixel or less either way: a tracking pixel, not a picture. */
function isTrackingPixel(style: ReturnType<typeof declarations>, attribs: Record<string, string>): boolean {
  return ['width', 'height'].some((side) => {
    const size = lengthPx(style.get(side)) ?? lengthPx(attribs[side]?.trim());
    return size !== undefined && size <= 1;
  });
}

function isQuote(element: Element): boolean {
  if (element.name === 'blockquote' && element.attribs.type?.toLowerCase() === 'cite') return true;
  return classes(element.attribs).some((c) => QUOTE_CLASSES.includes(c));
}

/** Where quoted history starts: everything from here to the end of the message is quoted. */
function isDivider(element: Element, style: ReturnType<typeof declarations>): boolean {
  const id = element.attribs.id?.toLowerCase();
  if (id !== undefined && DIVIDER_IDS.includes(id)) return true;
  if (classes(element.attribs).some((c) => DIVIDER_CLASSES.includes(c))) return true;
  // Outlook's: `border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm` around "From: …".
  return element.name === 'div' && /\bsolid\b/.test(style.get('border-top') ?? '') && startsWithHeader(element);
}

/** The element's first text reads like a mail header's first line: a word and a colon ("From:", "Od:", "De :"). */
function startsWithHeader(element: Element): boolean {
  let text = '';
  const stack: Node[] = [element];
  // The first 40 characters of text, in document order, and no more nodes than that needs.
  for (let seen = 0; stack.length > 0 && text.length < 40 && seen < 200; seen++) {
    const node = stack.pop()!;
    if (domhandler.isText(node)) text += node.data;
    else if (domhandler.isTag(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return /^[^\s:]{1,20}\s?:/u.test(text.replace(/\u00a0/g, ' ').trimStart());
}
