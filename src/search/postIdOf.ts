// A post named by what a person or an agent types: its number, `#123`, `HD-123` (the reference
// prefix), or its address in this account. Bounded: a long text is not looked into. No vscode.

/** The longest text that may name a post (an address included); anything longer is not looked into. */
const REFERENCE_CHARS = 2048;

/** `123`, `#123`, `HD-123`, or the post's address in this account. */
export function postIdOf(value: unknown, accountUrl: string, prefix: string): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' && value.length <= REFERENCE_CHARS ? value.trim() : '';
  const address = `${accountUrl.replace(/\/+$/, '')}/app/posts/`;
  const digits = text.startsWith(address)
    ? text.slice(address.length)
    : prefix && text.toLowerCase().startsWith(prefix.toLowerCase())
      ? text.slice(prefix.length)
      : text.replace(/^#/, '');
  if (!/^[1-9][0-9]{0,14}$/.test(digits)) return undefined;
  return Number(digits);
}
