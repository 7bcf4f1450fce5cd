// What "the e-mail as readable text" promises wherever a post's content is shown or read: the
// hostile corpus (test/server/demoEmails.ts) on each side of `use_html` the stand-in's profiles
// send, and the checks every place's text must pass.
import assert from 'node:assert/strict';
import { HIDDEN_MARKER, HOSTILE_ACTIVE, HOSTILE_BROKEN, HOSTILE_COMMENT, HOSTILE_ENCODED, HOSTILE_HIDDEN } from '../server/demoEmails';

/** `use_html` as the profiles send it: a boolean (likely), a string (contrary), left out (created through the API). */
export const USE_HTML_SIDES = [
  { side: 'boolean', use_html: true as unknown },
  { side: 'string', use_html: 'true' as unknown },
  { side: 'absent', use_html: undefined as unknown },
];

/** The hostile corpus as posts and a comment (task_kind as the stand-in sends them). */
export const HOSTILE_CONTENTS = [
  { name: 'active', content: HOSTILE_ACTIVE, task_kind: 'email' },
  { name: 'hidden', content: HOSTILE_HIDDEN, task_kind: 'email' },
  { name: 'encoded', content: HOSTILE_ENCODED, task_kind: 'email' },
  { name: 'broken', content: HOSTILE_BROKEN, task_kind: 'email' },
  { name: 'comment', content: HOSTILE_COMMENT, task_kind: 'comment' },
];

/** The one e-mail whose sender wrote tags as text (with entities): what it shows of them is text, and allowed as such. */
const WRITTEN_AS_TEXT = [/<script>window\.hbPwned20=1<\/script>/g, /<img src=x onerror=window\.hbPwned21=1>/g];

/** Every check of shown text: no markup that was markup, no address that was not http(s) or mailto, no hidden or invisible text. */
export function assertReadable(text: string, what: string): void {
  let rest = text;
  for (const written of WRITTEN_AS_TEXT) rest = rest.replace(written, ' ');
  // An address is shown as `<https://…>` or `<mailto:…>`; any other `<` before a letter, `/`, `!` or `?` is a tag left in.
  rest = rest.replace(/<(?:https?:\/\/|mailto:)[^\s<>]*>/g, ' ');
  assert.doesNotMatch(rest, /<[a-z/!?]/i, `${what}: markup shown: ${text}`);
  assert.doesNotMatch(rest, /\b(?:javascript|vbscript|data|file|command)\s*:/i, `${what}: an address that is none: ${text}`);
  assert.doesNotMatch(rest, /\bon(?:error|click|load|mouseover|focus)\s*=/i, `${what}: a handler shown: ${text}`);
  assert.ok(!text.includes(HIDDEN_MARKER), `${what}: hidden text shown: ${text}`);
  assert.doesNotMatch(text, /[\p{Cf}]|(?![\n\t])\p{Cc}/u, `${what}: an invisible or bidi character`);
  assert.doesNotMatch(text, /mso-|font-family|{\s*[a-z-]+\s*:/i, `${what}: a style shown: ${text}`);
}

/** Markdown that escapes server text (inertMarkdown, linklessMarkdown), read back as the text it shows; its raw `<` must all be escaped. */
export function shownByMarkdown(markdown: string, what: string): string {
  assert.doesNotMatch(markdown, /(?<!\\)<[a-z/!?]/i, `${what}: a raw tag in the Markdown: ${markdown}`);
  return markdown.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/\\(.)/g, '$1');
}
