import type { Memento } from './fakeVscode';

/** A global state in memory, as a window's `Memento` holds it (values copied in and out). */
export function memoryState(): Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (structuredClone(data.get(key)) as T) : fallback),
    update: async (key: string, value: unknown) => void (value === undefined ? data.delete(key) : data.set(key, structuredClone(value))),
  };
}
