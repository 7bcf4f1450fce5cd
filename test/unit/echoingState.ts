import type { StateStore } from '../../src/globalStorage/serialState';

/**
 * An extension's global state as VS Code keeps it (ExtensionMemento in the extension host,
 * MainThreadStorage in the window): the extension host holds one object; `update` changes it and
 * schedules a flush a tick later that sends the whole object to the window; the window stores it,
 * tells the extension host the stored object (every change, its own writes' too), then answers.
 * Messages each way wait in order until the test delivers them (`toWindow`, `toHost`).
 */
export class EchoingState implements StateStore {
  /** The extension host's object. */
  private host: Record<string, unknown> = {};
  /** What the window stored. */
  stored = '{}';
  private flushing: ReturnType<typeof setTimeout> | undefined;
  private waiting: { resolve: () => void }[] = [];
  private readonly toWindowQueue: (() => void)[] = [];
  private readonly toHostQueue: (() => void)[] = [];

  keys(): readonly string[] {
    return Object.keys(this.host).filter((key) => this.host[key] !== undefined);
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.host[key] as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    this.host[key] = value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
    const done = new Promise<void>((resolve) => this.waiting.push({ resolve }));
    this.flushing ??= setTimeout(() => this.flush(), 0);
    return done;
  }

  /** Delivers what the extension host sent the window so far. */
  toWindow(): void {
    for (const message of this.toWindowQueue.splice(0)) message();
  }

  /** Delivers what the window sent the extension host so far. */
  toHost(): void {
    for (const message of this.toHostQueue.splice(0)) message();
  }

  private flush(): void {
    this.flushing = undefined;
    const sent = JSON.stringify(this.host);
    const answered = this.waiting.splice(0);
    this.toWindowQueue.push(() => {
      this.stored = sent;
      // The stored object, told back before the answer.
      this.toHostQueue.push(() => void (this.host = JSON.parse(sent) as Record<string, unknown>));
      this.toHostQueue.push(() => answered.forEach((w) => w.resolve()));
    });
  }
}
