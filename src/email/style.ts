/**
 * What an element's inline style and presentational attributes say about whether its text can be
 * seen: `display:none`, `visibility:hidden`, Outlook's `mso-hide:all`, no opacity, a font too small
 * to read, a box of no height with its overflow hidden, text pushed off the page, and text the
 * colour of its background (white when nothing says otherwise, as mail clients show it). Only
 * inline styles are read: a `<style>` sheet is dropped whole, so text it hides stays visible.
 *
 * Every doubt falls on the side of showing: a declaration this reader cannot read, a colour it
 * does not know, a background image behind the text, hide nothing. Text wrongly shown is text
 * the person sees in both the text and the page; text wrongly dropped would be lost.
 *
 * The declarations are read by a loop over the characters (quotes, parentheses and comments
 * skipped), at most MAX_STYLE_CHARS of each attribute: linear, where a general CSS parser
 * (postcss, inline-style-parser) cost 10-20 µs for each of Outlook's styles.
 */

/** More of one style attribute is not read (Outlook's are a few hundred characters). */
export const MAX_STYLE_CHARS = 2048;

export type Declarations = ReadonlyMap<string, string>;

type Rgb = readonly [number, number, number];
/** A colour as far as it is known: `unknown` behind an image or of a kind not read. */
export type Background = Rgb | 'unknown';

const WHITE: Rgb = [255, 255, 255];
/** What a mail client shows behind text that sets no background. */
export const PAGE_BACKGROUND: Background = WHITE;
/** What a mail client writes text in when nothing sets a colour: not known here (the person's theme may set it). */
export const DEFAULT_INK: Ink = 'unknown';

/** The declarations of a `style` attribute, names and values in lower case, `!important` left out; the last of a name wins. */
export function declarations(style: unknown): Declarations {
  const found = new Map<string, string>();
  if (typeof style !== 'string' || style.length === 0) return found;
  const text = style.length > MAX_STYLE_CHARS ? style.slice(0, MAX_STYLE_CHARS) : style;
  let start = 0;
  let colon = -1;
  let quote = '';
  let parens = 0;
  const add = (end: number) => {
    if (colon > start) {
      const name = text.slice(start, colon).trim().toLowerCase();
      const value = text
        .slice(colon + 1, end)
        .trim()
        .toLowerCase()
        .replace(/\s*!\s*important$/, '');
      // An escaped name (`disp\lay`) is no name this reader knows: nothing is hidden by it.
      if (name && !name.includes('\\')) found.set(name, value);
    }
    colon = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      // A comment is nothing: cut it out of the declaration by reading on after it.
      const after = end < 0 ? text.length : end + 2;
      if (colon < 0 && text.slice(start, i).trim() === '') start = after;
      i = after - 1;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    else if (c === '\\') i++;
    else if (c === ':' && colon < 0 && parens === 0) colon = i;
    else if (c === ';' && parens === 0) {
      add(i);
      start = i + 1;
    }
  }
  add(text.length);
  return found;
}

/** The comments a declaration's value may still hold (`display:/**\/none`), taken out. */
function bare(value: string | undefined): string | undefined {
  return value?.includes('/*') ? value.replace(/\/\*.*?(\*\/|$)/g, '').trim() : value;
}

const NAMED: Record<string, Rgb> = {
  white: WHITE,
  black: [0, 0, 0],
  windowtext: [0, 0, 0],
  red: [255, 0, 0],
  green: [0, 128, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  silver: [192, 192, 192],
  navy: [0, 0, 128],
  maroon: [128, 0, 0],
  purple: [128, 0, 128],
  teal: [0, 128, 128],
  olive: [128, 128, 0],
  lime: [0, 255, 0],
  aqua: [0, 255, 255],
  fuchsia: [255, 0, 255],
  orange: [255, 165, 0],
  whitesmoke: [245, 245, 245],
  snow: [255, 250, 250],
};

/** A colour value read as RGB; `transparent`; undefined when it is not one this reader knows. */
export function parseColor(value: string | undefined): Rgb | 'transparent' | undefined {
  const v = bare(value)?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === 'transparent') return 'transparent';
  if (Object.hasOwn(NAMED, v)) return NAMED[v];
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((h) => h + h).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
  }
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(v);
  if (rgb) {
    if (rgb[4] !== undefined && Number(rgb[4]) <= 0.05) return 'transparent';
    return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])].map((n) => Math.min(255, n)) as unknown as Rgb;
  }
  return undefined;
}

/** What is behind this element's text: its own background where it sets one, else what was behind it. */
export function backgroundOf(style: Declarations, attribs: Record<string, string>, behind: Background): Background {
  if (attribs.background || /url\(/.test(style.get('background-image') ?? '') || /url\(/.test(style.get('background') ?? ''))
    return 'unknown';
  const set = style.get('background-color') ?? firstColor(style.get('background')) ?? attribs.bgcolor;
  if (set === undefined) return behind;
  const color = parseColor(set);
  return color === 'transparent' ? behind : (color ?? 'unknown');
}

/** The first word of a `background` shorthand that is a colour. */
function firstColor(shorthand: string | undefined): string | undefined {
  if (!shorthand) return undefined;
  return shorthand.split(/\s+/).find((word) => parseColor(word) !== undefined);
}

/** A length in CSS pixels; undefined when it is not one (`auto`, a percentage of what is not known). */
export function lengthPx(value: string | undefined): number | undefined {
  const m = /^(-?[\d.]+)(px|pt|em|rem|cm|mm|in|%)?$/.exec(bare(value)?.trim() ?? '');
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return undefined;
  switch (m[2]) {
    case undefined:
    case 'px':
      return n;
    case 'pt':
      return (n * 4) / 3;
    case 'em':
    case 'rem':
      return n * 16;
    case '%':
      return (n * 16) / 100;
    case 'cm':
      return (n * 96) / 2.54;
    case 'mm':
      return (n * 96) / 25.4;
    default:
      return n * 96;
  }
}

/** Colours this close (on every channel) read as the same. */
const SAME_COLOR = 8;
/** Text pushed further than this off the page is not meant to be seen. */
const OFF_PAGE_PX = -999;

/** True when nothing inside the element can be seen (see the top of this file), whatever its colours. */
export function hidesBox(style: Declarations, attribs: Record<string, string>): boolean {
  if (attribs.hidden !== undefined) return true;
  const get = (name: string) => bare(style.get(name));
  if (get('display') === 'none' || get('mso-hide') === 'all') return true;
  const visibility = get('visibility');
  if (visibility === 'hidden' || visibility === 'collapse') return true;
  const opacity = get('opacity');
  if (opacity !== undefined && Number.isFinite(Number(opacity)) && Number(opacity) <= 0.05) return true;
  const fontSize = lengthPx(get('font-size'));
  if (fontSize !== undefined && fontSize <= 1) return true;
  if (get('overflow') === 'hidden') {
    for (const box of ['height', 'max-height', 'width', 'max-width']) if (lengthPx(get(box)) === 0) return true;
  }
  const indent = lengthPx(get('text-indent'));
  if (indent !== undefined && indent <= OFF_PAGE_PX) return true;
  const position = get('position');
  if (position === 'absolute' || position === 'fixed') {
    for (const side of ['left', 'top']) {
      const offset = lengthPx(get(side));
      if (offset !== undefined && offset <= OFF_PAGE_PX) return true;
    }
  }
  return false;
}

/** The colour of the element's text: its own (`color`, or a `<font color>`) where it sets one, else the one it inherits. */
export function colorOf(style: Declarations, attribs: Record<string, string>, inherited: Ink): Ink {
  const set = style.get('color') ?? attribs.color;
  if (set === undefined) return inherited;
  return parseColor(set) ?? 'unknown';
}

/** A text colour as far as it is known. */
export type Ink = Rgb | 'transparent' | 'unknown';

/** True when text of this colour on this background cannot be read: transparent, or the background's colour. */
export function inkIsInvisible(ink: Ink, background: Background): boolean {
  if (ink === 'transparent') return true;
  if (ink === 'unknown' || background === 'unknown') return false;
  return ink.every((c, i) => Math.abs(c - background[i]!) <= SAME_COLOR);
}
