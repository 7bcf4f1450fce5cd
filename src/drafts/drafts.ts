import vscode = require('vscode');
import { isDraft, isDraftId, MAX_DRAFT_TEXT, type Draft, type UnconfirmedSend } from './draft';
import { GONE_MS, WindowPresence, type PresenceFolder } from './windowPresence';

export type { Draft, DraftKind, TodoOrigin, UnconfirmedSend } from './draft';

/**
 * This window's claim on a draft (see `DraftStore.claim`): taken (given up with `release`), or
 * refused, with how long at most the other window's claim holds if that window has gone.
 */
export type Claim = { readonly taken: true } | { readonly taken: false; readonly freeWithinMs: number };

/** What a new draft is made of; the store gives it its id and times. */
export type NewDraft = Omit<Draft, 'id' | 'createdAt' | 'updatedAt' | 'sending' | 'unconfirmed'>;

/** The folder of the drafts, one file each, that every window shares (see sharedFolders.ts). */
export interface DraftFolder extends PresenceFolder {
  /** Writes the file only if there is none of that name: false when there was one. */
  create(name: string, text: string): Promise<boolean>;
  /** Hears a file written or removed, by any window, by its name; undefined: any may have changed. */
  onDidChange(listener: (name: string | undefined) => void): { dispose(): void };
}

/**
 * How long the claim of a window of an earlier version (which does not say it is alive, see
 * WindowPresence) holds. A window of this version holds its claim for as long as it lives.
 */
const CLAIM_MS = 2 * 60_000;

const SUFFIX = '.json';
/** Left where a draft was sent or discarded, so that a copy still in the global state is not brought back. */
const GONE = '.gone';
/** A window of an earlier version may write its global state back for as long as it stays open: a month is plenty. */
const GONE_KEPT_MS = 30 * 24 * 60 * 60_000;
/** The most drafts (and marks of drafts gone) read. */
const MAX_DRAFTS = 1000;
/** Files read at once. */
const READS_AT_ONCE = 8;

/** Where the version before kept each draft: an entry of the global state. */
const PREFIX = 'helpdesk.draft:';
/** Where an earlier version kept every draft in one list. */
const OLD_LIST = 'helpdesk.drafts';
/** Where an earlier version's windows said what they held (see WindowPresence for why no longer). */
const OLD_PRESENCE = 'helpdesk.window:';

/**
 * Drafts, one file each in a folder of the extension's global storage: they survive a window
 * reload and a failed send. Not the global state: VS Code keeps an extension's global state as one
 * value that each window writes whole, so two windows saving drafts at nearly the same moment lose
 * one of them; a window writes only the files of the drafts it changes, each whole or not at all.
 *
 * `all` and `get` answer at once from what this window read last: the folder is read at start
 * (`ready`), again when a window writes a file, and when this window comes to the front. What
 * decides (a claim, a change, the offer of drafts left) reads the draft's file first.
 */
export class DraftStore {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the id of the draft that changed or went away, here or in another window. */
  readonly onDidChange = this.changed.event;
  /** This window's name in claims (each window has a store of its own). */
  readonly window = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  /** What this window does with drafts, and what the others do, as each says (see WindowPresence). */
  readonly presence: WindowPresence;
  /** Resolves once the drafts of the global state are moved to files and the folder is read. */
  readonly ready: Promise<void>;
  private drafts = new Map<string, Draft>();
  /** When (a count of writes) this window last wrote each draft: a read begun before it does not put back what was there. */
  private readonly written = new Map<string, number>();
  private writes = 0;
  /** This window's changes, one after another: each reads the draft's file, then writes it. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listening: { dispose(): void };

  constructor(
    /** The global state, where earlier versions kept the drafts. */
    private readonly state: vscode.Memento,
    private readonly folder: DraftFolder,
    /** The folder the windows share to say what each holds (see WindowPresence). */
    presenceFolder: PresenceFolder,
  ) {
    this.presence = new WindowPresence(presenceFolder, this.window);
    this.listening = folder.onDidChange((name) => void (name === undefined ? this.refresh() : this.heard(name)));
    // Drafts left in the global state stay there when they cannot be moved (a full disk): the next start tries again.
    this.ready = this.migrate().then(undefined, () => undefined).then(() => this.readAll());
    void this.ready.then(() => this.tidy()).catch(() => undefined);
  }

  /** Reads every draft's file again. */
  async refresh(): Promise<void> {
    await this.ready;
    await this.readAll();
  }

  /** The draft as its file is now (this window's copy follows). */
  async read(id: string): Promise<Draft | undefined> {
    await this.ready;
    const started = this.writes;
    const draft = await this.readFile(id);
    this.apply(id, draft, started);
    return this.drafts.get(id);
  }

  /** The other windows, still open, that are editing or sending the draft: this one leaves it alone meanwhile. */
  async holders(id: string): Promise<string[]> {
    const holders = await this.presence.holders(id);
    const sending = (await this.read(id))?.sending;
    if (sending && sending.by !== this.window && !holders.includes(sending.by) && (await this.claimHolds(sending))) holders.push(sending.by);
    return holders;
  }

  /** Whether another window that is still open is editing or sending the draft. */
  async heldElsewhere(id: string): Promise<boolean> {
    return (await this.holders(id)).length > 0;
  }

  /** Oldest first. */
  all(): Draft[] {
    return [...this.drafts.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * The task draft made from the TODO comment that reads `lineText` in the document `uri`, while
   * it is not filed: waiting, or on its way. The light bulb and Create Task from Comment offer it
   * rather than file a second task.
   */
  taskFromComment(uri: string, lineText: string): Draft | undefined {
    return this.all().find((d) => d.todo?.uri === uri && d.todo.lineText === lineText);
  }

  get(id: string): Draft | undefined {
    return this.drafts.get(id);
  }

  /**
   * Saves a new draft. `claimed`: it is to be sent at once, so it is written claimed by this
   * window (see `claim`), in the same write, rather than saved and then claimed.
   */
  async create(fields: NewDraft, { claimed = false } = {}): Promise<Draft> {
    tooLong(fields.text);
    const now = Date.now();
    const id = `${fields.kind}-${now.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    // Where the window cannot say it is sending it (its file cannot be written), what was typed
    // is saved all the same, claimed by nobody, and the failure said after.
    let failure: { error: unknown } | undefined;
    if (claimed) await this.presence.startSending(id).catch((error: unknown) => void (failure = { error }));
    const sending = claimed && !failure ? { sending: { by: this.window, since: now } } : {};
    const draft: Draft = { ...fields, id, createdAt: now, updatedAt: now, ...sending };
    try {
      await this.change(() => this.write(draft));
    } catch (error) {
      failure ??= { error };
    }
    if (failure) {
      if (claimed) await this.presence.stopSending(id).catch(() => undefined);
      throw failure.error;
    }
    return draft;
  }

  /** Fails as "not found" when the draft is gone (sent or discarded in another window), and for a text over about 1 MB. */
  update(id: string, text: string): Promise<void> {
    tooLong(text);
    return this.change(async () => {
      const draft = await this.read(id);
      if (!draft) throw vscode.FileSystemError.FileNotFound(id);
      await this.write({ ...draft, text, updatedAt: Date.now() });
    });
  }

  /** Records (or, with undefined, forgets) an attempt whose outcome is not known. */
  setUnconfirmed(id: string, unconfirmed: UnconfirmedSend | undefined): Promise<void> {
    return this.change(async () => {
      const draft = await this.read(id);
      if (draft) await this.write({ ...draft, unconfirmed });
    });
  }

  remove(id: string): Promise<void> {
    return this.change(async () => {
      if (!isDraftId(id)) return;
      this.written.set(id, ++this.writes);
      // Marked gone first: a copy in the global state (a window of the version before) is not moved back.
      await this.folder.write(id + GONE, '').catch(() => undefined);
      await this.folder.remove(id + SUFFIX).catch(async (error: unknown) => {
        if (await this.folder.read(id + SUFFIX)) throw error; // else removed in another window already
      });
      this.written.set(id, ++this.writes);
      this.drafts.delete(id);
      this.changed.fire(id);
    });
  }

  /**
   * Marks the draft as being sent by this window; refused when another window is sending it (every
   * window offers the drafts left after a reload), or the draft is gone. The claim holds while this
   * window lives, however long the send takes (a question may stay open for hours); a window that
   * closed or crashed mid-way holds it no longer.
   */
  claim(id: string): Promise<Claim> {
    return this.change(async (): Promise<Claim> => {
      const taken: Claim = { taken: true };
      const draft = await this.read(id);
      if (!draft) return { taken: false, freeWithinMs: 0 };
      const { sending } = draft;
      if (sending && sending.by !== this.window && (await this.claimHolds(sending))) return { taken: false, freeWithinMs: await this.claimFreeWithin(sending) };
      // Created claimed (see `create`), and not released since.
      if (sending?.by === this.window && this.presence.isSending(id)) return taken;
      // Alive and sending before the claim is written: another window that reads the claim finds it holding.
      await this.presence.startSending(id);
      await this.write({ ...draft, sending: { by: this.window, since: Date.now() } }, false);
      return taken;
    });
  }

  /** Whether a window, this one or another, is sending the draft now (its claim holds). */
  async isBeingSent(draft: Draft): Promise<boolean> {
    return !!draft.sending && (draft.sending.by === this.window || (await this.claimHolds(draft.sending)));
  }

  /**
   * How long, at most, another window's claim holds if that window has gone: half a minute for a
   * window that says it is alive, what is left of two minutes for one of an earlier version, which
   * does not.
   */
  private async claimFreeWithin(sending: { by: string; since: number }): Promise<number> {
    if ((await this.presence.isAlive(sending.by)) !== undefined) return GONE_MS;
    return Math.max(0, sending.since + CLAIM_MS - Date.now());
  }

  /** Gives up this window's claim, if it has one: in its file, and on the draft if it is still there. */
  async release(id: string): Promise<void> {
    // The send gives up its claim however it ended, also where it never took one: no beat then.
    if (this.presence.isSending(id)) await this.presence.stopSending(id);
    await this.change(async () => {
      const draft = await this.read(id);
      if (draft?.sending?.by === this.window) await this.write({ ...draft, sending: undefined }, false);
    });
  }

  private async claimHolds(sending: { by: string; since: number }): Promise<boolean> {
    return (await this.presence.isAlive(sending.by)) ?? Date.now() - sending.since < CLAIM_MS;
  }

  dispose(): void {
    this.listening.dispose();
    this.presence.dispose();
    this.changed.dispose();
  }

  private change<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(() => this.ready).then(work);
    this.queue = done.then(undefined, () => undefined);
    return done;
  }

  private async write(draft: Draft, changed = true): Promise<void> {
    this.written.set(draft.id, ++this.writes);
    await this.folder.write(draft.id + SUFFIX, JSON.stringify(draft));
    // Again: a read begun while the file was written may have found the one before.
    this.written.set(draft.id, ++this.writes);
    this.drafts.set(draft.id, draft);
    if (changed) this.changed.fire(draft.id);
  }

  /** Takes what was read of a draft begun at `started`, unless this window wrote the draft since; says so when it changed. */
  private apply(id: string, draft: Draft | undefined, started: number): void {
    if ((this.written.get(id) ?? -1) > started) return;
    const before = this.drafts.get(id);
    if (draft) this.drafts.set(id, draft);
    else this.drafts.delete(id);
    // A claim taken or given up is no change to what the draft says.
    const same = before === draft || (!!before && !!draft && before.text === draft.text && before.updatedAt === draft.updatedAt && JSON.stringify(before.unconfirmed) === JSON.stringify(draft.unconfirmed));
    if (!same) this.changed.fire(id);
  }

  private heard(name: string): void {
    const id = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : undefined;
    if (isDraftId(id)) void this.read(id);
  }

  private async readAll(): Promise<void> {
    const started = this.writes;
    const ids = (await this.folder.names()).flatMap((name) => (name.endsWith(SUFFIX) ? [name.slice(0, -SUFFIX.length)] : [])).filter(isDraftId);
    const read = new Map<string, Draft>();
    const kept = ids.sort().slice(0, MAX_DRAFTS);
    for (let i = 0; i < kept.length; i += READS_AT_ONCE) {
      for (const draft of await Promise.all(kept.slice(i, i + READS_AT_ONCE).map((id) => this.readFile(id)))) if (draft) read.set(draft.id, draft);
    }
    for (const id of new Set([...this.drafts.keys(), ...read.keys()])) this.apply(id, read.get(id), started);
  }

  /** The draft in the file of `id`; undefined when there is none, or what is there is not a draft of that id (torn, foreign, too big). */
  private async readFile(id: string): Promise<Draft | undefined> {
    if (!isDraftId(id)) return undefined;
    const file = await this.folder.read(id + SUFFIX);
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

  /**
   * Moves the drafts the global state holds (an entry each, or the one list of an earlier version)
   * to files, each written before its entry is removed. A draft that has a file already is not
   * written again (two windows may move the same drafts at once), nor one sent or discarded since
   * (a window not yet reloaded may write its copy back). What is not a draft is left where it is.
   */
  private async migrate(): Promise<void> {
    for (const key of this.state.keys()) if (key.startsWith(OLD_PRESENCE)) await this.state.update(key, undefined);
    const names = new Set(await this.folder.names());
    const move = async (draft: Draft) => {
      if (!names.has(draft.id + GONE)) await this.folder.create(draft.id + SUFFIX, JSON.stringify(draft));
    };
    for (const key of this.state.keys().filter((k) => k.startsWith(PREFIX)).slice(0, MAX_DRAFTS)) {
      const draft = this.state.get<unknown>(key);
      if (!isDraft(draft) || key !== PREFIX + draft.id) continue;
      await move(draft);
      await this.state.update(key, undefined);
    }
    const list = this.state.get<unknown>(OLD_LIST);
    if (list === undefined) return;
    for (const draft of (Array.isArray(list) ? list : []).slice(0, MAX_DRAFTS).filter(isDraft)) await move(draft);
    await this.state.update(OLD_LIST, undefined);
  }

  /** Removes the marks of drafts gone long ago. */
  private async tidy(): Promise<void> {
    const now = Date.now();
    for (const name of (await this.folder.names()).filter((n) => n.endsWith(GONE)).slice(0, MAX_DRAFTS)) {
      const mark = await this.folder.read(name);
      if (mark && now - mark.mtime > GONE_KEPT_MS) await this.folder.remove(name).catch(() => undefined);
    }
  }
}

function tooLong(text: string): void {
  if (text.length > MAX_DRAFT_TEXT) throw new RangeError(vscode.l10n.t('A draft holds at most {0} characters; this one has {1}.', MAX_DRAFT_TEXT, text.length));
}
