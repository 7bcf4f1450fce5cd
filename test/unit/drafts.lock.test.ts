import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DraftStore } from '../../src/drafts/drafts';
import { MemoryFolder, memoryState } from './memoryState';

/** A folder that remembers every name a file was made or written under. */
class Named extends MemoryFolder {
  readonly named: string[] = [];
  override create(name: string, text: string): Promise<boolean> {
    this.named.push(name);
    return super.create(name, text);
  }
  override write(name: string, text: string): Promise<void> {
    this.named.push(name);
    return super.write(name, text);
  }
}

describe('DraftStore: the lock a save holds on a draft', () => {
  it("a save to an id that is not a draft's makes no file, not even its lock for a moment", async () => {
    const folder = new Named();
    const store = new DraftStore(memoryState(), folder, new MemoryFolder());
    await store.ready;
    await assert.rejects(store.update('../outside', 'Text\n'), /FileNotFound/);
    assert.deepEqual(folder.named, []);
    store.dispose();
  });
});
