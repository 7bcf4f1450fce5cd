/**
 * What this window is doing with drafts, told to the other windows through a file of its own in
 * a folder they share: which drafts it has open in an editor, and which it is sending. While it
 * does either it says so again every `BEAT_MS`; a window silent for `GONE_MS` is gone (crashed),
 * one that closed says so, and what either held is free. An idle window writes nothing.
 *
 * Not the global state: VS Code keeps an extension's global state as one value, and a window
 * that writes it overwrites what another window wrote a moment before and it had not heard of
 * yet. Beats every few seconds from every window would make that likely; a file per window
 * cannot overwrite anyone else's. No vscode import.
 */

/** The folder the windows share (one file per window). */
export interface PresenceFolder {
  names(): Promise<string[]>;
  /** The file's text and when it was last written (ms); undefined when it is not there (any more). */
  read(name: string): Promise<{ text: string; mtime: number } | undefined>;
  write(name: string, text: string): Promise<void>;
  remove(name: string): Promise<void>;
}

interface Beat {
  /** When it last said so (ms); 0 once it holds nothing, or has closed. */
  at: number;
  /** Said as it closed. */
  closed?: boolean;
  editing: string[];
  sending: string[];
}

const SUFFIX = '.json';
export const BEAT_MS = 10_000;
export const GONE_MS = 30_000;
/** A closed or crashed window's file is removed by the next window that beats after this long. */
const FORGET_MS = 24 * 60 * 60_000;

export class WindowPresence {
  /** How long a window is silent before it is taken for gone (for modules of the other bundle, which import no value from here). */
  readonly goneMs = GONE_MS;
  private editing: string[] = [];
  private readonly sending = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Beats are written one after another: a slow write never lands after a later one. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: PresenceFolder,
    readonly window: string,
  ) {}

  /** The drafts this window has open in an editor, now. */
  setEditing(ids: readonly string[]): Promise<void> {
    const same = ids.length === this.editing.length && ids.every((id) => this.editing.includes(id));
    this.editing = [...ids];
    return same ? Promise.resolve() : this.say();
  }

  /** Resolves once this window's file says so (a send goes out only then; see `say`). */
  startSending(id: string): Promise<void> {
    this.sending.add(id);
    return this.say();
  }

  /** Whether this window says it is sending the draft. */
  isSending(id: string): boolean {
    return this.sending.has(id);
  }

  stopSending(id: string): Promise<void> {
    this.sending.delete(id);
    return this.say();
  }

  /** The other windows, alive now, that have this draft open in an editor or are sending it. */
  async holders(id: string, what: 'editing' | 'sending' | 'either' = 'either'): Promise<string[]> {
    const now = Date.now();
    return (await this.others())
      .filter(
        ({ beat }) =>
          alive(beat, now) && ((what !== 'sending' && beat.editing.includes(id)) || (what !== 'editing' && beat.sending.includes(id))),
      )
      .map(({ window }) => window);
  }

  /** Whether `window` is this one or alive; undefined when it never said (an earlier version). */
  async isAlive(window: string): Promise<boolean | undefined> {
    if (window === this.window) return true;
    const beat = parseBeat(await this.folder.read(window + SUFFIX));
    return beat ? alive(beat, Date.now()) : undefined;
  }

  /** Whether `window` has closed or crashed (an idle one, holding nothing, has not). */
  async hasGone(window: string): Promise<boolean> {
    if (window === this.window) return false;
    const beat = parseBeat(await this.folder.read(window + SUFFIX));
    return !beat || beat.closed === true || (beat.at > 0 && !alive(beat, Date.now()));
  }

  dispose(): void {
    this.stopTimer();
    this.editing = [];
    this.sending.clear();
    void this.write({ at: 0, closed: true, editing: [], sending: [] });
  }

  /** Says what this window holds, and keeps saying it while it holds anything; then removes the files of windows gone a day. */
  async beat(): Promise<void> {
    const now = await this.said();
    await this.forget(now);
  }

  /**
   * `beat`, resolving once this window's own file is written: what waits on it (a send, whose
   * claim another window must find holding) does not wait for the other windows' files to be
   * read, which only tidies the folder and is done after.
   */
  private async say(): Promise<void> {
    const now = await this.said();
    void this.forget(now).catch(() => undefined);
  }

  private async said(): Promise<number> {
    const holds = this.editing.length > 0 || this.sending.size > 0;
    if (holds && !this.timer) {
      this.timer = setInterval(() => void this.beat(), BEAT_MS);
      // A timer alone must not keep a process alive (the unit tests' node).
      (this.timer as { unref?: () => void }).unref?.();
    }
    if (!holds) this.stopTimer();
    const now = Date.now();
    await this.write({ at: holds ? now : 0, editing: [...this.editing], sending: [...this.sending] });
    return now;
  }

  /** Removes the files of windows that said nothing for a day (closed or crashed). */
  private async forget(now: number): Promise<void> {
    for (const { window, beat } of await this.others())
      if (now - beat.at > FORGET_MS) await this.folder.remove(window + SUFFIX).catch(() => undefined);
  }

  private write(beat: Beat): Promise<void> {
    const written = this.writes.then(() => this.folder.write(this.window + SUFFIX, JSON.stringify(beat)));
    // One failed write (a full disk) must not stop the later ones.
    this.writes = written.catch(() => undefined);
    return written;
  }

  private async others(): Promise<{ window: string; beat: Beat }[]> {
    const names = (await this.folder.names()).filter((name) => name.endsWith(SUFFIX) && name !== this.window + SUFFIX);
    const read = await Promise.all(
      names.map(async (name) => ({ window: name.slice(0, -SUFFIX.length), beat: parseBeat(await this.folder.read(name)) })),
    );
    return read.flatMap(({ window, beat }) => (beat ? [{ window, beat }] : []));
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function parseBeat(file: { text: string; mtime: number } | undefined): Beat | undefined {
  if (file === undefined) return undefined;
  let beat: Partial<Beat> | null = null;
  try {
    beat = JSON.parse(file.text) as Partial<Beat> | null;
  } catch {
    // Being written now (a write is not atomic), or cut by a crash: alive as of that write, holding what cannot be read.
  }
  if (!beat || typeof beat.at !== 'number') return { at: file.mtime, editing: [], sending: [] };
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : []);
  return { at: beat.at, closed: beat.closed === true, editing: ids(beat.editing), sending: ids(beat.sending) };
}

/** Said within `GONE_MS`, and not from a time that has not come (a clock set back, or a file written by hand). */
function alive(beat: Beat, now: number): boolean {
  return beat.at > 0 && Math.abs(now - beat.at) < GONE_MS;
}
