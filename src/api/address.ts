/**
 * Why an account address is not usable:
 * - `empty`: nothing was typed;
 * - `notAddress`: it is not a web address;
 * - `scheme`: it does not start with https:// (`scheme` says what it starts with);
 * - `plainHttp`: plain http:// to a host other than this machine (`host`);
 * - `credentials`: it holds a user name or password;
 * - `looksLikeToken`: it is an API token pasted into the wrong box (nothing is sent to it);
 * - `schemeTypo`: its `https://` is mistyped (`https//`, `https:\\`, `https;//`): `typed` is
 *   what stands there, `meant` the address with it mended (when that one is usable);
 * - `host`: its host is no host name (`acme..com`, `ac;me.com`, a host named `https`).
 */
export type AccountUrlProblem = 'empty' | 'notAddress' | 'scheme' | 'plainHttp' | 'credentials' | 'looksLikeToken' | 'schemeTypo' | 'host';

/** The account address was not usable; `problem` says why. */
export class AccountUrlError extends Error {
  override readonly name = 'AccountUrlError';

  constructor(
    readonly problem: AccountUrlProblem,
    readonly detail: { scheme?: string; host?: string; typed?: string; meant?: string } = {},
  ) {
    super(`account address: ${problem}${detail.scheme ? ` (${detail.scheme})` : ''}${detail.host ? ` (${detail.host})` : ''}`);
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

/**
 * Turns what a person typed or pasted into the account's base address, e.g.
 * `https://acme.example.com`. Accepts a missing scheme (https is assumed), trailing slashes,
 * and a whole pasted app address (`…/app/posts/12?x=1` keeps only what comes before `/app`).
 * Refuses plain `http://` except on loopback, because the token travels with every request.
 */
export function parseAccountUrl(input: string): string {
  const text = input.trim();
  if (!text) throw new AccountUrlError('empty');
  // Checked first, so that a token is neither looked up as a host nor quoted in a message.
  if (looksLikeToken(text)) throw new AccountUrlError('looksLikeToken');
  const typo = schemeTypo(text);
  if (typo) throw new AccountUrlError('schemeTypo', { typed: typo.typed, meant: usableOrNone(typo.mended) });
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AccountUrlError('notAddress');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AccountUrlError('scheme', { scheme: url.protocol });
  }
  // The URL parser reads a number, or a short run of them (`42`, `10.1`), as an IPv4 address: as typed, it is none.
  const typedHost = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(withScheme)?.[1] ?? '';
  if (/^[\d.]+$/.test(typedHost) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(typedHost)) throw new AccountUrlError('notAddress');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new AccountUrlError('plainHttp', { host: url.host });
  }
  if (url.username || url.password) {
    throw new AccountUrlError('credentials');
  }
  if (!isPlausibleHost(url.hostname)) throw new AccountUrlError('host', { host: url.hostname });
  const appAt = url.pathname.search(/\/app(?:[/.?#]|$)/);
  const path = withoutTrailingSlashes(appAt >= 0 ? url.pathname.slice(0, appAt) : url.pathname);
  // `acme.com.` is the same helpdesk as `acme.com`: one account, and a Host header servers take.
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  return `${url.protocol}//${hostname}${url.port ? `:${url.port}` : ''}${path}`;
}

/** `path` without its trailing slashes: one walk back from the end (`/\/+$/` is quadratic on a run of them). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end -= 1;
  return path.slice(0, end);
}

/** `https` or `http`, then what was typed for `://` when it is something else (`//`, `:\\`, `;//`, `:/`, `:`). */
const SCHEME_THEN_SEPARATOR = /^(https?)([:;]?[/\\]*)/i;

/**
 * A mistyped `https://` at the start (`https//acme…`, as typed or after a right `https://`): the
 * URL parser would take `https` for the host and send the token there. What stands there, and the
 * text with it mended.
 */
function schemeTypo(text: string): { typed: string; mended: string } | undefined {
  const typed = SCHEME_THEN_SEPARATOR.exec(text);
  if (!typed || !typed[2]) return undefined;
  const [whole, scheme = '', separator] = typed;
  if (/^:\/{2,}$/.test(separator)) {
    // Right as typed; a second, mistyped scheme may follow (`https://https//acme…`).
    const again = SCHEME_THEN_SEPARATOR.exec(text.slice(whole.length));
    if (!again?.[2] || !/[/\\]/.test(again[2])) return undefined;
    return { typed: whole + again[0], mended: `${again[1]!.toLowerCase()}://${text.slice(whole.length + again[0].length)}` };
  }
  return { typed: whole, mended: `${scheme.toLowerCase()}://${text.slice(whole.length)}` };
}

function usableOrNone(address: string): string | undefined {
  try {
    return parseAccountUrl(address);
  } catch {
    return undefined;
  }
}

/** A label of a host name: letters, digits, `-` (not first or last) and `_` (seen in sub-domains), at most 63. */
const HOST_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Whether the parsed (lower-cased, punycoded) host is one a name server could answer for: an IPv6
 * literal, or labels of HOST_LABEL, 253 characters at most; never `http` or `https` (a mistyped
 * scheme read as the host).
 */
function isPlausibleHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (!name || name.length > 253 || name === 'http' || name === 'https') return false;
  return name.split('.').every((label) => HOST_LABEL.test(label));
}

/**
 * Whether the text is an API token (`SECRET/prefix`, or its secret alone) pasted into the address
 * box, as typed or after the `https://` or `https://prefix.` the box starts with. Judged on the
 * host's last label, as typed (a URL would lower-case it):
 * - with dots before it, it holds a digit or `_` (a top-level domain never does);
 * - alone, it holds `_` (no host name does); or a `/prefix` follows it (and nothing else) and it
 *   holds a digit or mixes cases; or it is 16 characters or more of letters and digits, or of
 *   those and `-` that mix cases or hold 4 digits or more. A host such as `server01`,
 *   `helpdesk/acme` or `helpdesk-server-01` stays an address.
 */
function looksLikeToken(text: string): boolean {
  const [, host = '', rest = ''] = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)(.*)$/is.exec(text) ?? [];
  const labels = host.split('.');
  const label = labels.at(-1) ?? '';
  if (!/^[A-Za-z0-9_-]+$/.test(label) || /^xn--/i.test(label) || /^\d+$/.test(label) || isLoopbackHost(host)) return false;
  if (label.includes('_')) return true;
  const digits = label.replace(/\D/g, '').length;
  if (labels.length > 1) return digits > 0;
  const mixedCase = /[a-z]/.test(label) && /[A-Z]/.test(label);
  if (/^\/[A-Za-z0-9_-]+\/?$/.test(rest) && (digits > 0 || mixedCase)) return true;
  return label.length >= 16 && (/^[A-Za-z0-9]+$/.test(label) || mixedCase || digits >= 4);
}

/**
 * The account prefix a token names after its last `/` (tokens look like `SECRET/prefix`):
 * letters, digits, `-` and `_` (the vendor's plugin shows `…/john_kowalsky`).
 */
export function tokenAccountPrefix(token: string): string | undefined {
  const slash = token.trim().lastIndexOf('/');
  const prefix = slash >= 0 ? token.trim().slice(slash + 1) : '';
  return /^[a-z0-9][a-z0-9_-]*$/i.test(prefix) ? prefix : undefined;
}

export type WebResource = 'posts' | 'clients' | 'deals';

/** A record's page in the web app: its API path without `.json`, e.g. `{base}/app/posts/123`. */
export function webLink(accountUrl: string, resource: WebResource, id: number): string {
  return `${accountUrl}/app/${resource}/${id}`;
}

/** Where the person finds the API token in the web app. */
export function apiSettingsLink(accountUrl: string): string {
  return `${accountUrl}/app/account/api`;
}
