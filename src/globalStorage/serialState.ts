// The extension's global state, written one update at a time. No vscode import.
//
// VS Code's extension host keeps an extension's global state as one object and sends the whole
// object to the window at each write (flushed a tick after `update`); the window stores it and
// sends the stored object back to the extension host, which takes it as its state. An answer of
// an earlier write that comes back after a later `update` put the state back to what it was
// before that update, and the flush of the later one then stores that: the later write is lost.
// (The window's storage tells every change, its own writes' too, to the extension host: see
// MainThreadStorage and ExtensionMemento.) Two modules writing their keys a moment apart (the
// post just filed, noted by the list knowledge and then by the identity) lost the identity's
// note this way, so that a post filed from VS Code was news to the one who filed it.
//
// Here each update waits until the one before was stored (its answer, which comes after the
// stored object sent back); what is waiting is read as written, so that a read-modify-write
// of a key sees the writes before it.

/** The part of VS Code's `Memento` this extension uses. */
export interface StateStore {
  keys(): readonly string[];
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

export class SerialState implements StateStore {
  /** Values waiting for their update, by key: the last one given. */
  private readonly waiting = new Map<string, { value: unknown }>();
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly state: StateStore) {}

  keys(): readonly string[] {
    const keys = new Set(this.state.keys());
    for (const [key, { value }] of this.waiting) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const waiting = this.waiting.get(key);
    if (!waiting) {
      const value = this.state.get<T>(key);
      return value === undefined ? defaultValue : value;
    }
    // A copy, as the state gives: the caller may change what it read.
    return waiting.value === undefined ? defaultValue : (structuredClone(waiting.value) as T);
  }

  update(key: string, value: unknown): Promise<void> {
    const entry = { value: value === undefined ? undefined : structuredClone(value) };
    this.waiting.set(key, entry);
    const done = this.last.then(() => this.state.update(key, entry.value));
    // The next update waits for this one, whether or not it failed.
    this.last = done.then(
      () => undefined,
      () => undefined,
    );
    return done.finally(() => {
      if (this.waiting.get(key) === entry) this.waiting.delete(key);
    });
  }
}
