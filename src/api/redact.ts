/** Placeholder written wherever a secret stood. */
export const REDACTED = '<redacted>';

/**
 * Removes a secret from text, in every form it can take on the wire: as is, URL-encoded
 * (`/` becomes `%2F`, or `%2f`), form-encoded, in any case; a token's secret part (before its
 * `/prefix`) alone too; and the value of an `api_token` query parameter or JSON key even when
 * the secret itself is not known.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const whole = secret?.trim();
    if (!whole) continue;
    const slash = whole.lastIndexOf('/');
    for (const part of slash >= 8 ? [whole, whole.slice(0, slash)] : [whole]) {
      forms
        .add(part)
        .add(encodeURIComponent(part))
        .add(new URLSearchParams({ s: part }).toString().slice(2));
    }
  }
  let out = text;
  // Longest first, so that no part of a longer form is left behind.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.replace(new RegExp(escapeRegExp(form), 'gi'), REDACTED);
  return out.replace(/([?&]api_token=)[^&#\s"']*/g, `$1${REDACTED}`).replace(/("api_token"\s*:\s*")(?:[^"\\]|\\.)*"/g, `$1${REDACTED}"`);
}

/** A URL for logs and messages: its path and query, with the token redacted. */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return redact(parsed.pathname + parsed.search, secrets);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
