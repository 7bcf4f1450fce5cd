import { ApiError, type ApiErrorKind } from './errors';

interface Context {
  method: string;
  path: string;
  redact: (text: string) => string;
}

/** The `ApiError` for a non-2xx answer, with a message a person can act on. */
export function errorFromResponse(status: number, headers: Headers, body: string, context: Context): ApiError {
  const { method, path } = context;
  const serverSays = serverMessage(body);
  const fieldErrors = serverSays && typeof serverSays === 'object' ? serverSays : undefined;
  const detail = typeof serverSays === 'string' ? serverSays : fieldErrors ? describeFieldErrors(fieldErrors) : undefined;
  const make = (kind: ApiErrorKind, message: string, extra: { retryAfterSeconds?: number } = {}) =>
    new ApiError({ kind, message: context.redact(message), method, path, status, fieldErrors, ...extra });

  if (status === 401) return make('auth', 'The API token was rejected (HTTP 401). Sign in again with a current token.');
  if (status === 403) {
    return make('auth', `The API token is not allowed to do this (HTTP 403)${detail ? `: ${detail}` : ''}. Sign in with a token that has access.`);
  }
  if (status === 404) return make('notFound', `Not found (HTTP 404): ${method} ${path}. It may have been deleted.`);
  if (status === 429) {
    const wait = retryAfterSeconds(headers.get('retry-after'));
    const when = wait === undefined ? 'in a moment' : `in ${wait} s`;
    return make('rateLimited', `Too many requests (HTTP 429). Try again ${when}.`, wait === undefined ? {} : { retryAfterSeconds: wait });
  }
  if (status >= 500) {
    return make('server', `The service failed (HTTP ${status})${detail && !looksLikeHtml(body) ? `: ${detail}` : ''}. Try again later.`);
  }
  return make('validation', `The service refused the request (HTTP ${status})${detail ? `: ${detail}` : ''}.`);
}

/**
 * The service's own words from an error body: `{"code":"error","message":{...}|"..."}`
 * (service notes), a Rails-style `{"errors": ...}`, or a short plain-text body.
 */
function serverMessage(body: string): string | Record<string, string[]> | undefined {
  if (!body.trim() || looksLikeHtml(body)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body.length <= 300 ? body.trim() : undefined;
  }
  if (typeof json === 'string') return json;
  if (!json || typeof json !== 'object') return undefined;
  const record = json as Record<string, unknown>;
  const message = record.message ?? record.errors ?? record.error;
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object' && !Array.isArray(message)) {
    const fields: Record<string, string[]> = {};
    for (const [field, value] of Object.entries(message)) {
      const list = Array.isArray(value) ? value : [value];
      fields[field] = list.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    }
    return fields;
  }
  if (Array.isArray(message)) return message.map(String).join('; ');
  return undefined;
}

function describeFieldErrors(fields: Record<string, string[]>): string {
  return Object.entries(fields)
    .map(([field, messages]) => messages.map((m) => (field === 'base' ? m : `${field} ${m}`)).join('; '))
    .join('; ');
}

function looksLikeHtml(body: string): boolean {
  return /^\s*</.test(body);
}

/** A short reason for a failed connection, from Node's error codes. */
export function describeFailure(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the service running?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer came';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `its certificate was not accepted (${code})`;
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Seconds from a Retry-After header: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
