import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { draftFolder } from '../../src/drafts/draftFolders';
import { DraftStore, type Draft, type DraftFolder } from '../../src/drafts/drafts';
import type { PresenceFolder } from '../../src/drafts/windowPresence';
import { Uri, type Memento } from './fakeVscode';
import { MemoryFolder } from './memoryState';

/**
 * Windows of one VS Code on one drafts folder on disk: a folder made for each test of the
 * describe() that calls this (handed to `take`), and removed after it, once every window opened
 * in it is disposed. Returns how a window opens: its own copy of the global state, the drafts
 * folder on disk (or `folder`), a windows' folder of its own (or `presence`).
 */
export function draftWindowsOnDisk(prefix: string, take: (root: string) => void) {
  let root = '';
  const stores: DraftStore[] = [];
  beforeEach(async () => take((root = await mkdtemp(join(tmpdir(), prefix)))));
  afterEach(async () => {
    for (const store of stores.splice(0)) store.dispose();
    await rm(root, { recursive: true, force: true });
  });
  return async (
    state: Memento,
    folder: DraftFolder = draftFolder(Uri.file(root) as never),
    presence: PresenceFolder = new MemoryFolder(),
  ) => {
    const store = new DraftStore(state, folder, presence);
    stores.push(store);
    await store.ready;
    return store;
  };
}

/** A task's draft of acme, as kept (`createdAt` and `updatedAt` alike). */
export const draft = (id: string, text: string, createdAt = 1): Draft => ({
  id,
  kind: 'task',
  text,
  accountUrl: 'https://acme.example.com',
  createdAt,
  updatedAt: createdAt,
});

/** What a new task's draft of acme is made from. */
export const fields = (text: string) => ({ kind: 'task' as const, text, accountUrl: 'https://acme.example.com' });
