/**
 * Whether a window is awake for the news watcher: a window unfocused for long polls no more, and
 * catches up when it is focused again. Told of focus changes, and asked with the time; no vscode
 * import, so that it can be tested without a window.
 */
export class Wakefulness {
  private focused: boolean;
  private lastFocused: number;

  constructor(
    focused: boolean,
    now: number,
    /** Unfocused this long (ms), the window sleeps. */
    private readonly after: number,
  ) {
    this.focused = focused;
    this.lastFocused = now;
  }

  /** The window gained or lost focus at `now`. */
  focusChanged(focused: boolean, now: number): void {
    this.focused = focused;
    if (focused) this.lastFocused = now;
  }

  /** Whether the window sleeps at `now`. */
  asleep(now: number): boolean {
    return !this.focused && now - this.lastFocused > this.after;
  }
}
