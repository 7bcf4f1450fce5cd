/**
 * Whether a window is awake for the news watcher: a window unfocused for long polls no more, and
 * catches up when it is focused again. The time counts from when the window lost focus (or from
 * its start, unfocused), however long it was focused before. Told of focus changes, and asked
 * with the time; no vscode import, so that it can be tested without a window.
 */
export class Wakefulness {
  /** When the window lost focus; undefined while it has it. */
  private unfocusedSince: number | undefined;

  constructor(
    focused: boolean,
    now: number,
    /** Unfocused this long (ms), the window sleeps. */
    private readonly after: number,
  ) {
    this.unfocusedSince = focused ? undefined : now;
  }

  /** The window's state changed at `now` (the editor also tells of changes that keep the focus as it was). */
  focusChanged(focused: boolean, now: number): void {
    if (focused) this.unfocusedSince = undefined;
    else this.unfocusedSince ??= now;
  }

  /** Whether the window sleeps at `now`. */
  asleep(now: number): boolean {
    return this.unfocusedSince !== undefined && now - this.unfocusedSince > this.after;
  }
}
