/**
 * The addresses an e-mail's links and images point at, read with the WHATWG URL parser (what a
 * browser does with them: entities are already decoded by the HTML parser; tabs, newlines and
 * leading controls are dropped; the scheme is lower-cased; a host is punycoded). Only absolute
 * http:, https: and mailto: links are kept: relative ones mean nothing outside the sender's
 * page, and javascript:, data:, vbscript:, file:, command: and the like are never an address.
 */

/** A longer address is no address a person follows (and is not shown). */
export const MAX_URL_CHARS = 2048;

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const IMAGE_SCHEMES = new Set(['http:', 'https:']);

function parse(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS) return undefined;
  try {
    return new URL(value.trim());
  } catch {
    return undefined;
  }
}

/**
 * The link's target as a normalized absolute address (`https://…`, `mailto:…`), or undefined when
 * it is no address to offer. The result never holds spaces, `<`, `>` or quotes (the URL
 * serializer percent-encodes them), so it can be shown between `<` and `>` as it is.
 */
export function linkTarget(href: unknown): string | undefined {
  const url = parse(href);
  if (!url || !LINK_SCHEMES.has(url.protocol)) return undefined;
  // A mailto link is its address alone: a subject, body, cc or bcc the sender filled in is not the person's to send.
  if (url.protocol === 'mailto:') return isAddress(url.pathname) ? `mailto:${url.pathname}` : undefined;
  // Credentials in a link (`https://bank.example@evil.example/`) disguise where it goes: no address.
  if (url.hostname === '' || url.username || url.password) return undefined;
  return url.href.length > MAX_URL_CHARS ? undefined : url.href;
}

/**
 * One plain e-mail address, percent-escapes decoded: the URL parser leaves `<`, `>`, quotes and
 * spaces in a mailto link as they are, and those are no part of an address to offer.
 */
const ADDRESS = /^[^\s<>"'()[\]\\,;:@\p{Cc}\p{Cf}]{1,200}@[^\s<>"'()[\]\\,;:@\p{Cc}\p{Cf}]{1,255}$/u;

function isAddress(path: string): boolean {
  try {
    return ADDRESS.test(decodeURIComponent(path));
  } catch {
    return false;
  }
}

/** What an `<img src>` is: an attachment of the message (`cid:`), a remote address, or neither. */
export type ImageSource = { kind: 'inline' } | { kind: 'remote'; url: string } | { kind: 'other' };

export function imageSource(src: unknown): ImageSource {
  if (typeof src === 'string' && src.trim().toLowerCase().startsWith('cid:')) return { kind: 'inline' };
  const url = parse(src);
  if (!url || !IMAGE_SCHEMES.has(url.protocol) || url.hostname === '' || url.username || url.password) return { kind: 'other' };
  return url.href.length > MAX_URL_CHARS ? { kind: 'other' } : { kind: 'remote', url: url.href };
}

/** How the address reads to a person: a mailto link as its address, others as they are. */
export function shownAddress(target: string): string {
  return target.startsWith('mailto:') ? decodeMailto(target) : target;
}

/** A mailto target's address, decoded (linkTarget let through only addresses that stay plain decoded). */
function decodeMailto(target: string): string {
  const address = target.slice('mailto:'.length);
  return isAddress(address) ? decodeURIComponent(address) : address;
}
