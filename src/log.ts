import { inspect } from 'node:util';
import vscode = require('vscode');
import type { RequestLogEntry } from './api';
import { redact } from './api/redact';

/**
 * The "Helpdesk" output channel, created with its first line (not during activation). Every
 * line passes through `redact`, whatever it holds.
 */
export class Log implements vscode.Disposable {
  private created: vscode.LogOutputChannel | undefined;
  private secrets: () => readonly (string | undefined)[] = () => [];

  /** Where the current token comes from, so that it is cut from every line. */
  redactWith(secrets: () => readonly (string | undefined)[]): void {
    this.secrets = secrets;
  }

  request(entry: RequestLogEntry): void {
    const outcome = entry.status ?? entry.failure ?? 'no answer';
    this.channel.info(this.clean(`${entry.method} ${entry.url} ${outcome} ${Math.round(entry.durationMs)} ms`));
  }

  info(message: string): void {
    this.channel.info(this.clean(message));
  }

  error(message: string, error?: unknown): void {
    const detail = thrownText(error);
    this.channel.error(this.clean(detail ? `${message}: ${detail}` : message));
  }

  /** Writes a notification's text, and returns it redacted, for showing. */
  notified(level: 'info' | 'warn' | 'error', message: string): string {
    const text = this.clean(message);
    this.channel[level](`Notification: ${text}`);
    return text;
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.created?.dispose();
  }

  private get channel(): vscode.LogOutputChannel {
    return (this.created ??= vscode.window.createOutputChannel('Helpdesk', { log: true }));
  }

  private clean(text: string): string {
    return redact(text, this.secrets());
  }
}

/**
 * A thrown value in words, for the log: an Error by its name and message; a value that prints
 * itself (text, a number, the Git extension's GitError, which is no Error) as it does; any other
 * object by what it holds, not as "[object Object]".
 */
function thrownText(error: unknown): string {
  switch (typeof error) {
    case 'undefined':
      return '';
    case 'object':
      if (error === null) return 'null';
      if (error instanceof Error) return `${error.name}: ${error.message}`;
      return ownText(error) ?? inspect(error, { breakLength: Infinity });
    case 'string':
      return error;
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
    case 'function':
      return String(error);
  }
}

/** What an object's own toString says (its class's; Object's "[object Object]" says nothing), if it has one. */
function ownText(value: object): string | undefined {
  if (!('toString' in value) || typeof value.toString !== 'function' || value.toString === Object.prototype.toString) return undefined;
  const text: unknown = value.toString.call(value);
  return typeof text === 'string' ? text : undefined;
}
