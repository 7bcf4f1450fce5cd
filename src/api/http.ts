import { ApiError, type BadResponseReason } from './errors';
import { errorCode, errorFromResponse, isErrorBody, retryAfterSeconds } from './responseErrors';
import { RETRY_STATUSES, retryWaitMs, type Attempts, type RetryPolicy } from './retries';
import { redact, redactUrl } from './redact';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** One attempt on the wire, for an output channel: the token is already redacted. */
export interface RequestLogEntry {
  method: HttpMethod;
  /** Path and query, e.g. `/app.json?api_token=<redacted>&page=2`. */
  url: string;
  status?: number;
  durationMs: number;
  /** Set when no answer came: the error's name, e.g. `TypeError` or `TimeoutError`. */
  failure?: string;
  /** From a 429 or 503 answer's Retry-After header. */
  retryAfterSeconds?: number;
  /** Set when this answer's request is tried again: the seconds waited first. */
  retryInSeconds?: number;
}

export interface TransportOptions {
  /** A normalized base address (see `parseAccountUrl`). */
  accountUrl: string;
  token: string;
  /** One deadline per call: its retries, their waits and reading the answer included. Default 15 s. */
  timeoutMs?: number;
  /** An answer longer than this is refused as it arrives (`badResponse`, `tooLarge`). Default 16 MiB. */
  maxAnswerBytes?: number;
  /** Retries of a GET after a network error, 429 or 502/503/504. Default 2. */
  retryLimit?: number;
  /** First retry delay; it doubles after that. Default 300 ms. */
  retryDelayMs?: number;
  /**
   * A longer Retry-After is not waited for: the call fails as `rateLimited` at once. Nor is one
   * that would outlast `timeoutMs`. Other rate-limit headers are not read. Default 10 s.
   */
  maxRetryAfterSeconds?: number;
  fetch?: typeof globalThis.fetch;
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

const MAX_REDIRECTS = 5;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** An error answer is read for the service's words only. */
const MAX_ERROR_BYTES = 64 * 1024;

type Ky = typeof import('ky');
let kyLoaded: Promise<Ky> | undefined;
/**
 * ky, evaluated at the first call rather than when the extension loads: its module tells what
 * this runtime's fetch supports by building a Request with a stream, which was half the time the
 * bundle's top level took at activation. The bundle holds it all the same (esbuild inlines a
 * dynamic import and runs the module when it is first asked for).
 */
const loadKy = (): Promise<Ky> =>
  (kyLoaded ??= import('ky').catch((error: unknown) => {
    kyLoaded = undefined; // tried again at the next call
    throw error;
  }));

/** Sends one API call the way the spec says, and turns every failure into an `ApiError`. */
export class Transport {
  readonly accountUrl: string;
  private readonly token: string;
  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.accountUrl = options.accountUrl;
    this.token = options.token.trim();
  }

  get<T>(path: string, query: Query, read: (json: unknown) => T, call?: CallOptions): Promise<T> {
    return this.send('GET', path, { query }, read, call);
  }

  post<T>(path: string, body: Record<string, unknown>, read: (json: unknown) => T, call?: CallOptions): Promise<T> {
    return this.send('POST', path, { body }, read, call);
  }

  put<T>(path: string, body: Record<string, unknown>, read: (json: unknown) => T, call?: CallOptions): Promise<T> {
    return this.send('PUT', path, { body }, read, call);
  }

  /** Removes this client's token from any text, in every encoding. */
  private redact(text: string): string {
    return redact(text, [this.token]);
  }

  /** The account's host as errors quote it: redacted too, should the token have been typed into the address. */
  private get host(): string {
    return this.redact(new URL(this.accountUrl).host);
  }

  private async send<T>(
    method: HttpMethod,
    path: string,
    parts: { query?: Query; body?: Record<string, unknown> },
    read: (json: unknown) => T,
    call: CallOptions = {},
  ): Promise<T> {
    const url = new URL(this.accountUrl + path);
    const context: ErrorContext = { method, path, host: this.host, redact: (text: string) => this.redact(text) };
    // GET carries the token in the query; POST and PUT in the body, beside the wrapper (the spec's DELETE, unused, would be like GET).
    let json: Record<string, unknown> | undefined;
    if (method === 'GET') {
      url.searchParams.set('api_token', this.token);
      for (const [key, value] of Object.entries(parts.query ?? {})) {
        if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
      }
    } else {
      json = { api_token: this.token, ...parts.body };
    }

    let text: string;
    let contentType: string;
    let status: number;
    // ky's own timeout ends at the headers of each attempt; this one covers the whole call.
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
    const attempts: Attempts = { count: 0, deadlineAt: performance.now() + timeoutMs };
    const policy = this.retryPolicy;
    let kyModule: Ky | undefined;
    try {
      // Inside: a failure to load it is a failure of this call, in words like any other.
      const { default: ky, HTTPError } = (kyModule = await loadKy());
      const response = await ky(url, {
        method,
        json,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        redirect: 'manual',
        timeout: false,
        signal,
        fetch: (input, init) => this.guardedFetch(input, init, attempts),
        retry: {
          limit: policy.limit,
          methods: ['get'],
          statusCodes: RETRY_STATUSES,
          // Retry-After is read by retryWaitMs as each answer comes, not by ky: see there.
          afterStatusCodes: [],
          delay: (attempt) => attempts.waitMs ?? policy.backoffMs * 2 ** (attempt - 1),
          shouldRetry: ({ error }) => this.shouldRetry(error instanceof HTTPError, error, call.signal, attempts),
        },
      });
      contentType = response.headers.get('content-type') ?? '';
      status = response.status;
      text = await readCapped(response, this.options.maxAnswerBytes ?? MAX_ANSWER_BYTES, context);
    } catch (error) {
      throw await this.toApiError(error, kyModule, context, call.signal, deadline);
    }
    return readAnswer({ text, contentType, status }, read, context);
  }

  private get retryPolicy(): RetryPolicy {
    return {
      limit: this.options.retryLimit ?? 2,
      backoffMs: this.options.retryDelayMs ?? 300,
      maxRetryAfterSeconds: this.options.maxRetryAfterSeconds ?? 10,
    };
  }

  /** An answer (`answered`: an HTTPError) is tried again as retryWaitMs decided when it came; no answer (a network error), as ky's rules say. */
  private shouldRetry(answered: boolean, error: unknown, signal: AbortSignal | undefined, attempts: Attempts): boolean | undefined {
    if (error instanceof ApiError || signal?.aborted) return false;
    if (answered && attempts.waitMs === undefined) return false;
    return undefined;
  }

  private async toApiError(
    error: unknown,
    ky: Pick<Ky, 'HTTPError' | 'TimeoutError'> | undefined,
    context: ErrorContext,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
  ): Promise<ApiError> {
    if (error instanceof ApiError) return error;
    const { method, path, host } = context;
    if (signal?.aborted) return new ApiError({ kind: 'cancelled', method, path, host });
    if (ky && error instanceof ky.HTTPError) {
      const body = await readCapped(error.response, MAX_ERROR_BYTES, context).catch(() => '');
      return errorFromResponse(error.response.status, error.response.headers, body, context);
    }
    if (deadline.aborted || (ky && error instanceof ky.TimeoutError)) {
      return new ApiError({
        kind: 'timeout',
        method,
        path,
        host,
        timeoutSeconds: Math.round((this.options.timeoutMs ?? 15_000) / 100) / 10,
      });
    }
    if (error instanceof Error && error.name === 'AbortError') return new ApiError({ kind: 'cancelled', method, path, host });
    const code = errorCode(error);
    return new ApiError({ kind: 'network', method, path, host, ...(code ? { code: context.redact(code) } : {}) });
  }

  /** fetch with redirects of a GET followed only within the account's origin, and every attempt logged. */
  private async guardedFetch(input: Request | URL | string, init: RequestInit | undefined, attempts: Attempts): Promise<Response> {
    let request = input instanceof Request ? input : new Request(input, init);
    const method = request.method as HttpMethod;
    attempts.count++;
    attempts.waitMs = undefined;
    for (let hop = 0; ; hop++) {
      const response = await this.loggedFetch(request, method, attempts);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel();
      const target = new URL(location, request.url);
      const path = new URL(request.url).pathname;
      const facts = { kind: 'badResponse', method, path, host: this.host, status: response.status } as const;
      if (target.origin !== new URL(this.accountUrl).origin)
        throw new ApiError({ ...facts, reason: 'foreignRedirect', redirectHost: this.redact(target.host) });
      // A write is never sent twice: the first may have been stored before the redirect.
      if (method !== 'GET') throw new ApiError({ ...facts, reason: 'writeRedirect' });
      if (hop >= MAX_REDIRECTS) throw new ApiError({ ...facts, reason: 'tooManyRedirects' });
      // The token goes where it always goes, set here: never one the service put in the target.
      target.searchParams.set('api_token', this.token);
      request = new Request(target, { method, headers: request.headers, signal: request.signal, redirect: 'manual' });
    }
  }

  private async loggedFetch(request: Request, method: HttpMethod, attempts: Attempts): Promise<Response> {
    const started = performance.now();
    const url = redactUrl(request.url, [this.token]);
    const fetchImpl = this.options.fetch ?? globalThis.fetch;
    try {
      const response = await fetchImpl(request);
      const retryAfter =
        response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
      attempts.waitMs = retryWaitMs(method, response, attempts, this.retryPolicy);
      const retryIn = attempts.waitMs === undefined ? undefined : Math.round(attempts.waitMs) / 1000;
      this.options.onRequest?.({
        method,
        url,
        status: response.status,
        durationMs: performance.now() - started,
        retryAfterSeconds: retryAfter,
        retryInSeconds: retryIn,
      });
      return response;
    } catch (error) {
      const failure = error instanceof Error ? error.name : 'Error';
      this.options.onRequest?.({ method, url, failure, durationMs: performance.now() - started });
      throw error;
    }
  }
}

/** The answer's text, read as it arrives and refused past `max` bytes (not read whole first). */
async function readCapped(response: Response, max: number, context: ErrorContext): Promise<string> {
  const tooLarge = () =>
    new ApiError({ kind: 'badResponse', method: context.method, path: context.path, host: context.host, reason: 'tooLarge' });
  if (Number(response.headers.get('content-length')) > max) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  // Node's typings give a Response body as a stream of `any`: its chunks are bytes.
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface ErrorContext {
  method: HttpMethod;
  path: string;
  host: string;
  redact: (text: string) => string;
}

function readAnswer<T>(
  answer: { text: string; contentType: string; status: number },
  read: (json: unknown) => T,
  context: ErrorContext,
): T {
  const { text, contentType, status } = answer;
  const { method, path, host } = context;
  const bad = (reason: BadResponseReason, expected?: string) =>
    new ApiError({ kind: 'badResponse', method, path, host, reason, ...(expected ? { expected: context.redact(expected) } : {}) });
  if (!text.trim()) throw bad('empty');
  if (/html/i.test(contentType) || /^\s*</.test(text)) throw bad('html');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw bad('notJson');
  }
  if (isErrorBody(json)) throw errorFromResponse(status, new Headers(), text, context);
  try {
    return read(json);
  } catch (error) {
    throw bad('unexpected', error instanceof Error ? error.message : String(error));
  }
}
