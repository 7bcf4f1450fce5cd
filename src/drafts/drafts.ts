import vscode = require('vscode');
import { isDraftId, MAX_DRAFT_TEXT, type Draft, type UnconfirmedSend } from './draft';
import {
  draftFile,
  draftIdOfFile,
  forgetOldMarks,
  goneMark,
  MAX_DRAFT_FILE_BYTES,
  moveDraftsToFiles,
  readDraft,
  readDrafts,
  type DraftFolder,
} from './draftFiles';
import { GONE_MS, WindowPresence, type PresenceFolder } from './windowPresence';
import { charactersText } from '../text/counts';

export type { Draft, DraftKind, TodoOrigin, UnconfirmedSend } from './draft';
export type { DraftFolder } from './draftFiles';

/**
 * This window's claim on a draft (see `DraftStore.claim`): taken (given up with `release`), or
 * refused, with how long at most the other window's claim holds if that window has gone.
 */
export type Claim = { readonly taken: true } | { readonly taken: false; readonly freeWithinMs: number };

/** What a new draft is made of; the store gives it its id and times. */
export type NewDraft = Omit<Draft, 'id' | 'createdAt' | 'updatedAt' | 'sending' | 'unconfirmed'>;

/**
 * How long the claim of a window of an earlier version (which does not say it is alive, see
 * WindowPresence) holds. A window of this version holds its claim for as long as it lives.
 */
const CLAIM_MS = 2 * 60_000;
/** A draft's lock is held for one read and one write of its file: one older than this was left by a window that crashed. */
const LOCK_STALE_MS = 5_000;
/** How long a change waits on another window's lock, and how often it looks again. */
const LOCK_WAIT_MS = 2_000;
const LOCK_POLL_MS = 20;
const lockFile = (id: string) => `${id}.lock`;

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
  private readonly drafts = new Map<string, Draft>();
  /** When (a count of writes) this window last wrote each draft: a read begun before it does not put back what was there. */
  private readonly written = new Map<string, number>();
  private writes = 0;
  /** This window's changes, one after another: each reads the draft's file, then writes it. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listening: { dispose(): void };

  constructor(
    /** The global state, where earlier versions kept the drafts. */
    state: vscode.Memento,
    private readonly folder: DraftFolder,
    /** The folder the windows share to say what each holds (see WindowPresence). */
    presenceFolder: PresenceFolder,
  ) {
    this.presence = new WindowPresence(presenceFolder, this.window);
    this.listening = folder.onDidChange((name) => {
      if (name === undefined) return void this.refresh();
      const id = draftIdOfFile(name);
      if (id) void this.read(id);
    });
    // Drafts left in the global state stay there when they cannot be moved (a full disk): the next start tries again.
    this.ready = moveDraftsToFiles(state, folder)
      .then(undefined, () => undefined)
      .then(() => this.readAll());
    void this.ready.then(() => forgetOldMarks(folder)).catch(() => undefined);
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
    const draft = await readDraft(this.folder, id);
    this.apply(id, draft, started);
    return this.drafts.get(id);
  }

  /** The other windows, still open, that are editing or sending the draft: this one leaves it alone meanwhile. */
  async holders(id: string): Promise<string[]> {
    const holders = await this.presence.holders(id);
    const sending = (await this.read(id))?.sending;
    if (sending && sending.by !== this.window && !holders.includes(sending.by) && (await this.claimHolds(sending)))
      holders.push(sending.by);
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
   * window (see `claim`), in the same write, rather than saved and then claimed. `attempt`: the
   * marker of its first attempt (see `firstAttempt`), worked out while the window says it is
   * sending it and written in that same write too; none where it resolves with none, or fails.
   */
  async create(
    fields: NewDraft,
    { claimed = false, attempt }: { claimed?: boolean; attempt?: PromiseLike<UnconfirmedSend | undefined> } = {},
  ): Promise<Draft> {
    tooLong(fields.text);
    const now = Date.now();
    const id = `${fields.kind}-${now.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    // Where the window cannot say it is sending it (its file cannot be written), what was typed
    // is saved all the same, claimed by nobody, and the failure said after.
    let failure: { error: unknown } | undefined;
    const [, unconfirmed] = await Promise.all([
      claimed ? this.presence.startSending(id).catch((error: unknown) => void (failure = { error })) : undefined,
      claimed && attempt ? Promise.resolve(attempt).catch(() => undefined) : undefined,
    ]);
    const sending = claimed && !failure ? { sending: { by: this.window, since: now } } : {};
    const marked = claimed && !failure && unconfirmed ? { unconfirmed } : {};
    const draft: Draft = { ...fields, id, createdAt: now, updatedAt: now, ...sending, ...marked };
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

  /**
   * Fails as "not found" when the draft is gone (sent or discarded in another window), and for a
   * text over about 1 MB. `ifText`: only while the draft's file holds that text (the text its
   * writer last saw); false when it holds another, saved elsewhere since.
   */
  update(id: string, text: string, { ifText }: { ifText?: string } = {}): Promise<boolean> {
    tooLong(text);
    return this.change(async () => {
      // What this window's editor was saving over: another window's save since is refused, not overwritten.
      const known = this.drafts.get(id);
      return this.locked(id, async () => {
        const draft = await this.read(id);
        if (!draft) throw vscode.FileSystemError.FileNotFound(id);
        if (ifText !== undefined) {
          if (draft.text !== ifText) return false;
        } else if (known && (known.text !== draft.text || known.updatedAt !== draft.updatedAt)) {
          throw new vscode.FileSystemError(
            vscode.l10n.t('The draft was modified since in another window; its text there is shown now. Save again to keep yours.'),
          );
        }
        await this.write({ ...draft, text, updatedAt: Date.now() });
        return true;
      });
    });
  }

  /**
   * Runs `work` (a read of the draft's file, then a write) while this window holds the draft's lock
   * file: one window at a time, as `create` makes the file only where there is none. A lock left by
   * a window that crashed is taken over once stale; one held longer than a wait fails the change.
   */
  private async locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    // An id that is not a draft's names no file (it has none to read either).
    if (!isDraftId(id)) return work();
    const name = lockFile(id);
    const until = Date.now() + LOCK_WAIT_MS;
    while (!(await this.folder.create(name, this.window))) {
      const lock = await this.folder.read(name);
      if (lock && Date.now() - lock.mtime > LOCK_STALE_MS) await this.folder.remove(name).catch(() => undefined);
      else if (Date.now() > until)
        throw new vscode.FileSystemError(vscode.l10n.t('The draft is being saved in another window; try again.'));
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    try {
      return await work();
    } finally {
      await this.folder.remove(name).catch(() => undefined);
    }
  }

  /** Records (or, with undefined, forgets) an attempt whose outcome is not known. */
  setUnconfirmed(id: string, unconfirmed: UnconfirmedSend | undefined): Promise<void> {
    return this.change(async () => {
      const draft = await this.read(id);
      if (draft) await this.write({ ...draft, unconfirmed });
    });
  }

  /** The draft's post is filed and the draft holds other text since: it waits on no attempt, and files with a marker of its own. */
  endAttempt(id: string): Promise<void> {
    return this.change(async () => {
      const draft = await this.read(id);
      if (draft) await this.write({ ...draft, unconfirmed: undefined, ref: undefined });
    });
  }

  /**
   * `ifText`: only while the draft's file holds that text (read in this window's turn to change it,
   * holding the draft's lock, as a save does), so that what another window saved into it since is
   * kept. False when it was not removed for that.
   */
  remove(id: string, { ifText }: { ifText?: string } = {}): Promise<boolean> {
    return this.change(async () => {
      if (!isDraftId(id)) return true;
      if (ifText === undefined) return this.removeFiles(id);
      return this.locked(id, async () => {
        const now = await this.read(id);
        return now && now.text !== ifText ? false : this.removeFiles(id);
      });
    });
  }

  private async removeFiles(id: string): Promise<true> {
    this.written.set(id, ++this.writes);
    // Marked gone first: a copy in the global state (a window of the version before) is not moved back.
    await this.folder.write(goneMark(id), '').catch(() => undefined);
    await this.folder.remove(draftFile(id)).catch(async (error: unknown) => {
      if (await this.folder.read(draftFile(id))) throw error; // else removed in another window already
    });
    this.written.set(id, ++this.writes);
    this.drafts.delete(id);
    this.changed.fire(id);
    return true;
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
      if (sending && sending.by !== this.window && (await this.claimHolds(sending)))
        return { taken: false, freeWithinMs: await this.claimFreeWithin(sending) };
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
    const gone = () => this.folder.read(goneMark(draft.id)).then((mark) => mark !== undefined);
    if (await gone()) throw this.wentAway(draft.id);
    const json = JSON.stringify(draft);
    // A file no window would read back is not written as if saved.
    if (Buffer.byteLength(json) > MAX_DRAFT_FILE_BYTES) throw new RangeError(vscode.l10n.t('This draft is too large to save.'));
    this.written.set(draft.id, ++this.writes);
    await this.folder.write(draftFile(draft.id), json);
    // Sent or discarded in another window while this one wrote: what was written would bring it back.
    if (await gone()) {
      await this.folder.remove(draftFile(draft.id)).catch(() => undefined);
      throw this.wentAway(draft.id);
    }
    // Again: a read begun while the file was written may have found the one before.
    this.written.set(draft.id, ++this.writes);
    this.drafts.set(draft.id, draft);
    if (changed) this.changed.fire(draft.id);
  }

  /** The draft is gone (its mark is there): this window forgets it, and the write fails as "not found". */
  private wentAway(id: string): Error {
    this.written.set(id, ++this.writes);
    if (this.drafts.delete(id)) this.changed.fire(id);
    return vscode.FileSystemError.FileNotFound(id);
  }

  /** Takes what was read of a draft begun at `started`, unless this window wrote the draft since; says so when it changed. */
  private apply(id: string, draft: Draft | undefined, started: number): void {
    if ((this.written.get(id) ?? -1) > started) return;
    const before = this.drafts.get(id);
    if (draft) this.drafts.set(id, draft);
    else this.drafts.delete(id);
    // A claim taken or given up is no change to what the draft says.
    const same =
      before === draft ||
      (!!before &&
        !!draft &&
        before.text === draft.text &&
        before.updatedAt === draft.updatedAt &&
        JSON.stringify(before.unconfirmed) === JSON.stringify(draft.unconfirmed));
    if (!same) this.changed.fire(id);
  }

  private async readAll(): Promise<void> {
    const started = this.writes;
    const { read, unread } = await readDrafts(this.folder);
    // A draft the limit left unread is still there: only one whose file is gone is taken for gone.
    for (const id of new Set([...this.drafts.keys(), ...read.keys()])) if (!unread.has(id)) this.apply(id, read.get(id), started);
  }
}

function tooLong(text: string): void {
  if (text.length > MAX_DRAFT_TEXT)
    throw new RangeError(
      vscode.l10n.t('A draft holds at most {0}; this one has {1}.', charactersText(MAX_DRAFT_TEXT), charactersText(text.length)),
    );
}
