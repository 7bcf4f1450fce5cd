// What the three write tools (helpdesk_fileBug, helpdesk_createTask, helpdesk_commentOnPost)
// share, beside the machinery in writeTools.ts: their input, read into its type where it enters
// (a field given as something it cannot be is told as such, never read as something else), the
// bounds of what they write, and what each tool adds (a WriteKind: fileBug.ts, createTask.ts,
// commentOnPost.ts). No vscode value import.
import type vscode = require('vscode');
import type { Post } from '../../api';
import type { Account } from '../../api/account';
import type { Draft, NewDraft } from '../../drafts/drafts';
import type { FiledIntent } from '../../drafts/filedIntents';
import type { Log } from '../../log';

export type WriteTool = 'helpdesk_fileBug' | 'helpdesk_createTask' | 'helpdesk_commentOnPost';

export interface FileInput {
  title: string;
  description?: string;
  /** A file of the workspace (relative to its folder, or absolute) whose code and permalink the post carries. */
  file?: string;
  /** 1-based lines of `file` (default: from its start; `endLine` defaults to `startLine`, or the file's end without either). */
  startLine?: number;
  endLine?: number;
  /** File it although a post with this title was filed lately (the person is asked, naming that post). */
  fileAgain?: boolean;
}

export interface CommentOnPostInput {
  /** The post's number, or a reference to it (`HD-123`, `#123`, its address). */
  post: number | string;
  text: string;
  /** Comment although this comment was added lately (the person is asked, naming it). */
  fileAgain?: boolean;
}

/** What the agent is asked to send (its schema); what reaches a tool is any JSON value, read by `writeFieldsOf`. */
export type WriteInput = FileInput | CommentOnPostInput;

/** A write's input as read: each field of its type where it is given; null is not given, as the tools have always read it. */
export interface WriteFields {
  readonly title?: string | null;
  readonly description?: string | null;
  readonly file?: string | null;
  readonly startLine?: number | null;
  readonly endLine?: number | null;
  readonly post?: number | string | null;
  readonly text?: string | null;
  readonly fileAgain?: boolean | null;
}

/** The fields a write tool reads: a call is known by these alone (anything else in its input changes nothing it does). */
export const FIELDS = ['title', 'description', 'file', 'startLine', 'endLine', 'post', 'text', 'fileAgain'] as const;

export const TITLE_CHARS = 250;
/** The most a description or a comment holds: a person must be able to read what they agree to. */
export const TEXT_CHARS = 10_000;

/** A new post's draft made ready, as its question shows it (after a twin the person is asked to file again: `again`). */
export interface Fresh {
  draft: NewDraft & { ref: string };
  title: string;
  where: string;
  again?: FiledIntent;
}

/** What a write tool adds to the machinery every write shares (writeTools.ts). */
export interface WriteKind {
  /** The draft of the agent's input, as its question shows it; or why there is none. */
  compose(fields: WriteFields, account: Account, token: vscode.CancellationToken, log: Log): Promise<Fresh | { problem: string }>;
  /** In the question: `reference` (a post of the same intent, filed lately) was written so `ago` ("5 minutes ago") from VS Code. */
  twin(reference: string, ago: string): string;
  /** The question's title where the agent asked to file it again all the same. */
  readonly again: () => string;
  /** What the agent is told once its post is on the helpdesk. */
  filed(post: Post, draft: Draft, reference: (id: number) => string): string;
}

/** A write's input read into its fields, or, for a field given as something it cannot be (a list for a description), why not. */
export function writeFieldsOf(input: Readonly<Record<string, unknown>>): WriteFields | string {
  for (const field of FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    const wanted = FIELD_TYPES[field];
    if (!wanted.includes(typeof value))
      return `${field} must be ${wanted.map((type) => (type === 'string' ? 'text' : `a ${type}`)).join(' or ')}, not ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}.`;
  }
  const { title, description, file, startLine, endLine, post, text, fileAgain } = input;
  return {
    title: textOf(title),
    description: textOf(description),
    file: textOf(file),
    startLine: numberOf(startLine),
    endLine: numberOf(endLine),
    post: typeof post === 'string' ? post : numberOf(post),
    text: textOf(text),
    fileAgain: typeof fileAgain === 'boolean' ? fileAgain : fileAgain === null ? null : undefined,
  };
}

/** What each field must be, where it is given. */
const FIELD_TYPES: Record<(typeof FIELDS)[number], readonly string[]> = {
  title: ['string'],
  description: ['string'],
  file: ['string'],
  startLine: ['number'],
  endLine: ['number'],
  post: ['number', 'string'],
  text: ['string'],
  fileAgain: ['boolean'],
};

function textOf(value: unknown): string | null | undefined {
  return typeof value === 'string' ? value : value === null ? null : undefined;
}

function numberOf(value: unknown): number | null | undefined {
  return typeof value === 'number' ? value : value === null ? null : undefined;
}
