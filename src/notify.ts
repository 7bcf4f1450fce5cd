import vscode = require('vscode');
import type { Log } from './log';

type Level = 'info' | 'warn' | 'error';
type Rest<T extends string> = [vscode.MessageOptions, ...T[]] | T[];

let log: Log | undefined;

/** Every notification is also written to the output channel, and both go through its redaction. */
export function notifyThrough(channel: Log): void {
  log = channel;
}

function show<T extends string>(level: Level, message: string, rest: Rest<T>): Thenable<T | undefined> {
  const text = log ? log.notified(level, message) : message;
  const [first, ...others] = rest;
  const args = (typeof first === 'object' ? [first, ...others] : rest) as T[];
  if (level === 'error') return vscode.window.showErrorMessage(text, ...args);
  if (level === 'warn') return vscode.window.showWarningMessage(text, ...args);
  return vscode.window.showInformationMessage(text, ...args);
}

export const notify = {
  info: <T extends string>(message: string, ...rest: Rest<T>) => show('info', message, rest),
  warn: <T extends string>(message: string, ...rest: Rest<T>) => show('warn', message, rest),
  error: <T extends string>(message: string, ...rest: Rest<T>) => show('error', message, rest),
};
