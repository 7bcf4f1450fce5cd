/**
 * What a post's `use_html` says, and whether its content may be HTML at all, without a parser:
 * small enough for the extension's own bundle, which asks it before it loads the e-mail bundle
 * (load.ts) for a post.
 */

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no', '']);

/** `use_html` as sent: true or false when it says, undefined when it is missing or says nothing readable. */
export function useHtmlFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return TRUE.has(text) ? true : FALSE.has(text) ? false : undefined;
}

/**
 * False when the content is surely not HTML (not a string; `use_html` says false; or it says
 * nothing and the content does not start with `<`): then the e-mail bundle need not be read.
 * True means only "ask contentIsHtml" (contentKind.ts).
 */
export function mayBeHtml(post: { content?: unknown; use_html?: unknown }): boolean {
  if (typeof post.content !== 'string') return false;
  return useHtmlFlag(post.use_html) ?? post.content.trimStart().startsWith('<');
}
