import { ApiError, type ApiErrorKind } from './errors';

interface Context {
  method: string;
  path: string;
  host: string;
  redact: (text: string) => string;
}

const KIND_BY_STATUS: Record<number, ApiErrorKind> = { 401: 'auth', 403: 'auth', 404: 'notFound', 429: 'rateLimited' };

/**
 * The `ApiError` for a non-2xx answer, or a 2xx one whose body is an error (`isErrorBody`): its
 * kind, and what the service said about it. An error in a 2xx answer is the service's failure.
 */
export function errorFromResponse(status: number, headers: Headers, body: string, context: Context): ApiError {
  const { method, path, host } = context;
  const kind = KIND_BY_STATUS[status] ?? (status >= 500 || status < 300 ? 'server' : 'validation');
  const said = serverMessage(body);
  const fieldErrors = said && typeof said === 'object' ? redactFields(said, context.redact) : undefined;
  const words = typeof said === 'string' ? said : fieldErrors ? describeFieldErrors(fieldErrors) : undefined;
  const wait = kind === 'rateLimited' ? retryAfterSeconds(headers.get('retry-after')) : undefined;
  return new ApiError({
    kind,
    method,
    path,
    host,
    status,
    fieldErrors,
    ...(words ? { serverMessage: context.redact(words.length > 300 ? `${words.slice(0, 299)}…` : words) } : {}),
    ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
  });
}

/**
 * A body that is the service's error whatever the status: `{"code":"error",…}` or `{"error":…}`
 * without an `id` (the vendor's own plugin reads bodies, not statuses). With an `id` it is a
 * record (a status may be named "error").
 */
export function isErrorBody(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json) || 'id' in json) return false;
  const { code, error } = json as Record<string, unknown>;
  return code === 'error' || (error !== undefined && error !== null && error !== false);
}

function redactFields(fields: Record<string, string[]>, redact: (text: string) => string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fields).map(([field, messages]) => [redact(field), messages.map(redact)]));
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

/** Node's error code for a failed connection (`ECONNREFUSED`), from the error or its causes. */
export function errorCode(error: unknown): string | undefined {
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
