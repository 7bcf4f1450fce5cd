import vscode = require('vscode');
import type { NotifyScope } from './watch/news';
import { clampPerPage } from './api/paging';
import { isValidReferencePrefix } from './code/postReferences';
import { DEFAULT_TRIGGER_WORDS, isValidTriggerWord } from './code/todoComments';
import { charactersText } from './text/counts';

export const SETTINGS = {
  accountUrl: 'helpdesk.accountUrl',
  workspaceAccount: 'helpdesk.workspaceAccount',
  pageSize: 'helpdesk.pageSize',
  showClosedPosts: 'helpdesk.showClosedPosts',
  snippetMaxLines: 'helpdesk.snippetMaxLines',
  autoRefreshMinutes: 'helpdesk.autoRefreshMinutes',
  requestTimeoutSeconds: 'helpdesk.requestTimeoutSeconds',
  references: 'helpdesk.references.enabled',
  referencePrefix: 'helpdesk.referencePrefix',
  todoActions: 'helpdesk.todoActions.enabled',
  todoWords: 'helpdesk.todoActions.triggerWords',
  watchIntervalMinutes: 'helpdesk.watch.intervalMinutes',
  watchNotify: 'helpdesk.watch.notify',
  branchNameTemplate: 'helpdesk.branchNameTemplate',
  commitMessageTemplate: 'helpdesk.commitMessageTemplate',
} as const;

export interface Settings {
  /** The account of the windows no workspace binds (an application setting: a workspace cannot set it). */
  accountUrl: string;
  /** The account this workspace is bound to (an address; used only where a token for it is stored); '' for none. */
  workspaceAccount: string;
  pageSize: number;
  showClosedPosts: boolean;
  snippetMaxLines: number;
  autoRefreshMinutes: number;
  requestTimeoutSeconds: number;
  /** Hovers, links and completion of post references. */
  references: boolean;
  /** The short form's prefix (`HD-` for `HD-123`); '' for none. */
  referencePrefix: string;
  todoActions: boolean;
  todoWords: readonly string[];
  /** How often the news is read; 0: not at all. */
  watchIntervalMinutes: number;
  watchNotify: NotifyScope;
  /** Start Work's proposed branch name: `{id}`, `{title}` (see branchNames.ts); '' for its default. */
  branchNameTemplate: string;
  /** What an empty commit message box starts with on a post's branch: `{reference}`, `{id}`; '' for nothing. */
  commitMessageTemplate: string;
}

/** The settings, with out-of-range values brought back into range. */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('helpdesk');
  const whole = (key: string, fallback: number, min: number, max: number) => {
    const value = config.get<number>(key, fallback);
    return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : fallback;
  };
  return {
    accountUrl: text(config.get<unknown>('accountUrl')),
    workspaceAccount: boundAddress(config.get<unknown>('workspaceAccount')),
    pageSize: clampPerPage(config.get<number>('pageSize', 50)),
    showClosedPosts: config.get<boolean>('showClosedPosts', false) === true,
    snippetMaxLines: whole('snippetMaxLines', 80, 1, 1000),
    autoRefreshMinutes: whole('autoRefreshMinutes', 0, 0, 1440),
    requestTimeoutSeconds: whole('requestTimeoutSeconds', 15, 1, 300),
    references: config.get<boolean>('references.enabled', true) !== false,
    referencePrefix: prefixOrNone(config.get<unknown>('referencePrefix')),
    todoActions: config.get<boolean>('todoActions.enabled', true) !== false,
    todoWords: triggerWords(config.get<unknown>('todoActions.triggerWords')) ?? DEFAULT_TRIGGER_WORDS,
    watchIntervalMinutes: whole('watch.intervalMinutes', 5, 0, 1440),
    watchNotify: oneOf(config.get<unknown>('watch.notify'), ['assignedToMe', 'mine', 'all', 'off'] as const, 'assignedToMe'),
    branchNameTemplate: bounded(SETTINGS.branchNameTemplate, text(config.get<unknown>('branchNameTemplate')), ''),
    commitMessageTemplate: bounded(
      SETTINGS.commitMessageTemplate,
      untrimmed(config.get<unknown>('commitMessageTemplate'), '{reference}: '),
      '{reference}: ',
    ),
  };
}

function oneOf<T extends string>(value: unknown, values: readonly T[], fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/** At most this many trigger words are used (each line of a document is tried against each). */
export const MAX_TRIGGER_WORDS = 20;

/** The words as written, the first 20 that could ever match; undefined for a value that is no list. */
function triggerWords(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const words: string[] = [];
  for (const item of value as unknown[]) {
    if (words.length >= MAX_TRIGGER_WORDS) break;
    const word = typeof item === 'string' ? item.trim() : '';
    if (isValidTriggerWord(word)) words.push(word);
  }
  return words;
}

/** A template's most characters: more is the default (a name or a message needs far fewer). */
export const MAX_TEMPLATE_CHARS = 200;
/** The too-long values already told, by setting: each is told once, not at each read. */
const told = new Map<string, string>();

/**
 * `value`, or `fallback` when it is longer than MAX_TEMPLATE_CHARS, with one message saying so per
 * value (a cloned repository's settings may hold anything; see restrictedConfigurations).
 */
function bounded(key: string, value: string, fallback: string): string {
  if (value.length <= MAX_TEMPLATE_CHARS) return value;
  if (told.get(key) !== value) {
    told.set(key, value);
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        "The setting {0} is {1} long, and at most {2} are used, so its default is used instead. Shorten it in your settings (or the workspace's .vscode/settings.json).",
        key,
        charactersText(value.length),
        charactersText(MAX_TEMPLATE_CHARS),
      ),
    );
  }
  return fallback;
}

/**
 * The workspace's binding as written. A value that is no text (against the setting's schema) is
 * kept as its JSON, which is no address: the window binds to nothing usable and shows signed
 * out, rather than moving to another account (String() made a list of one address that address).
 */
function boundAddress(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

/** A prefix the short form can use, or '' (addresses only): one that could not be read back is never written. */
function prefixOrNone(value: unknown): string {
  const prefix = typeof value === 'string' ? value.trim() : '';
  return isValidReferencePrefix(prefix) ? prefix : '';
}

/** A template whose spaces count (`{reference}: `); spaces alone are nothing; a value that is no text is the default. */
function untrimmed(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  return value.trim() ? value : '';
}

/** A setting meant to hold text; any other value (a list, a number) is none. */
function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
