/**
 * What this window is doing with drafts, told to the other windows through the global state
 * they share: which drafts it has open in an editor, and which it is sending. While it does
 * either it says so again every `BEAT_MS`; a window silent for `GONE_MS` is gone (closed, or
 * crashed), and what it held is free. An idle window writes nothing. No vscode import.
 */

export interface PresenceState {
  keys(): readonly string[];
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

interface Beat {
  /** When it last said so (ms); 0 once it has closed. */
  at: number;
  editing: string[];
  sending: string[];
}

const PREFIX = 'helpdesk.window:';
export const BEAT_MS = 10_000;
export const GONE_MS = 30_000;
/** A closed or crashed window's entry is removed by the next window that beats after this long. */
const FORGET_MS = 24 * 60 * 60_000;

export class WindowPresence {
  private editing: string[] = [];
  private readonly sending = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly state: PresenceState,
    readonly window: string,
  ) {}

  /** The drafts this window has open in an editor, now. */
  setEditing(ids: readonly string[]): Promise<void> {
    const same = ids.length === this.editing.length && ids.every((id) => this.editing.includes(id));
    this.editing = [...ids];
    return same ? Promise.resolve() : this.beat();
  }

  startSending(id: string): Promise<void> {
    this.sending.add(id);
    return this.beat();
  }

  stopSending(id: string): Promise<void> {
    this.sending.delete(id);
    return this.beat();
  }

  /** Whether another window is alive and has this draft open in an editor, or is sending it. */
  heldElsewhere(id: string, what: 'editing' | 'sending' | 'either'): boolean {
    return this.others().some(({ beat }) => alive(beat) && ((what !== 'sending' && beat.editing.includes(id)) || (what !== 'editing' && beat.sending.includes(id))));
  }

  /** Whether `window` is this one or alive; undefined when it never said (an earlier version). */
  isAlive(window: string): boolean | undefined {
    if (window === this.window) return true;
    const beat = this.state.get<Beat>(PREFIX + window);
    return beat ? alive(beat) : undefined;
  }

  dispose(): void {
    this.stopTimer();
    void this.state.update(PREFIX + this.window, { at: 0, editing: [], sending: [] } satisfies Beat);
  }

  /** Says what this window holds, and keeps saying it while it holds anything. */
  async beat(): Promise<void> {
    const holds = this.editing.length > 0 || this.sending.size > 0;
    if (holds && !this.timer) {
      this.timer = setInterval(() => void this.beat(), BEAT_MS);
      // A timer alone must not keep a process alive (the unit tests' node).
      (this.timer as { unref?: () => void }).unref?.();
    }
    if (!holds) this.stopTimer();
    const now = Date.now();
    await this.state.update(PREFIX + this.window, { at: holds ? now : 0, editing: this.editing, sending: [...this.sending] } satisfies Beat);
    for (const { key, beat } of this.others()) if (now - beat.at > FORGET_MS) await this.state.update(key, undefined);
  }

  private others(): { key: string; beat: Beat }[] {
    return this.state
      .keys()
      .filter((key) => key.startsWith(PREFIX) && key !== PREFIX + this.window)
      .flatMap((key) => {
        const beat = this.state.get<Partial<Beat>>(key);
        return beat && typeof beat.at === 'number' ? [{ key, beat: { at: beat.at, editing: beat.editing ?? [], sending: beat.sending ?? [] } }] : [];
      });
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function alive(beat: Beat): boolean {
  return beat.at > 0 && Date.now() - beat.at < GONE_MS;
}
