import type { KnowledgeState } from '../../src/gateway/listKnowledge';

/** A global state in memory, as a window's `Memento` would hold it (values copied in and out). */
export function memoryState(): KnowledgeState & { keys(): string[] } {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string) => structuredClone(data.get(key)) as T | undefined,
    update: async (key, value) => void (value === undefined ? data.delete(key) : data.set(key, structuredClone(value))),
  };
}
