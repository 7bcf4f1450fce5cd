/**
 * What went wrong, in the terms a caller acts on:
 * - `auth`: the token was rejected (401) or may not do this (403): sign in again.
 * - `notFound`: the record or path does not exist (404).
 * - `validation`: the service refused the data (422, other 4xx); `fieldErrors` says why.
 * - `rateLimited`: too many requests (429); `retryAfterSeconds` says when to try again.
 * - `server`: the service failed (5xx).
 * - `badResponse`: the answer was not the JSON expected (an HTML page, malformed JSON, an
 *   empty body), or a redirect pointed to another host.
 * - `network`, `timeout`, `cancelled`: the request did not complete.
 */
export type ApiErrorKind =
  | 'auth'
  | 'notFound'
  | 'validation'
  | 'rateLimited'
  | 'server'
  | 'badResponse'
  | 'network'
  | 'timeout'
  | 'cancelled';

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  message: string;
  method: string;
  /** Request path without the query string, e.g. `/app/posts/5.json`. */
  path: string;
  status?: number;
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
}

/**
 * The one error type of the API client. It never holds the token: the message is redacted
 * when it is built, and no `cause` pointing at request objects (whose URLs carry the token)
 * is kept.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.kind = details.kind;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.fieldErrors = details.fieldErrors;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  toJSON(): ApiErrorDetails & { name: string } {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      fieldErrors: this.fieldErrors,
      retryAfterSeconds: this.retryAfterSeconds,
    };
  }
}

export function isApiError(value: unknown, kind?: ApiErrorKind): value is ApiError {
  return value instanceof ApiError && (kind === undefined || value.kind === kind);
}
