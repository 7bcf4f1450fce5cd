/**
 * What went wrong, in the terms a caller acts on:
 * - `auth`: the token was rejected (401) or may not do this (403): sign in again.
 * - `notFound`: the record or path does not exist (404).
 * - `validation`: the service refused the data (422, other 4xx); `fieldErrors` says why.
 * - `rateLimited`: too many requests (429); `retryAfterSeconds` says when to try again.
 * - `server`: the service failed (5xx).
 * - `badResponse`: the answer was not what was expected; `reason` says how.
 * - `network`, `timeout`, `cancelled`: the request did not complete.
 */
export type ApiErrorKind =
  'auth' | 'notFound' | 'validation' | 'rateLimited' | 'server' | 'badResponse' | 'network' | 'timeout' | 'cancelled';

/** How an answer was not what was expected (`badResponse`). */
export type BadResponseReason =
  'empty' | 'html' | 'notJson' | 'unexpected' | 'foreignRedirect' | 'tooManyRedirects' | 'writeRedirect' | 'tooLarge';

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  method: string;
  /** Request path without the query string, e.g. `/app/posts/5.json`. */
  path: string;
  /** The account's host, e.g. `acme.example.com`. */
  host: string;
  status?: number;
  /** The service's own words (redacted), when it sent a short message. */
  serverMessage?: string;
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  /** `badResponse`: what was wrong with the answer. */
  reason?: BadResponseReason;
  /** `badResponse` with `unexpected`: what was expected and what came, e.g. `a record, got a list`. */
  expected?: string;
  /** `badResponse` with `foreignRedirect`: where the service pointed. */
  redirectHost?: string;
  /** `network`: Node's error code, e.g. `ECONNREFUSED`. */
  code?: string;
  /** `timeout`: the limit that ran out. */
  timeoutSeconds?: number;
}

/**
 * The one error type of the API client. It carries facts, not sentences: whoever shows it to a
 * person puts it into words. It never holds the token: every text in it is redacted when it is
 * built, and no `cause` pointing at request objects (whose URLs carry the token) is kept.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly reason: BadResponseReason | undefined;
  readonly expected: string | undefined;
  readonly redirectHost: string | undefined;
  readonly code: string | undefined;
  readonly timeoutSeconds: number | undefined;

  constructor(details: ApiErrorDetails) {
    super(summary(details));
    this.kind = details.kind;
    this.method = details.method;
    this.path = details.path;
    this.host = details.host;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.fieldErrors = details.fieldErrors;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.reason = details.reason;
    this.expected = details.expected;
    this.redirectHost = details.redirectHost;
    this.code = details.code;
    this.timeoutSeconds = details.timeoutSeconds;
  }

  toJSON(): ApiErrorDetails & { name: string; message: string } {
    const {
      name,
      message,
      kind,
      method,
      path,
      host,
      status,
      serverMessage,
      fieldErrors,
      retryAfterSeconds,
      reason,
      expected,
      redirectHost,
      code,
      timeoutSeconds,
    } = this;
    return {
      name,
      message,
      kind,
      method,
      path,
      host,
      status,
      serverMessage,
      fieldErrors,
      retryAfterSeconds,
      reason,
      expected,
      redirectHost,
      code,
      timeoutSeconds,
    };
  }
}

/** A one-line account of the facts, for logs: `auth: GET /app.json, HTTP 401`. */
function summary(d: ApiErrorDetails): string {
  const facts = [
    d.status !== undefined ? `HTTP ${d.status}` : undefined,
    d.reason,
    d.expected && `expected ${d.expected}`,
    d.redirectHost && `to ${d.redirectHost}`,
    d.code,
    d.timeoutSeconds !== undefined ? `after ${d.timeoutSeconds} s` : undefined,
    d.retryAfterSeconds !== undefined ? `retry after ${d.retryAfterSeconds} s` : undefined,
    d.serverMessage && `"${d.serverMessage}"`,
  ].filter(Boolean);
  return `${d.kind}: ${d.method} ${d.host}${d.path}${facts.length ? `, ${facts.join(', ')}` : ''}`;
}

export function isApiError(value: unknown, kind?: ApiErrorKind): value is ApiError {
  return value instanceof ApiError && (kind === undefined || value.kind === kind);
}
