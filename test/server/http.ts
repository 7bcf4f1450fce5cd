/** Small HTTP helpers: answers as values, reading request bodies, writing answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a handler decides to send; the server writes it (or, under a fault, does not). */
export interface Answer {
  status: number;
  /** Sent as JSON unless `text` is set. */
  body?: unknown;
  /** Sent as it is, with `contentType`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export type FieldErrors = Record<string, string[]>;

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export function json(status: number, body: unknown): Answer {
  return { status, body };
}

/** The service's error shape: `{"code":"error","message":...}`. */
export function error(status: number, message: string | FieldErrors): Answer {
  return { status, body: { code: 'error', message } };
}

export const notFound = (): Answer => error(404, 'Not found');

export function invalid(errors: FieldErrors): Answer {
  return error(422, errors);
}

export interface RequestBody {
  text: string;
  tooLarge: boolean;
}

export function readBody(request: IncomingMessage): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    request.on('error', reject);
  });
}

export type ParsedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'malformed'; text: string };

/** An empty body is no body; anything else must be JSON. */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'malformed', text };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function writeAnswer(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  const headers: Record<string, string | number> = {
    'content-type': answer.contentType ?? 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  };
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  response.writeHead(answer.status, headers);
  response.end(text);
}
