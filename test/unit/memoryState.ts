import { EventEmitter, type Memento } from './fakeVscode';
import type { DraftFolder } from '../../src/drafts/drafts';

/** A global state in memory, as a window's `Memento` holds it (values copied in and out). */
export function memoryState(): Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (structuredClone(data.get(key)) as T) : fallback),
    update: async (key: string, value: unknown) => void (value === undefined ? data.delete(key) : data.set(key, structuredClone(value))),
  };
}

/** A folder the windows of one test share (see WindowPresence, DraftStore), in memory; it tells of each write a moment later, as a watcher does. */
export class MemoryFolder implements DraftFolder {
  readonly files = new Map<string, { text: string; mtime: number }>();
  private readonly changed = new EventEmitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  names(): Promise<string[]> {
    return Promise.resolve([...this.files.keys()]);
  }
  read(name: string): Promise<{ text: string; mtime: number } | undefined> {
    return Promise.resolve(this.files.get(name));
  }
  write(name: string, text: string): Promise<void> {
    this.files.set(name, { text, mtime: Date.now() });
    this.heard(name);
    return Promise.resolve();
  }
  create(name: string, text: string): Promise<boolean> {
    if (this.files.has(name)) return Promise.resolve(false);
    return this.write(name, text).then(() => true);
  }
  remove(name: string): Promise<void> {
    this.files.delete(name);
    this.heard(name);
    return Promise.resolve();
  }
  /** What is in it now, as another folder that later writes do not reach. */
  copy(): MemoryFolder {
    const copy = new MemoryFolder();
    for (const [name, file] of this.files) copy.files.set(name, { ...file });
    return copy;
  }
  private heard(name: string): void {
    queueMicrotask(() => this.changed.fire(name));
  }
}

/** The addresses signed in to, in memory (the test double of AccountList). */
export class MemoryAccountList {
  addresses: string[] = [];
  /** Fire to say another window changed the list. */
  readonly changed = new EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  async all(): Promise<readonly string[]> {
    return this.addresses;
  }
  async add(accountUrl: string): Promise<void> {
    if (!this.addresses.includes(accountUrl)) this.addresses.push(accountUrl);
  }
  async remove(accountUrl: string): Promise<void> {
    this.addresses = this.addresses.filter((a) => a !== accountUrl);
  }
}
