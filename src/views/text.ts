/** Server text made safe and short for one-line labels: no controls, bidi marks or zero-width characters. */
export function labelText(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const clean = text
    // C0/C1 controls, zero-width and bidirectional formatting characters, BOM
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  // Do not split a surrogate pair (an emoji) in two.
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut) + '…';
}

/** Multi-line server text for a tooltip or a document: controls removed, bounded in length. */
export function bodyText(value: unknown, max = 2000): string {
  const text = typeof value === 'string' ? value : '';
  const clean = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '');
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}
