import vscode = require('vscode');
import { isApiError } from '../api';
import type { Log } from '../log';
import { errorText, isReadRefused } from './errorText';

const { l10n } = vscode;

type Level = 'info' | 'warn' | 'error';
type Rest<T extends string> = [vscode.MessageOptions, ...T[]] | T[];

/** What a person can do about a failure; each is offered only when the caller can do it. */
export interface FailureActions {
  retry?: () => unknown;
  editDraft?: () => unknown;
}

/**
 * Notifications. Each is also written to the output channel, and both go through its redaction.
 * `failure` is the one place where an error becomes words and buttons.
 */
export class Notifier {
  /** Test mode only (modal dialogs throw there): the answers the next modal questions get. */
  private readonly answers: (string | undefined)[] = [];

  constructor(private readonly log: Log) {}

  /** Test mode: the next modal question is answered with `label` (undefined: dismissed) instead of shown. */
  answerNextQuestion(label: string | undefined): void {
    this.answers.push(label);
  }

  info<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
    return this.show('info', message, rest);
  }

  warn<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
    return this.show('warn', message, rest);
  }

  error<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
    return this.show('error', message, rest);
  }

  /**
   * Says what failed and offers what fits: Sign In Again for a rejected token, Retry (where the
   * caller can) for what may pass on a second try, Edit Draft where a draft holds the text, Open
   * Log for what is not the service's doing. `frame` puts the words in context (`Not sent: {0}
   * Your draft is kept.`). It does not wait for a choice: a chosen action runs later. A cancel is
   * not shown.
   */
  failure(error: unknown, actions: FailureActions = {}, frame?: (text: string) => string): void {
    if (isApiError(error, 'cancelled')) return;
    const text = frame ? frame(errorText(error)) : errorText(error);
    const buttons: Array<[string, () => unknown]> = [];
    // Not for a read refused (a 403 on a GET): signing in again with the same token would meet the same.
    if (isApiError(error, 'auth') && !isReadRefused(error))
      buttons.push([
        l10n.t('Sign In Again'),
        async () => (await vscode.commands.executeCommand<boolean>('helpdesk.signIn')) && actions.retry?.(),
      ]);
    else if (actions.retry && mayPassAgain(error)) buttons.push([l10n.t('Retry'), actions.retry]);
    if (actions.editDraft) buttons.push([l10n.t('Edit Draft'), actions.editDraft]);
    if (!isApiError(error) || isApiError(error, 'badResponse')) buttons.push([l10n.t('Open Log'), () => this.log.show()]);
    void this.error(text, ...buttons.map(([label]) => label)).then((choice) => buttons.find(([label]) => label === choice)?.[1]());
  }

  private show<T extends string>(level: Level, message: string, rest: Rest<T>): Thenable<T | undefined> {
    const text = this.log.notified(level, message);
    const [first, ...others] = rest;
    if (typeof first === 'object' && first.modal && this.answers.length > 0) return Promise.resolve(this.answers.shift() as T | undefined);
    const args = (typeof first === 'object' ? [first, ...others] : rest) as T[];
    const show =
      level === 'error'
        ? vscode.window.showErrorMessage
        : level === 'warn'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    return show(text, ...args);
  }
}

/** Failures a second try may not meet: the service or the road to it, not the request or the address. */
function mayPassAgain(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'badResponse') return error.reason === 'empty' || error.reason === 'notJson' || error.reason === 'unexpected';
  return error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'rateLimited';
}
