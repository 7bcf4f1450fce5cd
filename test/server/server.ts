/**
 * The HTTP server: records API requests, applies fault rules, routes to the API or to the
 * control endpoints, and tracks sockets so that `close()` ends hanging requests at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleApi } from './api';
import { CONTROL_PREFIX, handleControl } from './control';
import { FaultList, forcedAnswer, type FaultRule } from './faults';
import { error, parseBody, readBody, writeAnswer, type Answer } from './http';
import type { CollectionName } from './fields';
import type { Profile } from './profile';
import type { Store } from './store';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body; null when there was none; the raw text when it was not JSON. */
  body: unknown;
  /** Lower-cased names. */
  headers: Record<string, string>;
}

/** One finished exchange, for a console log. The token is redacted from `url`. */
export interface ResponseLogEntry {
  method: string;
  /** Path and query, e.g. `/app.json?api_token=<redacted>&page=2`. */
  url: string;
  /** Undefined when no answer was sent (dropped, hung until close). */
  status: number | undefined;
  ms: number;
}

export interface StandIn {
  readonly url: string;
  /** How it behaves where the notes say only "likely" (see profile.ts). */
  readonly profile: Profile;
  readonly token: string;
  readonly prefix: string;
  readonly requests: RecordedRequest[];
  readonly store: Store;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  reset(): void;
  /** Lets every request a `hold` rule holds go on; answers how many. */
  release(): number;
  /** Adds a record to the account, as another user would in the web app. */
  insertRecord(collection: CollectionName, values: Record<string, unknown>): unknown;
  close(): Promise<void>;
}

/** Replaces the value of every `api_token=` in a path with a query string. */
export function redactQuery(url: string): string {
  return url.replace(/([?&]api_token=)[^&#]*/gi, '$1<redacted>');
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ServerSettings {
  store: Store;
  profile: Profile;
  token: string;
  prefix: string;
  onResponse?: (entry: ResponseLogEntry) => void;
  /** Called once the server has closed (e.g. to stop saving). */
  onClose?: () => void;
}

export class StandInServer implements StandIn {
  readonly store: Store;
  readonly token: string;
  readonly prefix: string;
  readonly profile: Profile;
  readonly requests: RecordedRequest[] = [];
  private readonly faults = new FaultList();
  private readonly sockets = new Set<Socket>();
  /** The requests a `hold` rule holds, each waiting for `release()`. */
  private readonly held = new Set<() => void>();
  private readonly closing = new AbortController();
  private readonly server: Server;
  private address = '';
  private closed: Promise<void> | undefined;

  constructor(private readonly settings: ServerSettings) {
    this.store = settings.store;
    this.token = settings.token;
    this.prefix = settings.prefix;
    this.profile = settings.profile;
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get url(): string {
    return this.address;
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        const { port: actual } = this.server.address() as { port: number };
        this.address = `http://127.0.0.1:${actual}`;
        resolve();
      });
    });
  }

  addFault(rule: FaultRule): void {
    this.faults.add(rule);
  }

  clearFaults(): void {
    this.faults.clear();
    this.release();
  }

  reset(): void {
    this.requests.length = 0;
    this.clearFaults();
  }

  release(): number {
    const held = [...this.held];
    this.held.clear();
    for (const go of held) go();
    return held.length;
  }

  removeRecord(collection: CollectionName, id: number): boolean {
    return this.store.remove(this.prefix, collection, id);
  }

  insertRecord(collection: CollectionName, values: Record<string, unknown>): unknown {
    return this.store.insert(this.prefix, collection, values);
  }

  updateRecord(collection: CollectionName, id: number, changes: Record<string, unknown>): unknown {
    return this.store.update(this.prefix, collection, id, changes);
  }

  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => {
      this.closing.abort();
      this.server.close(() => {
        this.settings.onClose?.();
        resolve();
      });
      for (const socket of this.sockets) socket.destroy();
    });
    return this.closed;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const log = this.settings.onResponse;
    if (log) {
      response.on('close', () => {
        const status = response.writableFinished ? response.statusCode : undefined;
        log({ method, url: redactQuery(url.pathname + url.search), status, ms: Math.round(performance.now() - started) });
      });
    }
    try {
      const { text, tooLarge } = await readBody(request);
      const body = parseBody(text);
      if (url.pathname.startsWith(CONTROL_PREFIX)) {
        writeAnswer(response, handleControl(this, method, url.pathname, body, request.socket.remoteAddress));
        return;
      }
      const query = Object.fromEntries(url.searchParams);
      this.requests.push({
        method,
        path: url.pathname,
        query,
        body: body.kind === 'json' ? body.value : body.kind === 'malformed' ? body.text : null,
        headers: headersOf(request),
      });
      const rule = this.faults.take(method, url.pathname, query);
      const handle = () => handleApi(this.store, { method, path: url.pathname, query, body, tooLarge }, this.url, this.profile);
      if (!rule) return writeAnswer(response, handle());
      await this.applyFault(rule, request, response, handle);
    } catch (problem) {
      if (!response.headersSent) writeAnswer(response, error(500, `Stand-in failure: ${(problem as Error).message}`));
    }
  }

  /** True once released; false when the server closes first. */
  private heldUntilReleased(): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.closing.signal.aborted) return resolve(false);
      const go = () => resolve(true);
      this.held.add(go);
      this.closing.signal.addEventListener('abort', () => (this.held.delete(go), resolve(false)), { once: true });
    });
  }

  private async applyFault(rule: FaultRule, request: IncomingMessage, response: ServerResponse, handle: () => Answer): Promise<void> {
    if (rule.hold && !(await this.heldUntilReleased())) return;
    if (rule.latencyMs && !(await delay(rule.latencyMs, this.closing.signal))) return;
    if (rule.drop) return void request.socket.destroy();
    if (rule.hang) return;
    if (rule.dropAfterHandling) {
      handle();
      return void request.socket.destroy();
    }
    const answer = forcedAnswer(rule) ?? handle();
    if (rule.holdAnswer) {
      // Written as the records are now: the records it holds may change while it waits.
      if (answer.text === undefined && answer.body !== undefined) answer.text = JSON.stringify(answer.body);
      if (!(await this.heldUntilReleased())) return;
    }
    writeAnswer(response, { ...answer, headers: { ...answer.headers, ...rule.headers } });
  }
}
