/**
 * One raw call to the stand-in over real HTTP (global fetch), for the stand-in's own tests: the
 * token where the spec puts it unless told otherwise, the answer as status, text and JSON.
 */
import type { StandIn } from '../server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are JSON of many shapes; each test checks the fields it reads
export type Json = any;

export interface Reply {
  status: number;
  text: string;
  json: Json;
  headers: Headers;
}

export interface CallOptions {
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** Default: the server's token; null sends none. */
  token?: string | null;
  /** Where the token goes; default: the spec's place (query for GET/DELETE, body otherwise). */
  tokenIn?: 'query' | 'body';
  raw?: string;
  signal?: AbortSignal;
}

export async function call(server: StandIn, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const url = new URL(server.url + path);
  const token = options.token === undefined ? server.token : options.token;
  const tokenIn = options.tokenIn ?? (method === 'GET' || method === 'DELETE' ? 'query' : 'body');
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  if (token !== null && tokenIn === 'query') url.searchParams.set('api_token', token);
  let body: string | undefined = options.raw;
  if (body === undefined && (options.body || (token !== null && tokenIn === 'body'))) {
    body = JSON.stringify({ ...(token !== null && tokenIn === 'body' ? { api_token: token } : {}), ...options.body });
  }
  const headers = { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
  const response = await fetch(url, { method, body, headers, redirect: 'manual', signal: options.signal });
  const text = await response.text();
  let json: Json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}
