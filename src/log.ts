import * as vscode from 'vscode';
import { redact, type RequestLogEntry } from './api';

/** The "Helpdesk" output channel. Every line passes through `redact`, whatever it holds. */
export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Helpdesk', { log: true });
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

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private clean(text: string): string {
    return redact(text, this.secrets());
  }
}
