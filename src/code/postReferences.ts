/**
 * References to posts in text: a post's web address in an account signed in to
 * (`{accountUrl}/app/posts/123`) and, when a prefix is set, the short form (`HD-123`, always the
 * window's account).
 * No vscode import; returns offsets and ids only, never a link.
 */
import { madeOnFirstUse } from '../firstUse';

export interface PostReference {
  /** The reference is `text.slice(start, end)`: the address up to its id (no slash, query or fragment), or the short form. */
  start: number;
  end: number;
  postId: number;
  form: 'address' | 'short';
  /** The account an address belongs to (as given in the options); undefined for a short form (the window's account). */
  accountUrl?: string;
}

export interface ReferenceOptions {
  /** The account's address as stored (see `parseAccountUrl`); without it only short forms are found. */
  accountUrl?: string;
  /** The other accounts signed in to: their posts' addresses are references too (to those accounts). */
  otherAccountUrls?: readonly string[];
  /** The short form's prefix, e.g. `HD-`; without a valid one (`isValidReferencePrefix`) only addresses are found. */
  prefix?: string;
}

/** References are looked for only where they begin within this many characters of the text. */
export const MAX_SCANNED_CHARS = 10_000;
const MAX_ID_DIGITS = 15;
const POSTS_PATH = '/app/posts/';

const WORD_CHAR = madeOnFirstUse(() => /^[\p{L}\p{N}\p{M}_]$/u);
/** Before an address: what would make it part of a longer scheme, host or path (`xhttps://`, `…/https://`). */
const JOINS_ADDRESS = '+.-/@:';
/** Before the short form: what would make it part of a longer token (`X-HD-1`, `/HD-1`, `&#12;`). */
const JOINS_SHORT = '-#/&';
/** After the id, these join it to a following word (`1.json`, `1/comments`, `1-2`, `1:3`). */
const JOINS_AFTER = '.:/-@';

/**
 * A prefix is 1–10 ASCII letters, digits and `-` `_` `#` `/`, with at least one letter, and
 * does not end in a digit (`HD1` + `23` would read as `HD12` + `3`); `#` alone is allowed too.
 */
export function isValidReferencePrefix(prefix: string): boolean {
  return prefix === '#' || (/^[A-Za-z0-9_#/-]{1,10}$/.test(prefix) && /[A-Za-z]/.test(prefix) && !/[0-9]$/.test(prefix));
}

/** The short form of a reference, e.g. `HD-123`. */
export function shortReference(prefix: string, postId: number): string {
  return `${prefix}${postId}`;
}

/** How a post is named to the person: its short form with a prefix set, else `#123`. */
export function referenceText(postId: number, prefix: string): string {
  return isValidReferencePrefix(prefix) ? shortReference(prefix, postId) : `#${postId}`;
}

/** The references in `text`, in order of appearance, none overlapping. */
export function findPostReferences(text: string, options: ReferenceOptions): PostReference[] {
  const found: PostReference[] = [];
  for (const accountUrl of new Set([options.accountUrl, ...(options.otherAccountUrls ?? [])])) {
    if (accountUrl) found.push(...addressReferences(text, accountUrl));
  }
  if (options.prefix !== undefined && isValidReferencePrefix(options.prefix)) found.push(...shortReferences(text, options.prefix));
  found.sort((a, b) => a.start - b.start);
  let end = 0;
  return found.filter((reference) => {
    if (reference.start < end) return false;
    end = reference.end;
    return true;
  });
}

function addressReferences(text: string, accountUrl: string): PostReference[] {
  const base = accountUrl.trim().replace(/\/+$/, '');
  const split = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(base);
  if (!split) return [];
  const origin = split[0].toLowerCase();
  const found: PostReference[] = [];
  const limit = Math.min(text.length, MAX_SCANNED_CHARS + base.length);
  for (let at = text.indexOf(POSTS_PATH); at >= 0 && at < limit; at = text.indexOf(POSTS_PATH, at + 1)) {
    const start = at - base.length;
    if (start < 0 || joinsBefore(text, start, JOINS_ADDRESS)) continue;
    if (
      text.slice(start, start + origin.length).toLowerCase() !== origin ||
      text.slice(start + origin.length, at) !== base.slice(origin.length)
    )
      continue;
    const id = readId(text, at + POSTS_PATH.length);
    if (id) found.push({ start, end: id.end, postId: id.value, form: 'address', accountUrl });
  }
  return found;
}

function shortReferences(text: string, prefix: string): PostReference[] {
  const found: PostReference[] = [];
  const limit = Math.min(text.length, MAX_SCANNED_CHARS);
  for (let start = text.indexOf(prefix); start >= 0 && start < limit; start = text.indexOf(prefix, start + 1)) {
    if (joinsBefore(text, start, JOINS_SHORT)) continue;
    const id = readId(text, start + prefix.length);
    if (id) found.push({ start, end: id.end, postId: id.value, form: 'short' });
  }
  return found;
}

/** The id that starts at `at`: 1–15 digits, no leading zero, not joined to what follows. */
function readId(text: string, at: number): { value: number; end: number } | undefined {
  let end = at;
  while (end < text.length && end - at <= MAX_ID_DIGITS && isDigit(text.charCodeAt(end))) end++;
  const digits = end - at;
  if (digits === 0 || digits > MAX_ID_DIGITS || text[at] === '0') return undefined;
  if (end < text.length && (isWordAt(text, end) || (JOINS_AFTER.includes(text[end]!) && end + 1 < text.length && isWordAt(text, end + 1))))
    return undefined;
  return { value: Number(text.slice(at, end)), end };
}

function joinsBefore(text: string, start: number, joiners: string): boolean {
  if (start === 0) return false;
  const low = text.charCodeAt(start - 1);
  // A letter outside the BMP ends with a low surrogate: read the whole code point.
  const from = low >= 0xdc00 && low <= 0xdfff && start >= 2 ? start - 2 : start - 1;
  const char = String.fromCodePoint(text.codePointAt(from)!);
  return WORD_CHAR().test(char) || joiners.includes(char);
}

function isWordAt(text: string, at: number): boolean {
  return WORD_CHAR().test(String.fromCodePoint(text.codePointAt(at)!));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * The short form being typed where the cursor stands in `line`: the prefix and the digits after
 * it (maybe none yet), at the start of a word; undefined when the cursor is not right after one.
 * It reads back at most the prefix, `MAX_ID_DIGITS` digits and the character before them: a longer
 * run of digits is no post's id, and a long line is not read.
 */
export function typedReference(line: string, cursor: number, prefix: string): string | undefined {
  const end = Math.min(cursor, line.length);
  let digitsStart = end;
  while (digitsStart > 0 && end - digitsStart <= MAX_ID_DIGITS && isDigit(line.charCodeAt(digitsStart - 1))) digitsStart--;
  const start = digitsStart - prefix.length;
  if (end - digitsStart > MAX_ID_DIGITS || start < 0 || !line.startsWith(prefix, start)) return undefined;
  return start === 0 || /[\s([{,;]/.test(line[start - 1]!) ? line.slice(start, end) : undefined;
}
