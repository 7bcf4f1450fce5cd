import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DraftStore, type Draft, type TodoOrigin } from '../../src/drafts/drafts';
import { UnsentDraftsOffer } from '../../src/drafts/draftCommands';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { fake, type Memento } from './fakeVscode';
import { MemoryFolder } from './memoryState';

/**
 * The extension's global state as VS Code keeps it: one storage for every window, and in each
 * window a copy that hears of the other windows' writes only later (`sync`).
 */
class SharedStorage {
  readonly data = new Map<string, unknown>();
  /** The folder where the windows say what each holds. */
  folder = new MemoryFolder();
  /** The folder of the drafts. */
  drafts = new MemoryFolder();
  window(): WindowState {
    return new WindowState(this);
  }
}

class WindowState implements Memento {
  private view: Map<string, unknown>;
  constructor(private readonly storage: SharedStorage) {
    this.view = structuredClone(storage.data);
  }
  keys(): readonly string[] {
    return [...this.view.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.view.has(key) ? structuredClone(this.view.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Promise<void> {
    for (const map of [this.view, this.storage.data]) {
      if (value === undefined) map.delete(key);
      else map.set(key, structuredClone(value));
    }
    return Promise.resolve();
  }
  /** The other windows' writes reach this one. */
  sync(): void {
    this.view = structuredClone(this.storage.data);
  }
}

/** A window's store, once it has read the drafts. */
async function opened(storage: SharedStorage, window: Memento = storage.window()): Promise<DraftStore> {
  const drafts = new DraftStore(window, storage.drafts, storage.folder);
  await drafts.ready;
  return drafts;
}

const fields = (text: string): Omit<Draft, 'id' | 'createdAt' | 'updatedAt'> => ({
  kind: 'task',
  text,
  accountUrl: 'https://acme.example.com',
});

describe('DraftStore', () => {
  let storage: SharedStorage;
  beforeEach(() => {
    storage = new SharedStorage();
  });

  it('keeps what it is given, and gives it back by id', async () => {
    const drafts = await opened(storage);
    const draft = await drafts.create(fields('Title\n\nBody\n'));
    assert.equal(drafts.get(draft.id)?.text, 'Title\n\nBody\n');
    await drafts.update(draft.id, 'New title\n');
    assert.equal(drafts.get(draft.id)?.text, 'New title\n');
    await drafts.setUnconfirmed(draft.id, { ref: 'hb-0123456789', newestPostId: 12 });
    assert.deepEqual(drafts.get(draft.id)?.unconfirmed, { ref: 'hb-0123456789', newestPostId: 12 });
    await drafts.remove(draft.id);
    assert.equal(drafts.get(draft.id), undefined);
    assert.deepEqual(drafts.all(), []);
  });

  it('two windows that save drafts at the same time keep both', async () => {
    const a = storage.window();
    const b = storage.window();
    const first = await (await opened(storage, a)).create(fields('From window A\n'));
    const second = await (await opened(storage, b)).create(fields('From window B\n'));
    a.sync();
    b.sync();
    for (const window of [a, b]) {
      assert.deepEqual(
        (await opened(storage, window))
          .all()
          .map((d) => d.id)
          .sort(),
        [first.id, second.id].sort(),
      );
    }
  });

  it('an edit in one window and a removal in another both hold', async () => {
    const a = storage.window();
    const inA = await opened(storage, a);
    const kept = await inA.create(fields('Kept\n'));
    const sent = await inA.create(fields('Sent\n'));
    const b = storage.window();
    await inA.update(kept.id, 'Kept, edited in A\n');
    await (await opened(storage, b)).remove(sent.id);
    const everywhere = (await opened(storage)).all();
    assert.deepEqual(
      everywhere.map((d) => [d.id, d.text]),
      [[kept.id, 'Kept, edited in A\n']],
    );
  });

  it('a save or a removal against the text this window last saw is refused when another window saved since, even once this window has read it', async () => {
    const inA = await opened(storage, storage.window());
    const inB = await opened(storage, storage.window());
    const draft = await inA.create(fields('First\n'));
    await inB.read(draft.id);
    await inB.update(draft.id, 'Saved in B\n');
    await inA.read(draft.id); // A's copy follows B's file, as its watcher makes it
    assert.equal(await inA.update(draft.id, 'Typed in A\n', { ifText: 'First\n' }), false);
    assert.equal(await inA.remove(draft.id, { ifText: 'First\n' }), false);
    assert.equal((await (await opened(storage)).read(draft.id))?.text, 'Saved in B\n');
    assert.equal(await inA.update(draft.id, 'Typed in A\n', { ifText: 'Saved in B\n' }), true);
    assert.equal((await (await opened(storage)).read(draft.id))?.text, 'Typed in A\n');
  });

  it('a removal against the text last seen waits for another window’s save under way, and then keeps it', async () => {
    const inA = await opened(storage, storage.window());
    const draft = await inA.create(fields('First\n'));
    // Another window holds the draft's lock while it saves (see DraftStore.locked).
    assert.equal(await storage.drafts.create(`${draft.id}.lock`, 'window B'), true);
    const removing = inA.remove(draft.id, { ifText: 'First\n' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const file = `${draft.id}.json`;
    const saved = JSON.parse((await storage.drafts.read(file))!.text) as Draft;
    await storage.drafts.write(file, JSON.stringify({ ...saved, text: 'Saved in B\n', updatedAt: saved.updatedAt + 1 }));
    await storage.drafts.remove(`${draft.id}.lock`);
    assert.equal(await removing, false);
    assert.equal((await (await opened(storage)).read(draft.id))?.text, 'Saved in B\n');
  });

  it('tells which draft changed', async () => {
    const drafts = await opened(storage);
    const changed: string[] = [];
    drafts.onDidChange((id) => changed.push(id));
    const draft = await drafts.create(fields('x\n'));
    await drafts.update(draft.id, 'y\n');
    await drafts.remove(draft.id);
    assert.deepEqual(changed, [draft.id, draft.id, draft.id]);
  });

  it('an edit of a draft another window sent fails as "not found"; a note about it does nothing', async () => {
    const a = storage.window();
    const draft = await (await opened(storage, a)).create(fields('x\n'));
    const b = storage.window();
    await (await opened(storage, b)).remove(draft.id);
    a.sync();
    const inA = await opened(storage, a);
    await assert.rejects(inA.update(draft.id, 'y\n'), /FileNotFound/);
    await inA.setUnconfirmed(draft.id, { ref: 'hb-0123456789' });
    assert.deepEqual(inA.all(), []);
  });

  it("finds the task from a TODO comment by its document and its line's text, in every window, until it is filed", async () => {
    const todo: TodoOrigin = { uri: 'file:///src/a.ts', line: 4, lineText: '  // TODO: handle errors', version: 3, opened: 'w1.1' };
    const a = storage.window();
    const inA = await opened(storage, a);
    const task = await inA.create({ ...fields('Handle errors\n'), todo });
    await inA.create({ ...fields('Other\n'), todo: { ...todo, lineText: '  // TODO: other' } });
    assert.equal(inA.taskFromComment('file:///src/a.ts', '  // TODO: handle errors')?.id, task.id);
    assert.equal(
      (await opened(storage)).taskFromComment('file:///src/a.ts', '  // TODO: handle errors')?.id,
      task.id,
      'another window sees it too',
    );
    assert.equal(inA.taskFromComment('file:///src/b.ts', '  // TODO: handle errors'), undefined, 'another document');
    assert.equal(inA.taskFromComment('file:///src/a.ts', '  // TODO: handle errors!'), undefined, 'a comment changed since');
    await inA.remove(task.id);
    assert.equal(inA.taskFromComment('file:///src/a.ts', '  // TODO: handle errors'), undefined, 'filed');
  });

  it("a draft is being sent while a window's claim on it holds, this window's too", async () => {
    const a = storage.window();
    const inA = await opened(storage, a);
    const draft = await inA.create(fields('x\n'));
    assert.equal(await inA.isBeingSent(inA.get(draft.id)!), false);
    assert.equal((await inA.claim(draft.id)).taken, true);
    const claimed = inA.get(draft.id)!;
    assert.equal(await inA.isBeingSent(claimed), true);
    const b = storage.window();
    const inB = await opened(storage, b);
    assert.equal(await inB.isBeingSent(inB.get(draft.id)!), true, 'in another window too');
    const refused = await inB.claim(draft.id);
    assert.equal(refused.taken, false, 'another window leaves it alone meanwhile');
    assert.equal(!refused.taken && refused.freeWithinMs, 30_000, 'for at most the half minute a window that went silent holds it');
    await inA.release(draft.id);
    assert.equal(await inA.isBeingSent(inA.get(draft.id)!), false);
  });

  it('a draft made to be sent at once is written claimed, in one write, once its window says it is sending it', async () => {
    const a = storage.window();
    const inA = await opened(storage, a);
    const writes: string[] = [];
    const write = storage.drafts.write.bind(storage.drafts);
    storage.drafts.write = (name: string, text: string) => {
      // What another window would find at this moment: the window's file says it is sending the draft.
      const sending = [...storage.folder.files.values()].some((file) =>
        (JSON.parse(file.text) as { sending: string[] }).sending.includes((JSON.parse(text) as Draft).id),
      );
      writes.push(`${name.endsWith('.json') ? 'draft' : name}${sending ? ' (window says sending)' : ''}`);
      return write(name, text);
    };
    const draft = await inA.create(fields('Sent at once\n'), { claimed: true });
    assert.deepEqual(writes, ['draft (window says sending)'], 'one write, after the window said it is sending it');
    const b = storage.window();
    const inB = await opened(storage, b);
    assert.equal((await inB.claim(draft.id)).taken, false, 'another window leaves it alone from the start');
    assert.equal((await inA.claim(draft.id)).taken, true, 'its own window sends it');
    assert.deepEqual(writes, ['draft (window says sending)'], 'without writing the claim again');
    await inA.release(draft.id);
    assert.equal(await inA.isBeingSent(inA.get(draft.id)!), false, 'released as any claim');
    b.sync();
    assert.equal((await inB.claim(draft.id)).taken, true, 'then free for another window');
  });

  it('a draft made to be sent at once waits for its window to say so, not for the files of windows gone a day to be looked through', async () => {
    const inA = await opened(storage);
    // The other windows' files, read after the window's own file is written (to remove those a day old), never come.
    const names = storage.folder.names.bind(storage.folder);
    let listed = 0;
    storage.folder.names = () => (listed++, new Promise<string[]>(() => undefined));
    const created = inA.create(fields('Sent at once\n'), { claimed: true });
    const draft = await Promise.race([created, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500))]);
    assert.ok(draft, 'saved, claimed, while the look through the other windows was still under way');
    assert.equal(listed, 1, 'that look had started');
    assert.equal(inA.presence.isSending(draft.id), true);
    storage.folder.names = names;
    const inB = await opened(storage);
    assert.equal((await inB.claim(draft.id)).taken, false, 'another window leaves it alone: the window said it is sending it');
  });

  it('ignores what is not a draft, and lists drafts oldest first', async () => {
    const window = storage.window();
    const drafts = await opened(storage, window);
    const first = await drafts.create(fields('first\n'));
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = await drafts.create(fields('second\n'));
    await storage.drafts.write('broken.json', JSON.stringify({ id: 'broken', text: 7 }));
    await storage.drafts.write('somethingElse.txt', JSON.stringify({ id: 'x', text: 'y', kind: 'task', accountUrl: 'z' }));
    await drafts.refresh();
    assert.deepEqual(
      drafts.all().map((d) => d.id),
      [first.id, second.id],
    );
  });

  it('drafts saved by an earlier version (one list) are kept and moved to one entry each', async () => {
    const old: Draft[] = [
      { id: 'task-a', kind: 'task', text: 'Old one\n', accountUrl: 'https://acme.example.com', createdAt: 1, updatedAt: 1 },
      { id: 'bug-b', kind: 'bug', text: 'Old two\n', accountUrl: 'https://acme.example.com', createdAt: 2, updatedAt: 2 },
    ];
    storage.data.set('helpdesk.drafts', old);
    const window = storage.window();
    const drafts = await opened(storage, window);
    assert.deepEqual(
      drafts.all().map((d) => d.id),
      ['task-a', 'bug-b'],
    );
    assert.equal(storage.data.has('helpdesk.drafts'), false, 'the old list is gone');
    assert.deepEqual(
      (await opened(storage)).all().map((d) => d.text),
      ['Old one\n', 'Old two\n'],
    );
  });

  it('a draft sent here stays gone though a window of the earlier version wrote the old list again', async () => {
    const window = storage.window();
    const drafts = await opened(storage, window);
    const draft = await drafts.create(fields('Sent here\n'));
    // A window not yet reloaded after the update rewrites the list it knows, with this draft in it.
    await window.update('helpdesk.drafts', [drafts.get(draft.id)]);
    await drafts.remove(draft.id);
    assert.deepEqual(drafts.all(), []);
    assert.deepEqual((await opened(storage)).all(), [], 'and in a new window');
  });
});

describe('DraftStore: claims across windows last as long as the window that holds them', () => {
  let storage: SharedStorage;
  const draftFields = { kind: 'task' as const, text: 'Claimed\n', accountUrl: 'https://acme.example.com' };
  beforeEach(() => {
    storage = new SharedStorage();
    mock.timers.enable({ apis: ['Date', 'setInterval', 'setTimeout'], now: 1_800_000_000_000 });
  });
  afterEach(() => mock.timers.reset());

  /** Lets time pass, a second at a time, and lets each window's writes and reads land. */
  const pass = async (ms: number) => {
    for (let t = 0; t < ms; t += 1000) {
      mock.timers.tick(1000);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** A person who answers an offer with `choice` (and is sure), after `meanwhile` happened. */
  const person = (choice: string, meanwhile: () => Promise<void> = async () => undefined) => {
    const asked: string[] = [];
    const ui = {
      info: async (text: string) => {
        asked.push(text);
        await meanwhile();
        return choice;
      },
      warn: async () => 'Discard',
    };
    return { asked, ui: ui as unknown as Notifier };
  };

  it('a send that outlives two minutes (a slow service, a question left open) keeps its claim while its window is open', async () => {
    const one = storage.window();
    const sending = await opened(storage, one);
    const draft = await sending.create(draftFields);
    assert.ok((await sending.claim(draft.id)).taken);
    await pass(5 * 60_000);
    const other = storage.window();
    assert.equal((await (await opened(storage, other)).claim(draft.id)).taken, false, 'the other window leaves it');
    assert.ok(await (await opened(storage)).heldElsewhere(draft.id));
    sending.dispose();
  });

  it('a window that crashed mid-send holds the draft for at most 30 s, not two minutes', async () => {
    const crashed = await opened(storage);
    const draft = await crashed.create(draftFields);
    assert.ok((await crashed.claim(draft.id)).taken);
    // What the crashed window left in the shared state; it writes nothing more.
    const left = new SharedStorage();
    for (const [key, value] of storage.data) left.data.set(key, structuredClone(value));
    left.folder = storage.folder.copy();
    left.drafts = storage.drafts.copy();
    crashed.dispose();
    await pass(10_000);
    assert.equal((await (await opened(left)).claim(draft.id)).taken, false, 'ten seconds on: it may still be sending');
    await pass(25_000);
    assert.ok((await (await opened(left)).claim(draft.id)).taken, '35 s on: free again');
  });

  it('a draft another open window is editing is held there; once that window closes, it is not', async () => {
    const editing = await opened(storage);
    const draft = await editing.create(draftFields);
    await editing.presence.setEditing([draft.id]);
    await pass(60_000);
    const other = await opened(storage);
    assert.ok(await other.heldElsewhere(draft.id), 'held while that window beats');
    assert.equal(await editing.heldElsewhere(draft.id), false, 'not elsewhere for the window that holds it');
    editing.dispose();
    await Promise.resolve();
    assert.equal(await (await opened(storage)).heldElsewhere(draft.id), false, 'closed: free');
  });

  it('a draft to be sent at once is saved even when its window cannot say it is sending it (a full disk)', async () => {
    storage.folder.write = () => Promise.reject(new Error('ENOSPC'));
    const drafts = await opened(storage);
    await assert.rejects(drafts.create(fields('Typed with care\nA long body\n'), { claimed: true }), /ENOSPC/, 'the failure is said');
    assert.deepEqual(
      drafts.all().map((d) => [d.text, d.sending]),
      [['Typed with care\nA long body\n', undefined]],
      'what was typed is saved, and claimed by nobody',
    );
  });

  it('a draft left with the marker of an attempt is offered as one that may have been filed, not as one never sent', async () => {
    const before = await opened(storage);
    const draft = await before.create(fields('Answered, then the window closed\n'));
    await before.setUnconfirmed(draft.id, { ref: 'hb-0123456789', sentText: draft.text, markerAtHead: true });
    fake.reset();
    const reloaded = await opened(storage);
    await new UnsentDraftsOffer({ drafts: reloaded, sender: {} as never, ui: new Notifier(new Log()) }, async () => undefined).offer();
    assert.deepEqual(
      fake.messages.map((m) => m.text),
      [
        'A helpdesk draft may have been filed already: "Answered, then the window closed" (task). Send looks for it on the helpdesk first, and files it only if it is not there.',
      ],
    );
  });

  it('after a reload, a window offers only the drafts no other open window is editing or sending', async () => {
    const editing = await opened(storage);
    const open = await editing.create({ ...draftFields, text: 'Being written\n' });
    await editing.create({ ...draftFields, text: 'Left from before\n' });
    await editing.presence.setEditing([open.id]);
    fake.reset();
    const reloaded = await opened(storage);
    await new UnsentDraftsOffer({ drafts: reloaded, sender: {} as never, ui: new Notifier(new Log()) }, async () => undefined).offer();
    assert.deepEqual(
      fake.messages.map((m) => m.text),
      ['A helpdesk draft was not sent: "Left from before" (task).'],
    );
    editing.dispose();
  });

  it('a window that holds drafts says so in a file of its own, never in the global state every window rewrites whole', async () => {
    const editing = await opened(storage);
    const draft = await editing.create(draftFields);
    await editing.presence.setEditing([draft.id]);
    await pass(60_000);
    assert.deepEqual(
      [...storage.data.keys()].filter((key) => !key.startsWith('helpdesk.draft:')),
      [],
      'nothing but the draft in the global state',
    );
    assert.equal(storage.folder.files.size, 1, "one file, this window's");
    assert.ok(await (await opened(storage)).heldElsewhere(draft.id), 'which the other windows read');
    editing.dispose();
  });

  it('a beat dated in the future (a clock set back) is not a window alive', async () => {
    const drafts = await opened(storage);
    const draft = await drafts.create(draftFields);
    const later = Date.now() + 10 * 60_000;
    await storage.folder.write('ahead.json', JSON.stringify({ at: later, editing: [draft.id], sending: [draft.id] }));
    await storage.drafts.write(
      `${draft.id}.json`,
      JSON.stringify({ ...drafts.get(draft.id), sending: { by: 'ahead', since: Date.now() - 5 * 60_000 } }),
    );
    const other = await opened(storage);
    assert.equal(await other.heldElsewhere(draft.id), false);
    assert.ok((await other.claim(draft.id)).taken, 'its claim does not hold');
  });

  it('a window half-way through writing its file is alive, and one whose file was cut by a crash is gone after 30 s', async () => {
    const drafts = await opened(storage);
    const draft = await drafts.create(draftFields);
    await storage.folder.write('cut.json', '{"at": 18');
    await storage.drafts.write(`${draft.id}.json`, JSON.stringify({ ...drafts.get(draft.id), sending: { by: 'cut', since: Date.now() } }));
    assert.equal((await (await opened(storage)).claim(draft.id)).taken, false, 'may be sending');
    await pass(31_000);
    assert.ok((await (await opened(storage)).claim(draft.id)).taken, 'silent since: gone');
  });

  it('Discard, answered after another window opened the draft, leaves that draft to it', async () => {
    const reloaded = await opened(storage);
    const draft = await reloaded.create(draftFields);
    const editing = await opened(storage);
    const { asked, ui } = person('Discard', () => editing.presence.setEditing([draft.id]));
    await new UnsentDraftsOffer({ drafts: reloaded, sender: {} as never, ui }, async () => undefined).offer();
    assert.equal(asked.length, 1, 'offered while no window held it');
    assert.ok(reloaded.get(draft.id), 'kept: the other window shows it now');
    editing.dispose();
  });

  it('a draft left out because another window was editing it is offered once that window crashed, not when it only closed the editor', async () => {
    const crashing = await opened(storage);
    const stranded = await crashing.create({ ...draftFields, text: 'Stranded\n' });
    const keeping = await opened(storage);
    const kept = await keeping.create({ ...draftFields, text: 'Kept for later\n' });
    await crashing.presence.setEditing([stranded.id]);
    await keeping.presence.setEditing([kept.id]);
    const reloaded = await opened(storage);
    const { asked, ui } = person('Keep');
    const offer = new UnsentDraftsOffer({ drafts: reloaded, sender: {} as never, ui }, async () => undefined);
    await offer.offer();
    assert.deepEqual(asked, [], 'both held elsewhere');
    // One window crashes (its beats stop); the other closes the draft's editor and goes on.
    crashing.presence['stopTimer']();
    await keeping.presence.setEditing([]);
    await pass(65_000);
    assert.deepEqual(asked, ['A helpdesk draft was not sent: "Stranded" (task).']);
    offer.dispose();
    keeping.dispose();
  });

  it('an idle window writes nothing', async () => {
    const drafts = await opened(storage);
    await drafts.create(draftFields);
    const before = [...storage.data.keys()];
    await pass(60_000);
    assert.deepEqual([...storage.data.keys()], before);
    assert.ok(!before.some((key) => key.startsWith('helpdesk.window:')));
  });
});
