/** Placeholder written wherever a secret stood. */
export const REDACTED = '<redacted>';

/**
 * Removes a secret from text, in every form it can take on the wire: as is, URL-encoded
 * (`/` becomes `%2F`), form-encoded, and as the value of an `api_token` query parameter or
 * JSON key even when the secret itself is not known.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]);
    for (const form of forms) out = out.split(form).join(REDACTED);
  }
  return out
    .replace(/([?&]api_token=)[^&#\s"']*/g, `$1${REDACTED}`)
    .replace(/("api_token"\s*:\s*")(?:[^"\\]|\\.)*"/g, `$1${REDACTED}"`);
}

/** A URL for logs and messages: its path and query, with the token redacted. */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return redact(parsed.pathname + parsed.search, secrets);
}
