/**
 * Whether a post's content is HTML. The service's `use_html` says so where it is sent, as a
 * boolean, a number or a string ("1"/"0", "true"/"false", "yes"/"no"); where it is missing or
 * unreadable, the content itself is looked at (service notes: neither is shown).
 *
 * The two ways to be wrong are not alike: HTML taken for text shows its tags, which is ugly but
 * loses nothing; text taken for HTML loses what looked like tags ("the total is <b> when…"). So
 * the look is strict. Content is HTML when its first token, read by htmlparser2, is a doctype or
 * an `<html>`, `<head>` or `<body>` tag; or, for an e-mail or a comment (where mail bodies come
 * from), a tag that starts a mail body (`<div>`, `<p>`, `<table>`, `<span>`, `<font>`, …) with an
 * end tag or a `<br>` of such an element later on. Anything else (text first, an unknown tag
 * such as `<Company name>`, one tag with nothing closed) is text, and is shown as written.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with sanitize-html
import htmlparser2 = require('htmlparser2');
import { useHtmlFlag } from './useHtml';

/** A post as far as this needs it: any field may be missing or of the wrong type. */
export interface PostContent {
  content?: unknown;
  use_html?: unknown;
  task_kind?: unknown;
}

export function contentIsHtml(post: PostContent): boolean {
  if (typeof post.content !== 'string') return false;
  return useHtmlFlag(post.use_html) ?? looksLikeHtml(post.content, post.task_kind);
}

/** How much of the content the look reads. */
const SNIFF_CHARS = 16 * 1024;
const DOCUMENT_TAGS = new Set(['html', 'head', 'body']);
const BODY_TAGS = new Set([
  'div',
  'p',
  'table',
  'span',
  'font',
  'center',
  'blockquote',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'pre',
  'section',
  'article',
  'style',
  'meta',
  'title',
]);
const BODY_VOIDS = new Set(['br', 'img', 'hr']);
/** Where a mail body may start with a body tag rather than a whole document. */
const MAIL_KINDS = new Set(['email', 'comment']);

/** The rule at the top of this file, for content whose `use_html` says nothing. */
export function looksLikeHtml(content: string, taskKind: unknown): boolean {
  const start = content.trimStart();
  if (!start.startsWith('<')) return false;
  const bodyStartAllowed = typeof taskKind === 'string' && MAIL_KINDS.has(taskKind);
  let verdict: boolean | undefined;
  let bodyStart = false;
  const decide = (value: boolean) => {
    verdict ??= value;
    parser.pause();
  };
  const parser = new htmlparser2.Parser(
    {
      onprocessinginstruction(name) {
        if (!bodyStart) decide(name.toLowerCase() === '!doctype');
      },
      onopentag(name) {
        if (verdict !== undefined) return;
        if (bodyStart) {
          if (BODY_VOIDS.has(name)) decide(true);
          return;
        }
        if (DOCUMENT_TAGS.has(name)) return decide(true);
        if (!bodyStartAllowed || !(BODY_TAGS.has(name) || BODY_VOIDS.has(name))) return decide(false);
        if (BODY_VOIDS.has(name)) return decide(true);
        bodyStart = true;
      },
      onclosetag(name, isImplied) {
        if (verdict === undefined && bodyStart && !isImplied && (BODY_TAGS.has(name) || BODY_VOIDS.has(name))) decide(true);
      },
      ontext(text) {
        if (verdict === undefined && !bodyStart && text.trim() !== '') decide(false);
      },
    },
    { decodeEntities: true },
  );
  // Comments before the first tag (Outlook's conditional ones) say nothing either way.
  parser.write(start.length > SNIFF_CHARS ? start.slice(0, SNIFF_CHARS) : start);
  return verdict ?? false;
}
