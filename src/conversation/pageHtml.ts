/**
 * The conversation page's HTML: a shell with no server text in it at all (the thread comes by
 * message and is put into the page by its own script), under a Content Security Policy that
 * lets nothing else in: no script and no style but the page's own, inline under its nonce; no
 * frame, form, font, connection or object; images only from the webview's own resources and the
 * addresses the person allowed (see `imageSources`). The script and the stylesheet are in the
 * HTML, not loaded from the extension's files: each file a webview loads is a round trip through
 * the workbench (and, in code-server, the server) before the page can show anything. No vscode.
 */
import { randomBytes } from 'node:crypto';
import { MAX_REPLY_CHARS } from './pageMessages';

export interface PageShell {
  /** The webview's own origin (`webview.cspSource`). */
  readonly cspSource: string;
  /** The page's own script and stylesheet (media/conversation), as text. */
  readonly script: string;
  readonly style: string;
  /** The page's language (`vscode.env.language`). */
  readonly lang: string;
  /** The remote images the person allowed, as CSP sources (see `imageSources`). */
  readonly images?: readonly string[];
  /** The post and account the page is of: what every message it sends must name. */
  readonly accountUrl: string;
  readonly postId: number;
  /** A nonce of this page's; one is made when not given. */
  readonly nonce?: string;
}

/** A nonce for the page's script: 128 bits, base64 (a CSP nonce's alphabet). */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** What a source, a language or a nonce may hold to stand in an attribute or a policy unescaped. */
const SAFE_SOURCE = /^[A-Za-z0-9+.-]+:\/\/[A-Za-z0-9\-._~:/@!$&()*+=%]*$/;
const SAFE_LANG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
const SAFE_NONCE = /^[A-Za-z0-9+/]{16,64}={0,2}$/;

/**
 * Remote images' addresses as CSP sources: `https://host/path` (a source's path matches the
 * address exactly; its query is no part of a source), http and https only. One whose path holds
 * what a policy cannot (`;`, `,`, quotes, spaces) stands as its origin; one that is no such URL
 * is left out.
 */
export function imageSources(urls: readonly string[]): string[] {
  const sources = new Set<string>();
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') continue;
    if (parsed.username || parsed.password) continue;
    const exact = `${parsed.origin}${parsed.pathname}`;
    const source = SAFE_SOURCE.test(exact) ? exact : parsed.origin;
    if (SAFE_SOURCE.test(source)) sources.add(source);
  }
  return [...sources];
}

/** The policy: see the top of this file. */
export function contentSecurityPolicy(cspSource: string, nonce: string, images: readonly string[] = []): string {
  // The webview's own: an origin or a wildcard of hosts ("https://*.vscode-cdn.net"), maybe several, maybe 'self'.
  const own = cspSource.split(' ');
  if (own.length > 4 || !own.every((source) => source === "'self'" || /^[A-Za-z0-9+.-]+:(\/\/[A-Za-z0-9\-._~:*+]+)?$/.test(source)))
    throw new Error('Not a webview source');
  if (!SAFE_NONCE.test(nonce)) throw new Error('Not a nonce');
  const allowed = images.filter((source) => SAFE_SOURCE.test(source));
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `img-src ${[cspSource, ...allowed].join(' ')}`,
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "media-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The page's HTML: the shell its script fills. */
export function conversationHtml(shell: PageShell): string {
  const nonce = shell.nonce ?? makeNonce();
  // What would end the element early, or (in a script) turn the HTML parser's reading of the rest.
  if (/<\/script|<!--/i.test(shell.script)) throw new Error('Not a script to put in a page');
  if (/<\/style/i.test(shell.style)) throw new Error('Not a stylesheet to put in a page');
  const lang = SAFE_LANG.test(shell.lang) ? shell.lang : 'en';
  const policy = contentSecurityPolicy(shell.cspSource, nonce, shell.images);
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
${shell.style}
</style>
</head>
<body>
<main id="conversation" aria-busy="true" data-account="${escapeAttribute(shell.accountUrl)}" data-post="${Number.isSafeInteger(shell.postId) ? shell.postId : 0}" data-reply-max="${MAX_REPLY_CHARS}"></main>
<script nonce="${nonce}">
${shell.script}
</script>
</body>
</html>
`;
}

/** Text for a double-quoted attribute. */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
