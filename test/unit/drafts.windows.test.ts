import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { DraftStore, type DraftFolder } from '../../src/drafts/drafts';
import { draftFolder } from '../../src/drafts/draftFolders';
import { Disposable, EventEmitter, fake, Uri, type Memento } from './fakeVscode';
import { MemoryFolder } from './memoryState';
import { draft, draftWindowsOnDisk, fields } from './draftWindows';

/**
 * VS Code's global state as it keeps it: one value per extension, which a window writes whole
 * (its own copy, with the key changed) and the other windows hear of a moment later. Two windows
 * that write before hearing of each other keep only the last one's copy.
 */
class WholeValueStorage {
  value: Record<string, unknown> = {};
  private readonly windows: WholeValueWindow[] = [];
  window(): WholeValueWindow {
    const window = new WholeValueWindow(this, (written) =>
      setImmediate(() => this.windows.forEach((w) => w !== window && w.heard(written))),
    );
    this.windows.push(window);
    return window;
  }
}

class WholeValueWindow implements Memento {
  private view: Record<string, unknown>;
  constructor(
    private readonly storage: WholeValueStorage,
    private readonly tell: (written: Record<string, unknown>) => void,
  ) {
    this.view = structuredClone(storage.value);
  }
  keys(): readonly string[] {
    return Object.keys(this.view);
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return key in this.view ? structuredClone(this.view[key] as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) delete this.view[key];
    else this.view[key] = structuredClone(value);
    this.storage.value = structuredClone(this.view);
    this.tell(this.storage.value);
  }
  heard(written: Record<string, unknown>): void {
    this.view = structuredClone(written);
  }
}

describe('DraftStore: windows that share one drafts folder on disk', () => {
  let root: string;
  let storage: WholeValueStorage;
  const window = draftWindowsOnDisk('drafts-', (made) => (root = made));
  /** A window: its own copy of the global state, the drafts folder on disk, the windows' folder. */
  const open = (folder?: DraftFolder, presence?: MemoryFolder) => window(storage.window(), folder, presence);
  const onDisk = async () => (await readdir(join(root, 'drafts'))).sort();

  beforeEach(() => {
    storage = new WholeValueStorage();
  });

  it('two windows that each save 50 drafts at the same moment, and edit them, lose none (the global state, written whole, lost half)', async () => {
    const [a, b] = [await open(), await open()];
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) => [a.create(fields(`A ${i}\n`)), b.create(fields(`B ${i}\n`))]).flat(),
    );
    await Promise.all(made.map((d) => (d.text.startsWith('A') ? a : b).update(d.id, `${d.text}edited\n`)));
    const fresh = await open();
    assert.deepEqual(
      fresh
        .all()
        .map((d) => d.text)
        .sort(),
      made.map((d) => `${d.text}edited\n`).sort(),
    );
    assert.deepEqual(storage.value, {}, 'nothing in the global state');
    for (const window of [a, b]) {
      await window.refresh();
      assert.equal(window.all().length, 100, "each window reads the other's");
    }
    assert.ok(
      (await onDisk()).every((name) => /^[a-z0-9-]+\.(json|gone)$/.test(name)),
      'no file left half made',
    );
  });

  it('a window hears of a draft another window saved, changed and removed', async () => {
    const [a, b] = [await open(), await open()];
    const heard: string[] = [];
    const next = () =>
      new Promise<void>((resolve) => {
        const listening = b.onDidChange((id) => {
          heard.push(id);
          listening.dispose();
          resolve();
        });
      });
    let told = next();
    const made = await a.create(fields('From A\n'));
    await told;
    assert.equal(b.get(made.id)?.text, 'From A\n');
    told = next();
    await a.update(made.id, 'Edited in A\n');
    await told;
    assert.equal(b.get(made.id)?.text, 'Edited in A\n');
    told = next();
    await a.remove(made.id);
    await told;
    assert.equal(b.get(made.id), undefined);
    assert.deepEqual(heard, [made.id, made.id, made.id]);
  });

  it('the drafts of the global state (an entry each, and the older one list) move to files once, though two windows start at once', async () => {
    storage.value = {
      'helpdesk.draft:task-a': draft('task-a', 'Entry A\n', 1),
      'helpdesk.draft:task-b': draft('task-b', 'Entry B\n', 2),
      'helpdesk.draft:broken': { id: 'broken', text: 7 },
      'helpdesk.drafts': [draft('task-a', 'Entry A, as the list had it\n', 1), draft('bug-c', 'Listed C\n', 3), null],
      'helpdesk.other': 'kept',
    };
    // Already moved by a window that then stopped half-way: its file is not written over.
    await mkdir(join(root, 'drafts'));
    await writeFile(join(root, 'drafts', 'task-b.json'), JSON.stringify(draft('task-b', 'Entry B, edited since it moved\n', 2)));
    const [a, b] = await Promise.all([open(), open()]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const window of [a, b, await open()]) {
      assert.deepEqual(
        window.all().map((d) => [d.id, d.text]),
        [
          ['task-a', 'Entry A\n'],
          ['task-b', 'Entry B, edited since it moved\n'],
          ['bug-c', 'Listed C\n'],
        ],
      );
    }
    assert.deepEqual(await onDisk(), ['bug-c.json', 'task-a.json', 'task-b.json'], 'a file each, once');
    assert.deepEqual(
      Object.keys(storage.value).sort(),
      ['helpdesk.draft:broken', 'helpdesk.other'],
      'the entries and the list are gone; what is not a draft is left alone',
    );
  });

  it('a draft sent here is not brought back by a window of the version before that writes its copy of the global state again', async () => {
    const a = await open();
    const sent = await a.create(fields('Sent here\n'));
    // That window still holds the draft as an entry, and writes its whole copy back.
    storage.value = { [`helpdesk.draft:${sent.id}`]: { ...sent }, 'helpdesk.drafts': [{ ...sent }] };
    await a.remove(sent.id);
    const reloaded = await open();
    assert.deepEqual(reloaded.all(), []);
    assert.deepEqual(storage.value, {}, 'its entries are gone');
  });

  it('forgets the marks of drafts gone a month ago, and files a crash left half-written a day ago; keeps the newer', async () => {
    const folder = join(root, 'drafts');
    await mkdir(folder);
    const files = { 'task-old.gone': 31, 'task-new.gone': 29, '.task-x.json.abc.tmp': 2, '.task-y.json.def.tmp': 0 };
    for (const [name, days] of Object.entries(files)) {
      await writeFile(join(folder, name), '');
      const when = new Date(Date.now() - days * 24 * 60 * 60_000);
      await utimes(join(folder, name), when, when);
    }
    await open();
    const deadline = Date.now() + 5000;
    while ((await onDisk()).length > 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(await onDisk(), ['.task-y.json.def.tmp', 'task-new.gone']);
  });

  it("ignores a torn file, another draft's, one too big, one of the wrong shape, a link and a folder; never throws, never writes them", async () => {
    const a = await open();
    const good = await a.create(fields('Good\n'));
    const folder = join(root, 'drafts');
    const outside = join(root, 'outside.json');
    await writeFile(outside, JSON.stringify(draft('task-linked', 'Outside\n')));
    const files: Record<string, string> = {
      'task-torn.json': JSON.stringify(draft('task-torn', 'Torn\n')).slice(0, 30),
      'task-foreign.json': JSON.stringify(draft('task-other', 'Says it is another\n')),
      'task-long.json': JSON.stringify(draft('task-long', 'x'.repeat(1_000_001))),
      'task-huge.json': JSON.stringify({ ...draft('task-huge', 'y'), pad: 'z'.repeat(9 * 1024 * 1024) }),
      'task-kind.json': JSON.stringify({ ...draft('task-kind', 'Epic\n'), kind: 'epic' }),
      'task-time.json': JSON.stringify({ ...draft('task-time', 'When\n'), createdAt: '1' }),
      'task-null.json': 'null',
      'task-list.json': '[1, 2]',
      'Task-Upper.json': JSON.stringify(draft('Task-Upper', 'Upper\n')),
      'task-sending.json': JSON.stringify({ ...draft('task-sending', 'Claimed\n'), sending: { by: 'w', since: 'soon' } }),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
    await symlink(outside, join(folder, 'task-linked.json'));
    await mkdir(join(folder, 'task-dir.json'));
    await a.refresh();
    const fresh = await open();
    for (const window of [a, fresh])
      assert.deepEqual(
        window.all().map((d) => d.id),
        [good.id],
      );
    for (const [name, text] of Object.entries(files))
      assert.equal(await readFile(join(folder, name), 'utf8'), text, `${name} left as it was`);
    await assert.rejects(a.update('task-torn', 'Mine now\n'), /FileNotFound/, 'not a draft to edit');
    await assert.rejects(
      a.create(fields('x'.repeat(1_000_001))),
      /at most 1,000,000 characters/,
      'a text over 1 MB is refused, not saved to be ignored',
    );
  });

  it("an id that is not a draft's never names a file outside the folder", async () => {
    const a = await open();
    await a.create(fields('Inside\n'));
    const before = await readdir(root);
    for (const id of ['../outside', '../../etc/passwd', '/tmp/x', 'a/../../b', '..', '', 'x'.repeat(65), 'task-ä', 'TASK-1']) {
      await assert.rejects(a.update(id, 'Text\n'), /FileNotFound/, id);
      await a.setUnconfirmed(id, { ref: 'hb-0123456789' });
      await a.remove(id);
      assert.equal((await a.claim(id)).taken, false, id);
      await a.release(id);
      assert.equal(await a.read(id), undefined);
    }
    assert.deepEqual(await readdir(root), before, 'nothing written beside the folder');
    assert.equal((await onDisk()).length, 1, 'nor in it');
  });
});

/** A folder whose changes are never heard: the watcher is late. */
class Deaf extends MemoryFolder {
  override readonly onDidChange = () => new Disposable(() => undefined);
}

describe("DraftStore: what decides reads the draft's file, not what this window heard", () => {
  it('a read of the folder begun before this window saved a draft does not put back what was there before', async () => {
    /** Reads (of what is there when asked) that wait until released. */
    class Slow extends Deaf {
      readonly held: (() => void)[] = [];
      hold = false;
      override read(name: string) {
        const now = super.read(name);
        return this.hold ? new Promise<Awaited<typeof now>>((resolve) => this.held.push(() => void now.then(resolve))) : now;
      }
    }
    const folder = new Slow();
    const a = new DraftStore(new WholeValueStorage().window(), folder, new MemoryFolder());
    const made = await a.create(fields('Before\n'));
    folder.hold = true;
    const reading = a.refresh();
    while (folder.held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    folder.hold = false;
    await a.update(made.id, 'After\n');
    for (const release of folder.held.splice(0)) release();
    await reading;
    assert.equal(a.get(made.id)?.text, 'After\n');
    a.dispose();
  });

  it('a window coming to the front reads the folder again, for a change its watcher did not hear', async () => {
    /** Hears nothing but what the window's coming to the front tells. */
    class FrontOnly extends MemoryFolder {
      readonly front = new EventEmitter<string | undefined>();
      override readonly onDidChange = this.front.event;
    }
    const drafts = new FrontOnly();
    const a = new DraftStore(new WholeValueStorage().window(), drafts, new MemoryFolder());
    const b = new DraftStore(new WholeValueStorage().window(), drafts, new MemoryFolder());
    await b.ready;
    const made = await a.create(fields('Made in A\n'));
    assert.equal(b.get(made.id), undefined, 'not heard');
    const told: string[] = [];
    b.onDidChange((id) => told.push(id));
    drafts.front.fire(undefined);
    for (let turn = 0; turn < 50 && told.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(told, [made.id]);
    assert.equal(b.get(made.id)?.text, 'Made in A\n');
    a.dispose();
    b.dispose();
  });

  it('the drafts folder tells that anything may have changed when the window comes to the front, not when it leaves', async () => {
    const root = await mkdtemp(join(tmpdir(), 'drafts-'));
    try {
      const heard: (string | undefined)[] = [];
      const listening = draftFolder(Uri.file(root) as never).onDidChange((name) => heard.push(name));
      fake.windowState.fire({ focused: false });
      fake.windowState.fire({ focused: true });
      listening.dispose();
      fake.windowState.fire({ focused: true });
      assert.deepEqual(heard, [undefined]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("a window that has not heard of another window's claim yet leaves the draft all the same", async () => {
    const drafts = new Deaf();
    const presence = new MemoryFolder();
    const a = new DraftStore(new WholeValueStorage().window(), drafts, presence);
    const made = await a.create(fields('Both offer it\n'));
    const b = new DraftStore(new WholeValueStorage().window(), drafts, presence);
    await b.ready;
    assert.ok((await a.claim(made.id)).taken);
    assert.equal(b.get(made.id)?.sending, undefined, 'b has not heard of the claim');
    assert.equal((await b.claim(made.id)).taken, false, 'yet leaves it');
    await a.remove(made.id);
    assert.ok(b.get(made.id), 'b has not heard it is gone');
    await assert.rejects(b.update(made.id, 'Late edit\n'), /FileNotFound/, 'an edit of a draft sent elsewhere says so');
    assert.equal(b.get(made.id), undefined, 'and b knows now');
    a.dispose();
    b.dispose();
  });
});
