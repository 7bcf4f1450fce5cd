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
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : error === undefined ? '' : String(error);
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
