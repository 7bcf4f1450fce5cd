/**
 * What this VS Code filed lately, by intent: so that the same write made again (the person's
 * command a second time, Retry after the post was found, a TODO's task, an agent's retry with an
 * edited file or a renamed parent) is never filed silently twice. An intent is what a person
 * means to file, whatever its exact text: a bug or a task by its title (a task also by its client),
 * a comment by its parent and its words. A post filed with an intent is remembered for a day, one
 * file per post in a folder every window shares (no window's write can overwrite another's).
 * No vscode import.
 */
import { createHash } from 'node:crypto';
import type { Draft, DraftKind } from './draft';
import { parseDraftDocument } from './draftDocument';
import { isDraftRef } from './draftRef';
import type { PresenceFolder } from './windowPresence';

/** What a person means to file. Two writes of one intent file one post, unless the person says otherwise. */
export interface Intent {
  readonly kind: DraftKind;
  readonly accountUrl: string;
  /** Where it goes: a task's client, a comment's parent; '' for a bug. */
  readonly target: string;
  /** The title in lower case with its spaces collapsed; a comment's words, hashed. */
  readonly key: string;
}

/** A post filed from VS Code with an intent, and when. */
export interface FiledIntent extends Intent {
  readonly postId: number;
  readonly at: number;
}

/** How long a post filed is remembered: a write of its intent within that time is asked about. */
export const RECENT_MS = 24 * 60 * 60_000;
/** The most entries kept: the oldest beyond it are removed. */
const MOST = 300;
/** The most files a look-up reads (a folder filled with junk is read no further; what is past it is removed). */
const MOST_READ = 600;
/** A time read from a file that is later than now by more than this is from a clock set back, or forged. */
const CLOCK_SLACK_MS = 60_000;
/** A title or comment is compared on its first characters only: the work stays bounded. */
const COMPARED_CHARS = 10_000;

/** The intents a draft stands for: its text now and, after an attempt, the text that attempt sent. */
export function intentsOf(draft: Pick<Draft, 'kind' | 'accountUrl' | 'text' | 'postId' | 'clientId' | 'titled' | 'unconfirmed'>): Intent[] {
  const now = intentOf(draft, draft.text);
  const sent = draft.unconfirmed?.sentText;
  if (sent === undefined || sent === draft.text) return [now];
  const then = intentOf(draft, sent);
  return then.key === now.key ? [now] : [now, then];
}

export function sameIntent(a: Intent, b: Intent): boolean {
  return a.kind === b.kind && a.accountUrl === b.accountUrl && a.target === b.target && a.key === b.key;
}

/** Whether two drafts stand for one intent (either's text now, or what an attempt of either sent). */
export function draftsShareIntent(a: Parameters<typeof intentsOf>[0], b: Parameters<typeof intentsOf>[0]): boolean {
  const theirs = intentsOf(b);
  return intentsOf(a).some((mine) => theirs.some((their) => sameIntent(mine, their)));
}

function intentOf(draft: Pick<Draft, 'kind' | 'accountUrl' | 'postId' | 'clientId' | 'titled'>, text: string): Intent {
  const { kind, accountUrl } = draft;
  if (kind === 'comment') {
    // Its words, not its title: "Re: <the parent's title>" changes with the parent.
    const words = draft.titled ? parseDraftDocument(text).description : text;
    return { kind, accountUrl, target: `post:${draft.postId ?? ''}`, key: digest(normalized(words)) };
  }
  const target = kind === 'task' ? `client:${draft.clientId ?? ''}` : '';
  return { kind, accountUrl, target, key: normalized(parseDraftDocument(text).title) };
}

/** One spelling of a text: composed Unicode (an accent typed apart or together), lower case, spaces collapsed. */
function normalized(text: string): string {
  return text.slice(0, COMPARED_CHARS).normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * The posts filed lately, by intent, in a folder the windows share: one file per post, named by
 * the marker it was filed with. What is read is checked: a file of another shape, from a time
 * that has not come, or older than a day is not taken (and is removed).
 */
export class FiledIntents {
  constructor(
    private readonly folder: PresenceFolder,
    private readonly now: () => number = Date.now,
  ) {}

  /** The post `ref` filed with this intent: remembered for a day. Never fails (what is filed is filed). */
  async note(intent: Intent, postId: number, ref: string): Promise<void> {
    if (!isDraftRef(ref)) return;
    const entry: FiledIntent = {
      kind: intent.kind,
      accountUrl: intent.accountUrl,
      target: intent.target,
      key: intent.key,
      postId,
      at: this.now(),
    };
    await this.folder.write(`${ref}.json`, JSON.stringify(entry)).catch(() => undefined);
  }

  /** The newest post filed within a day with one of these intents, but the one filed with `exceptRef`. */
  async recent(intents: readonly Intent[], exceptRef?: string): Promise<FiledIntent | undefined> {
    if (intents.length === 0) return undefined;
    let newest: FiledIntent | undefined;
    for (const { ref, entry } of await this.read()) {
      if (ref === exceptRef || !intents.some((intent) => sameIntent(intent, entry))) continue;
      if (!newest || entry.at > newest.at) newest = entry;
    }
    return newest;
  }

  private async read(): Promise<{ ref: string; entry: FiledIntent }[]> {
    const names = (await this.folder.names().catch(() => [] as string[])).filter(
      (name) => name.endsWith('.json') && isDraftRef(name.slice(0, -'.json'.length)),
    );
    const beyond = names.slice(MOST_READ);
    const now = this.now();
    const read = await Promise.all(
      names.slice(0, MOST_READ).map(async (name) => {
        const file = await this.folder.read(name).catch(() => undefined);
        const entry = file && file.text.length < 4096 ? parseEntry(file.text) : undefined;
        // A time ahead of now (a clock set back) counts as now: the post stays remembered for a day from here.
        return {
          name,
          ref: name.slice(0, -'.json'.length),
          file,
          entry: entry && entry.at > now ? { ...entry, at: now } : entry,
          ahead: entry !== undefined && entry.at - now > RECENT_MS,
        };
      }),
    );
    const fresh = read.filter(
      (item): item is typeof item & { entry: FiledIntent } => item.entry !== undefined && !item.ahead && now - item.entry.at < RECENT_MS,
    );
    fresh.sort((a, b) => b.entry.at - a.entry.at);
    const kept = fresh.slice(0, MOST);
    const keptNames = new Set(kept.map((item) => item.name));
    // Expired, a day ahead, past the most kept, or not an entry and not one being written now: gone.
    const stale = read.filter(
      ({ name, entry, file }) =>
        !keptNames.has(name) && (entry !== undefined || file === undefined || Math.abs(now - file.mtime) > CLOCK_SLACK_MS),
    );
    // Removed after, one by one: a look-up (before a send goes out) waits for none of it.
    void this.removeAll([...beyond, ...stale.map(({ name }) => name)]);
    return kept;
  }

  private async removeAll(names: readonly string[]): Promise<void> {
    for (const name of names) await this.folder.remove(name).catch(() => undefined);
  }
}

function parseEntry(text: string): FiledIntent | undefined {
  let value: Partial<FiledIntent> | null;
  try {
    value = JSON.parse(text) as Partial<FiledIntent> | null;
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { kind, accountUrl, target, key, postId, at } = value;
  if (kind !== 'bug' && kind !== 'task' && kind !== 'comment') return undefined;
  if (typeof accountUrl !== 'string' || typeof target !== 'string' || typeof key !== 'string') return undefined;
  if (typeof postId !== 'number' || !Number.isSafeInteger(postId) || postId < 1) return undefined;
  if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  return { kind, accountUrl, target, key, postId, at };
}

/** A folder in memory: the ledger of a window that has no storage folder (tests, a host without one). */
export function memoryFolder(): PresenceFolder {
  const files = new Map<string, { text: string; mtime: number }>();
  return {
    names: () => Promise.resolve([...files.keys()]),
    read: (name) => Promise.resolve(files.get(name)),
    write: (name, text) => {
      files.set(name, { text, mtime: Date.now() });
      return Promise.resolve();
    },
    remove: (name) => {
      files.delete(name);
      return Promise.resolve();
    },
  };
}

/**
 * The earlier writes of a draft's intent: a draft of it kept that may be on the service already
 * (an attempt whose answer was lost) or that an agent wrote, and the post filed with it lately.
 * Undefined when there are none.
 */
export interface Twins {
  readonly kept?: Draft;
  readonly filed?: FiledIntent;
}

/**
 * The earlier writes of the draft's intent (see Twins). The draft's own post (its attempt's
 * marker) is not one of them; a draft never attempted has no post of its own.
 */
export async function twinsOf(draft: Draft, kept: readonly Draft[], filed: FiledIntents): Promise<Twins | undefined> {
  const twin = kept.find(
    (other) =>
      other.id !== draft.id &&
      other.accountUrl === draft.accountUrl &&
      (other.unconfirmed !== undefined || other.byAgent === true) &&
      draftsShareIntent(other, draft),
  );
  const post = await filed.recent(intentsOf(draft), draft.unconfirmed?.ref);
  return twin || post ? { kept: twin, filed: post } : undefined;
}
