/** Fault rules: which requests they catch, and the answer they force instead of the real one. */
import { STATUS_CODES } from 'node:http';
import { isObject, type Answer } from './http';

export interface FaultRule {
  /** e.g. 'GET'; default any. */
  method?: string;
  /** A string is an exact pathname; a RegExp is tested on the pathname. Default any. */
  path?: string | RegExp;
  /** Query parameters the request must carry with these values (others may be there too). Default any. */
  query?: Record<string, string>;
  /** How many matching requests it applies to; default unlimited. */
  times?: number;
  /** Delay before answering (then answer normally unless another effect is set). */
  latencyMs?: number;
  /** Forced status. */
  status?: number;
  /** Forced body (JSON-encoded unless a string). */
  body?: unknown;
  /** Added to the answer, forced or real, e.g. {'Retry-After': '1'}. */
  headers?: Record<string, string>;
  /** An HTML error page (text/html) with `status` (default 502). */
  html?: boolean;
  /** 200 (or `status`) with content-type application/json and a truncated JSON body. */
  malformedJson?: boolean;
  /** 200 (or `status`) with an empty body. */
  emptyBody?: boolean;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Never answer (until the server closes). */
  hang?: boolean;
  /**
   * Hold the request, read and recorded, until `release()` (POST /__standin/release), then go on
   * as the other effects say: a test keeps a call under way for as long as it needs, on any machine.
   */
  hold?: boolean;
  /**
   * Answer as the records are now, but hold the answer until `release()`: an answer overtaken in
   * transit by a later change (another read, a write elsewhere) reaches the client last.
   */
  holdAnswer?: boolean;
  /** Process the request normally (state changes!) then destroy the socket instead of answering. */
  dropAfterHandling?: boolean;
  /** Answer 302 with Location: redirectTo. */
  redirectTo?: string;
}

export const TRUNCATED_JSON = '{"id":1,"title":"Truncated an';

function htmlPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/**
 * The answer a rule forces, or undefined when the request is to be handled normally
 * (latency only, headers only, dropAfterHandling). A status alone answers the service's error
 * shape with that status, without touching the state.
 */
export function forcedAnswer(rule: FaultRule): Answer | undefined {
  if (rule.redirectTo !== undefined) return { status: rule.status ?? 302, text: '', headers: { location: rule.redirectTo } };
  if (rule.html) {
    const status = rule.status ?? 502;
    return { status, text: typeof rule.body === 'string' ? rule.body : htmlPage(status), contentType: 'text/html; charset=utf-8' };
  }
  if (rule.malformedJson) return { status: rule.status ?? 200, text: TRUNCATED_JSON };
  if (rule.emptyBody) return { status: rule.status ?? 200, text: '' };
  if (rule.body !== undefined) {
    const status = rule.status ?? 200;
    return typeof rule.body === 'string' ? { status, text: rule.body } : { status, body: rule.body };
  }
  if (rule.status !== undefined) {
    const empty = rule.status === 204 || rule.status === 304;
    return empty
      ? { status: rule.status, text: '' }
      : { status: rule.status, body: { code: 'error', message: STATUS_CODES[rule.status] ?? 'Injected fault' } };
  }
  return undefined;
}

/** Rules in order of addition; the first matching rule with remaining `times` applies. */
export class FaultList {
  private readonly rules: { rule: FaultRule; remaining: number }[] = [];

  add(rule: FaultRule): void {
    this.rules.push({ rule: { ...rule }, remaining: rule.times ?? Infinity });
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The rule that applies to this request, counting it as used. */
  take(method: string, path: string, query: Record<string, string> = {}): FaultRule | undefined {
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.remaining <= 0) continue;
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (typeof rule.path === 'string' && rule.path !== path) continue;
      if (rule.path instanceof RegExp && !new RegExp(rule.path.source, rule.path.flags.replace(/[gy]/g, '')).test(path)) continue;
      if (rule.query && Object.entries(rule.query).some(([name, value]) => query[name] !== value)) continue;
      entry.remaining--;
      return rule;
    }
    return undefined;
  }
}

const BOOLEAN_FLAGS = ['html', 'malformedJson', 'emptyBody', 'drop', 'hang', 'hold', 'holdAnswer', 'dropAfterHandling'] as const;

/** A rule from the control endpoint's JSON: `path` is exact, `pathPattern` a RegExp source. */
export function faultFromJson(value: unknown): FaultRule {
  if (!isObject(value)) throw new Error('A fault rule must be a JSON object');
  const rule: FaultRule = {};
  const { method, path, pathPattern, query, times, latencyMs, status, body, headers, redirectTo } = value;
  if (method !== undefined) rule.method = expect(method, 'string', 'method');
  if (path !== undefined && pathPattern !== undefined) throw new Error('Give either path or pathPattern');
  if (path !== undefined) rule.path = expect(path, 'string', 'path');
  if (pathPattern !== undefined) {
    try {
      rule.path = new RegExp(expect(pathPattern, 'string', 'pathPattern'));
    } catch (error) {
      throw new Error(`pathPattern: ${(error as Error).message}`, { cause: error });
    }
  }
  if (query !== undefined) {
    if (!isObject(query) || Object.values(query).some((q) => typeof q !== 'string')) throw new Error('query must be an object of strings');
    rule.query = query as Record<string, string>;
  }
  if (times !== undefined) rule.times = expect(times, 'number', 'times');
  if (latencyMs !== undefined) rule.latencyMs = expect(latencyMs, 'number', 'latencyMs');
  if (status !== undefined) rule.status = expect(status, 'number', 'status');
  if (body !== undefined) rule.body = body;
  if (redirectTo !== undefined) rule.redirectTo = expect(redirectTo, 'string', 'redirectTo');
  if (headers !== undefined) {
    if (!isObject(headers) || Object.values(headers).some((h) => typeof h !== 'string'))
      throw new Error('headers must be an object of strings');
    rule.headers = headers as Record<string, string>;
  }
  for (const flag of BOOLEAN_FLAGS) if (value[flag] !== undefined) rule[flag] = expect(value[flag], 'boolean', flag);
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 200 && rule.status <= 599))
    throw new Error('status must be 200..599');
  return rule;
}

function expect<T extends 'string' | 'number' | 'boolean'>(
  value: unknown,
  type: T,
  name: string,
): T extends 'string' ? string : T extends 'number' ? number : boolean {
  if (typeof value !== type) throw new Error(`${name} must be a ${type}`);
  return value as T extends 'string' ? string : T extends 'number' ? number : boolean;
}
