/**
 * Controls (Cc) and invisible format characters (Cf): bidi marks, overrides and isolates,
 * zero-width characters, the BOM, soft hyphens. Server text must not reorder or hide what a
 * person reads.
 */
import { madeOnFirstUse } from '../firstUse';
const INVISIBLE = madeOnFirstUse(() => /[\p{Cc}\p{Cf}]/gu);

/**
 * Server text made safe and short for one line (a label, a quick pick, a notification): no
 * controls, bidi marks or zero-width characters, and no `[text](target)` that a notification
 * would turn into a link or a command (a space is put between `]` and `(`).
 */
export function labelText(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const clean = text.replace(INVISIBLE(), ' ').replace(/\s+/g, ' ').replace(/\]\(/g, '] (').trim();
  return clean.length <= max ? clean : `${cutAt(clean, max - 1).trimEnd()}…`;
}

/**
 * A theme icon as VS Code finds one in a quick pick's label, description or detail: `$(name)` or
 * `$(name~modifier)` (modifiers of letters; older versions took digits and `-` too).
 */
const THEME_ICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z0-9-]*)?\)/g;

/**
 * Server text for a quick pick item's label, description or detail: `labelText`, with every
 * `$(…)` escaped (`\$(…)`, which VS Code shows as the text itself), so that a title such as
 * `$(loading~spin)` is no icon. Each escape adds one character past `max`. Not for a separator's
 * label or a title: VS Code shows those as plain text, backslash and all.
 */
export function pickText(value: unknown, max = 120): string {
  return labelText(value, max).replace(THEME_ICON, '\\$&');
}

/** Multi-line server text for a tooltip or a document: controls removed, bounded in length. */
export function bodyText(value: unknown, max = 2000): string {
  const text = typeof value === 'string' ? value : '';
  const clean = text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(INVISIBLE(), (c) => (c === '\n' || c === '\t' ? c : ''));
  return clean.length <= max ? clean : `${cutAt(clean, max - 1)}…`;
}

/** The first `length` UTF-16 units, one fewer if that would split a surrogate pair (an emoji) in two. */
function cutAt(text: string, length: number): string {
  const cut = text.slice(0, Math.max(0, length));
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
