import { createHash } from 'node:crypto';
import vscode = require('vscode');
import { sharedFolder, type SharedFolder } from '../globalStorage/sharedFolders';

/**
 * The rows a list showed last, per account: a view paints them at once, and the service's answer
 * replaces them (see PagedList.seed). A snapshot is one page at most, of the fields rows show; read
 * back, it is untrusted text: torn, foreign or another account's content is ignored.
 */

/** The fields a row, its description and its quick filters read: nothing else is kept. */
const FIELDS = {
  posts: [
    'id',
    'title',
    'content',
    'kind',
    'task_kind',
    'user_id',
    'nick',
    'comments_cache',
    'created_at',
    'updated_at',
    'responsible_id',
    'status_id',
    'closed',
    'post_id',
    'client_id',
  ],
  clients: ['id', 'name', 'city', 'email', 'company'],
} as const;

export type SnapshotList = keyof typeof FIELDS;

/** At most this many records: a screenful, one page. */
export const SNAPSHOT_ROWS = 50;
/** The longest text kept of a field (a post's content is cut: its first line labels an untitled row). */
const TEXT_CHARS = 300;
/** At most this many status names. */
const STATUSES = 200;
/** A file longer than this is not read (50 rows of every field at its longest, and the statuses, fit). */
export const MAX_SNAPSHOT_BYTES = 256 * 1024;
const VERSION = 1;

export interface Snapshot<T> {
  readonly items: T[];
  /** The post status names beside the posts. */
  readonly statuses?: ReadonlyMap<number, string>;
}

/**
 * Where snapshots are kept: a folder of the extension's global storage, shared by every window,
 * whose files are written whole or not at all and read bounded (see globalStorage/sharedFolders.ts).
 */
export type SnapshotFolder = Pick<SharedFolder, 'read' | 'write' | 'remove'>;

/** The rows each account's lists showed last, in a folder of the extension's global storage. */
export function rowsFolder(globalStorage: vscode.Uri): SnapshotFolder {
  return sharedFolder(vscode.Uri.joinPath(globalStorage, 'rows'), MAX_SNAPSHOT_BYTES);
}

/** The file of a list of an account: named by a hash of the whole address (no two accounts share one). */
export function snapshotName(accountUrl: string, list: SnapshotList): string {
  return `${list}.${createHash('sha256').update(accountUrl).digest('hex').slice(0, 40)}.json`;
}

/** Deletes an account's rows (signed out of): nothing of it is painted again until it is read again. */
export async function forgetRows(folder: SnapshotFolder, accountUrl: string): Promise<void> {
  for (const list of Object.keys(FIELDS) as SnapshotList[]) await folder.remove(snapshotName(accountUrl, list)).catch(() => undefined);
}

/** What is kept of the first `SNAPSHOT_ROWS` records: their row fields, the longer texts cut. */
export function snapshotText(
  accountUrl: string,
  list: SnapshotList,
  items: readonly object[],
  statuses?: ReadonlyMap<number, string>,
): string {
  const rows = items.slice(0, SNAPSHOT_ROWS).map((item) => pick(item, list));
  return JSON.stringify({
    v: VERSION,
    account: accountUrl,
    list,
    items: rows,
    ...(statuses ? { statuses: [...statuses].slice(0, STATUSES).map(([id, name]) => [id, name.slice(0, TEXT_CHARS)]) } : {}),
  });
}

/** The snapshot in `text`, if it is whole, of this account and list, and every record in it has an id; else undefined. */
export function parseSnapshot<T extends { id: number }>(text: string, accountUrl: string, list: SnapshotList): Snapshot<T> | undefined {
  if (text.length > MAX_SNAPSHOT_BYTES) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.v !== VERSION || parsed.account !== accountUrl || parsed.list !== list) return undefined;
  const { items, statuses } = parsed;
  if (!Array.isArray(items) || items.length > SNAPSHOT_ROWS) return undefined;
  const rows: T[] = [];
  const ids = new Set<number>();
  for (const item of items) {
    if (!isRecord(item) || !isId(item.id) || ids.has(item.id)) return undefined;
    ids.add(item.id);
    rows.push(pick(item, list) as T);
  }
  if (statuses === undefined) return { items: rows };
  if (!Array.isArray(statuses) || statuses.length > STATUSES) return undefined;
  const names = new Map<number, string>();
  for (const entry of statuses) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isId(entry[0]) || typeof entry[1] !== 'string') return undefined;
    names.set(entry[0], entry[1].slice(0, TEXT_CHARS));
  }
  return { items: rows, statuses: names };
}

/** The record's row fields that hold a plain value: strings cut, anything else left out. */
function pick(item: object, list: SnapshotList): Record<string, unknown> {
  const source = item as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of FIELDS[list]) {
    if (!Object.hasOwn(source, field)) continue;
    const value = source[field];
    if (typeof value === 'string') kept[field] = value.slice(0, TEXT_CHARS);
    else if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) kept[field] = value;
  }
  return kept;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
