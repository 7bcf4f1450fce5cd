/** Saving the store to a JSON data file and loading it back. */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { StoreSnapshot } from './records';
import { Store } from './store';

/** The store saved in the file, or undefined when there is no file yet. */
export function loadStore(file: string): Store | undefined {
  if (!existsSync(file)) return undefined;
  let snapshot: StoreSnapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as StoreSnapshot;
  } catch (error) {
    throw new Error(`Cannot read the stand-in data file ${file}: ${(error as Error).message}`, { cause: error });
  }
  return Store.fromJSON(snapshot);
}

/**
 * Writes the whole store atomically: to a temporary file beside the target, then renamed over
 * it, so a reader never sees a half-written file.
 */
export function saveStore(store: Store, file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(store.toJSON()));
  renameSync(temporary, file);
}

/** Saves now and after every later change. Returns a function that stops saving. */
export function persist(store: Store, file: string): () => void {
  saveStore(store, file);
  return store.onChange(() => saveStore(store, file));
}
