import vscode = require('vscode');
import type { Draft, UnconfirmedSend } from './draft';
import { GONE_MS, WindowPresence, type PresenceFolder } from './windowPresence';

export type { Draft, DraftKind, TodoOrigin, UnconfirmedSend } from './draft';

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

/** Each draft is one entry of the global state: a window writes only the drafts it changes. */
const PREFIX = 'helpdesk.draft:';
/** Where an earlier version kept every draft in one list, which each window rewrote whole. */
const OLD_LIST = 'helpdesk.drafts';
/** Where an earlier version's windows said what they held (see WindowPresence for why no longer). */
const OLD_PRESENCE = 'helpdesk.window:';

/**
 * Drafts in the extension's global state: they survive a window reload and a failed send. The
 * state is one for every window; since each draft is an entry of its own, two windows that save
 * drafts at the same time both keep theirs.
 */
export class DraftStore {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the id of the draft that changed or went away. */
  readonly onDidChange = this.changed.event;
  private readonly migrated: Promise<void>;
  /** This window's name in claims (each window has a store of its own). */
  readonly window = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  /** What this window does with drafts, and what the others do, as each says (see WindowPresence). */
  readonly presence: WindowPresence;

  constructor(
    private readonly state: vscode.Memento,
    /** The folder the windows share to say what each holds (see WindowPresence). */
    presenceFolder: PresenceFolder,
  ) {
    this.presence = new WindowPresence(presenceFolder, this.window);
    this.migrated = this.migrate();
  }

  /** The other windows, still open, that are editing or sending the draft: this one leaves it alone meanwhile. */
  async holders(id: string): Promise<string[]> {
    const holders = await this.presence.holders(id);
    const sending = this.get(id)?.sending;
    if (sending && sending.by !== this.window && !holders.includes(sending.by) && (await this.claimHolds(sending))) holders.push(sending.by);
    return holders;
  }

  /** Whether another window that is still open is editing or sending the draft. */
  async heldElsewhere(id: string): Promise<boolean> {
    return (await this.holders(id)).length > 0;
  }

  /** Oldest first. */
  all(): Draft[] {
    const own = this.state.keys().filter((key) => key.startsWith(PREFIX)).map((key) => this.state.get<unknown>(key));
    const drafts = [...own, ...this.oldList()].filter(isDraft);
    const unique = [...new Map(drafts.map((d) => [d.id, d])).values()];
    return unique.sort((a, b) => a.createdAt - b.createdAt);
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
    const draft = this.state.get<unknown>(PREFIX + id) ?? this.oldList().find((d) => idOf(d) === id);
    return isDraft(draft) ? draft : undefined;
  }

  /**
   * Saves a new draft. `claimed`: it is to be sent at once, so it is written claimed by this
   * window (see `claim`), in the same write, rather than saved and then claimed.
   */
  async create(fields: NewDraft, { claimed = false } = {}): Promise<Draft> {
    const now = Date.now();
    const id = `${fields.kind}-${now.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    // Where the window cannot say it is sending it (its file cannot be written), what was typed
    // is saved all the same, claimed by nobody, and the failure said after.
    let failure: { error: unknown } | undefined;
    if (claimed) await this.presence.startSending(id).catch((error: unknown) => void (failure = { error }));
    const sending = claimed && !failure ? { sending: { by: this.window, since: now } } : {};
    const draft: Draft = { ...fields, id, createdAt: now, updatedAt: now, ...sending };
    try {
      await this.write(draft);
    } catch (error) {
      failure ??= { error };
    }
    if (failure) {
      if (claimed) await this.presence.stopSending(id).catch(() => undefined);
      throw failure.error;
    }
    return draft;
  }

  async update(id: string, text: string): Promise<void> {
    const draft = this.get(id);
    if (!draft) throw vscode.FileSystemError.FileNotFound(id);
    await this.write({ ...draft, text, updatedAt: Date.now() });
  }

  /** Records (or, with undefined, forgets) an attempt whose outcome is not known. */
  async setUnconfirmed(id: string, unconfirmed: UnconfirmedSend | undefined): Promise<void> {
    const draft = this.get(id);
    if (draft) await this.write({ ...draft, unconfirmed });
  }

  async remove(id: string): Promise<void> {
    await this.state.update(PREFIX + id, undefined);
    // A window still on the earlier version may have written the old list again since.
    const old = this.oldList();
    if (old.some((d) => idOf(d) === id)) await this.state.update(OLD_LIST, old.filter((d) => idOf(d) !== id));
    this.changed.fire(id);
  }

  /**
   * Marks the draft as being sent by this window; refused when another window is sending it (every
   * window offers the drafts left after a reload), or the draft is gone. The claim holds while this
   * window lives, however long the send takes (a question may stay open for hours); a window that
   * closed or crashed mid-way holds it no longer.
   */
  async claim(id: string): Promise<Claim> {
    const taken: Claim = { taken: true };
    const draft = this.get(id);
    if (!draft) return { taken: false, freeWithinMs: 0 };
    const { sending } = draft;
    if (sending && sending.by !== this.window && (await this.claimHolds(sending))) return { taken: false, freeWithinMs: await this.claimFreeWithin(sending) };
    // Created claimed (see `create`), and not released since.
    if (sending?.by === this.window && this.presence.isSending(id)) return taken;
    // Alive and sending before the claim is written: another window that reads the claim finds it holding.
    await this.presence.startSending(id);
    await this.write({ ...draft, sending: { by: this.window, since: Date.now() } }, false);
    return taken;
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
    const draft = this.get(id);
    if (draft?.sending?.by === this.window) await this.write({ ...draft, sending: undefined }, false);
  }

  private async claimHolds(sending: { by: string; since: number }): Promise<boolean> {
    return (await this.presence.isAlive(sending.by)) ?? Date.now() - sending.since < CLAIM_MS;
  }

  /** Test hook: resolves once drafts of an earlier version's list have an entry each. */
  whenMigrated(): Promise<void> {
    return this.migrated;
  }

  dispose(): void {
    this.presence.dispose();
    this.changed.dispose();
  }

  private async write(draft: Draft, changed = true): Promise<void> {
    await this.state.update(PREFIX + draft.id, draft);
    if (changed) this.changed.fire(draft.id);
  }

  private oldList(): unknown[] {
    const list = this.state.get<unknown>(OLD_LIST);
    return Array.isArray(list) ? list : [];
  }

  private async migrate(): Promise<void> {
    for (const key of this.state.keys()) if (key.startsWith(OLD_PRESENCE)) await this.state.update(key, undefined);
    const old = this.oldList().filter(isDraft);
    if (old.length === 0 && this.state.get(OLD_LIST) === undefined) return;
    for (const draft of old) if (this.state.get(PREFIX + draft.id) === undefined) await this.state.update(PREFIX + draft.id, draft);
    await this.state.update(OLD_LIST, undefined);
  }
}

function isDraft(value: unknown): value is Draft {
  const d = value as Partial<Draft> | null;
  return !!d && typeof d.id === 'string' && typeof d.text === 'string' && typeof d.kind === 'string' && typeof d.accountUrl === 'string' && typeof d.createdAt === 'number';
}

function idOf(value: unknown): unknown {
  return (value as Partial<Draft> | null)?.id;
}
