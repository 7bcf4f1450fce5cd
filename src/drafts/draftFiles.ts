/**
 * The drafts as files: one `<id>.json` each in a folder every window shares (see draftFolders.ts),
 * a `<id>.gone` mark where one was sent or discarded, and the move of the drafts earlier versions
 * kept in the global state. What is read is untrusted: a file that is not a draft of its own id
 * is ignored, never written back. No vscode import.
 */
import { isDraft, isDraftId, type Draft } from './draft';
import type { PresenceFolder } from './windowPresence';

/** The folder of the drafts, one file each, that every window shares. */
export interface DraftFolder extends PresenceFolder {
  /** Writes the file only if there is none of that name: false when there was one. */
  create(name: string, text: string): Promise<boolean>;
  /** Hears a file written or removed, by any window, by its name; undefined: any may have changed. */
  onDidChange(listener: (name: string | undefined) => void): { dispose(): void };
}

/** The part of VS Code's Memento the move reads and writes (the global state). */
export interface GlobalState {
  keys(): readonly string[];
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const SUFFIX = '.json';
/** Left where a draft was sent or discarded, so that a copy still in the global state is not brought back. */
const GONE = '.gone';
/** A window of an earlier version may write its global state back for as long as it stays open: a month is plenty. */
const GONE_KEPT_MS = 30 * 24 * 60 * 60_000;
/** The most drafts (and marks of drafts gone) read. */
const MAX_DRAFTS = 1000;
/**
 * The largest draft file read, and written. A draft's text and the copy an attempt sent are a
 * million characters each at most: 2 to 6 MB as JSON, more where most are control characters,
 * which JSON writes as `\u001b` (6 bytes each). A draft whose file would be larger is refused as
 * it is saved, never written for every window to ignore; the bound keeps what a read takes small.
 */
export const MAX_DRAFT_FILE_BYTES = 9_000_000;
/** Files read at once. */
const READS_AT_ONCE = 8;

/** Where the version before kept each draft: an entry of the global state. */
const PREFIX = 'helpdesk.draft:';
/** Where an earlier version kept every draft in one list. */
const OLD_LIST = 'helpdesk.drafts';
/** Where an earlier version's windows said what they held (see WindowPresence for why no longer). */
const OLD_PRESENCE = 'helpdesk.window:';

export const draftFile = (id: string) => id + SUFFIX;
export const goneMark = (id: string) => id + GONE;

/** The id of the draft whose file is `name`; undefined for any other file. */
export function draftIdOfFile(name: string): string | undefined {
  const id = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : undefined;
  return isDraftId(id) ? id : undefined;
}

/** The draft in the file of `id`; undefined when there is none, or what is there is not a draft of that id (torn, foreign, too big). */
export async function readDraft(folder: DraftFolder, id: string): Promise<Draft | undefined> {
  if (!isDraftId(id)) return undefined;
  const file = await folder.read(draftFile(id));
  if (!file) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch {
    return undefined;
  }
  if (!isDraft(value) || value.id !== id) return undefined;
  return { ...value, updatedAt: value.updatedAt ?? value.createdAt };
}

/** When the draft of `id` was made, as its id says (`<kind>-<base 36 ms>-<random>`); 0 for an id that does not say. */
function madeAt(id: string): number {
  const time = id.split('-')[1] ?? '';
  const ms = time.length <= 12 ? parseInt(time, 36) : NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Every draft in the folder (at most `MAX_DRAFTS`, the newest), a few files at a time; `unread`:
 * the ids of the files there that the limit left unread, which are not gone.
 */
export async function readDrafts(folder: DraftFolder): Promise<{ read: Map<string, Draft>; unread: Set<string> }> {
  const ids = (await folder.names())
    .flatMap((name) => draftIdOfFile(name) ?? [])
    .map((id) => ({ id, at: madeAt(id) }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ id }) => id);
  const kept = ids.slice(0, MAX_DRAFTS);
  const read = new Map<string, Draft>();
  for (let i = 0; i < kept.length; i += READS_AT_ONCE) {
    for (const draft of await Promise.all(kept.slice(i, i + READS_AT_ONCE).map((id) => readDraft(folder, id))))
      if (draft) read.set(draft.id, draft);
  }
  return { read, unread: new Set(ids.slice(MAX_DRAFTS)) };
}

/**
 * Moves the drafts the global state holds (an entry each, or the one list of an earlier version)
 * to files, each written before its entry is removed. A draft that has a file already is not
 * written again (two windows may move the same drafts at once), nor one sent or discarded since
 * (a window not yet reloaded may write its copy back). What is not a draft is left where it is.
 */
export async function moveDraftsToFiles(state: GlobalState, folder: DraftFolder): Promise<void> {
  for (const key of state.keys()) if (key.startsWith(OLD_PRESENCE)) await state.update(key, undefined);
  const names = new Set(await folder.names());
  /** Whether the draft's text is in a file now (or it was sent or discarded): its entry may go. */
  const move = async (draft: Draft): Promise<boolean> => {
    if (names.has(goneMark(draft.id)) || (await folder.create(draftFile(draft.id), JSON.stringify(draft)))) return true;
    // Moved before, and edited since in a window of the version before: that edit is kept as a draft of its own.
    // (Its id is made of the entry's, so that two windows moving it at once make one copy.)
    const there = await readDraft(folder, draft.id);
    if (!there) return false;
    if (there.text === draft.text || (draft.updatedAt ?? draft.createdAt) <= there.updatedAt) return true;
    const copy = { ...draft, id: copyId(draft), sending: undefined, unconfirmed: undefined, ref: undefined };
    await folder.create(draftFile(copy.id), JSON.stringify(copy));
    return (await readDraft(folder, copy.id))?.text === draft.text;
  };
  for (const key of state
    .keys()
    .filter((k) => k.startsWith(PREFIX))
    .slice(0, MAX_DRAFTS)) {
    const draft = state.get<unknown>(key);
    if (!isDraft(draft) || key !== PREFIX + draft.id) continue;
    if (await move(draft)) await state.update(key, undefined);
  }
  const list = state.get<unknown>(OLD_LIST);
  if (!Array.isArray(list)) return;
  // What is not moved (not a draft, as one over 1 MB; beyond the limit; not written) stays in the list, as an entry does; an empty slot goes.
  const left: unknown[] = list.slice(MAX_DRAFTS);
  for (const item of list.slice(0, MAX_DRAFTS)) if (item != null && (!isDraft(item) || !(await move(item)))) left.push(item);
  await state.update(OLD_LIST, left.length > 0 ? left : undefined);
}

/** The id of the copy of a draft's entry edited after the draft moved to a file: the same for the same entry in every window. */
function copyId(draft: Draft): string {
  let hash = 0;
  for (let i = 0; i < draft.id.length; i++) hash = (hash * 31 + draft.id.charCodeAt(i)) >>> 0;
  const at = Math.abs(Math.trunc(draft.updatedAt ?? draft.createdAt));
  return `${draft.kind}-${at.toString(36)}-${hash.toString(36)}`;
}

/** Removes the marks of drafts gone long ago. */
export async function forgetOldMarks(folder: DraftFolder): Promise<void> {
  const now = Date.now();
  for (const name of (await folder.names()).filter((n) => n.endsWith(GONE)).slice(0, MAX_DRAFTS)) {
    const mark = await folder.read(name);
    if (mark && now - mark.mtime > GONE_KEPT_MS) await folder.remove(name).catch(() => undefined);
  }
}
