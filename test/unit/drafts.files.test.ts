import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { DraftStore, type DraftFolder } from '../../src/drafts/drafts';
import { draftFolder } from '../../src/drafts/draftFolders';
import { type StandIn } from '../server';
import { Disposable, fake, Uri, type Memento } from './fakeVscode';
import { MemoryFolder } from './memoryState';
import { rig } from './senderRig';
import { standInsForSuite } from './support';
import { draft, draftWindowsOnDisk, fields } from './draftWindows';

/*
 * Drafts as files, one each, in a folder every window shares: each test tries to lose what the
 * person typed (two windows on one real folder, a version before that kept them in the global
 * state, a file half written, a send while another window edits). First written in the review
 * of the move of drafts to one file each.
 */

/** The global state every window of one VS Code shares, each window writing its view whole. */
class SharedState {
  value: Record<string, unknown> = {};
  /** A window of this version: reads and writes the shared value at once. */
  window(): Memento {
    return {
      keys: () => Object.keys(this.value),
      get: <T>(key: string, fallback?: T) => (key in this.value ? (structuredClone(this.value[key]) as T) : fallback),
      update: async (key: string, value: unknown) => {
        const next = structuredClone(this.value);
        if (value === undefined) delete next[key];
        else next[key] = structuredClone(value);
        this.value = next;
      },
    };
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The folder, with the writes of draft files held while `holding` (released in order by `release`). */
function holdingWrites(inner: DraftFolder) {
  const held: (() => void)[] = [];
  const control = { holding: false, held, release: () => held.splice(0).forEach((go) => go()) };
  const folder: DraftFolder = {
    ...inner,
    write: async (name, text) => {
      if (control.holding && name.endsWith('.json')) await new Promise<void>((resolve) => held.push(resolve));
      return inner.write(name, text);
    },
  };
  return { folder, control };
}

describe('drafts one file each, windows on one real folder', () => {
  let root: string;
  let state: SharedState;
  const window = draftWindowsOnDisk('review-drafts-', (made) => (root = made));
  const folder = () => draftFolder(Uri.file(root) as never);
  const open = (drafts?: DraftFolder) => window(state.window(), drafts);
  /** Every byte the drafts folder and the global state hold. */
  const everywhere = async () => {
    const dir = join(root, 'drafts');
    const names = await readdir(dir).catch(() => []);
    const files = await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
    return files.join('\n') + JSON.stringify(state.value);
  };

  beforeEach(() => {
    state = new SharedState();
  });

  it('two windows save one draft at the same moment: one save is lost, and neither window is told', async () => {
    const [a, b] = [await open(), await open()];
    const made = await a.create(fields('Base\n'));
    await b.read(made.id);
    const saves = await Promise.allSettled([a.update(made.id, 'Base\nTyped in A\n'), b.update(made.id, 'Base\nTyped in B\n')]);
    const kept = (await open()).get(made.id)?.text;
    assert.ok(
      saves.some((s) => s.status === 'rejected') || (kept?.includes('Typed in A') && kept.includes('Typed in B')),
      `both saves said they were saved; the file holds only ${JSON.stringify(kept)}`,
    );
  });

  it('a draft removed (sent) in one window while another saves into it is not brought back, and the saving window is told', async () => {
    const a = await open();
    const made = await a.create(fields('Sent from A\n'));
    const { folder: slow, control } = holdingWrites(folder());
    const b = await open(slow);
    control.holding = true;
    const saving = b.update(made.id, 'Sent from A\nand typed on in B\n').then(
      () => 'saved',
      (error: unknown) => String(error),
    );
    while (control.held.length === 0) await turn();
    await a.remove(made.id);
    control.release();
    const said = await saving;
    const reopened = await open();
    assert.equal(reopened.get(made.id), undefined, `the sent draft is offered again after a reload (B's save said: ${said})`);
    assert.match(said, /FileNotFound/);
  });

  it('a draft edited in a window of the version before, after this version moved it to a file, keeps that edit', async () => {
    state.value = { 'helpdesk.draft:task-a': draft('task-a', 'First words\n', 1) };
    // The window of the version before holds its own copy of the whole global state.
    const old = structuredClone(state.value);
    await open();
    assert.deepEqual(state.value, {}, 'moved');
    // The person goes on typing there; that window writes its whole copy back.
    old['helpdesk.draft:task-a'] = { ...draft('task-a', 'First words\nand more typed in the old window\n', 1), updatedAt: Date.now() };
    state.value = structuredClone(old);
    const reloaded = await open();
    assert.ok(
      (await everywhere()).includes('and more typed in the old window'),
      `the edit is nowhere; the draft reads ${JSON.stringify(reloaded.get('task-a')?.text)}`,
    );
  });

  it('a draft over 1 MB in the old one-list global state (which had no limit) is not thrown away by the move', async () => {
    const long = 'x'.repeat(1_000_001);
    state.value = { 'helpdesk.drafts': [draft('task-long', long, 1), draft('task-short', 'Short\n', 2)] };
    const a = await open();
    assert.deepEqual(
      a.all().map((d) => d.id),
      ['task-short'],
    );
    assert.ok((await everywhere()).includes(long), 'the long draft is kept somewhere (a file, or the global state)');
  });

  it('held: a draft over 1 MB in an entry of the global state stays there (not shown, not lost)', async () => {
    const long = 'y'.repeat(1_000_001);
    state.value = { 'helpdesk.draft:task-long': draft('task-long', long, 1) };
    const a = await open();
    assert.deepEqual(a.all(), []);
    assert.ok((await everywhere()).includes(long));
  });

  it('the 1,001st draft: one this window just made stays in its list after the folder is read again', async () => {
    const dir = join(root, 'drafts');
    await mkdir(dir);
    for (let i = 0; i < 1000; i++) {
      const id = `bug-${i.toString(36).padStart(4, '0')}`;
      await writeFile(join(dir, `${id}.json`), JSON.stringify({ ...draft(id, `Bug ${i}\n`, i), kind: 'bug' }));
    }
    const a = await open();
    const made = await a.create(fields('Typed just now\n'));
    assert.equal(a.get(made.id)?.text, 'Typed just now\n');
    const told: string[] = [];
    a.onDidChange((id) => told.push(id));
    await a.refresh();
    assert.deepEqual(told, [], 'its open editor is not told it was deleted');
    assert.equal(a.get(made.id)?.text, 'Typed just now\n', 'still listed (and offered after a reload)');
  });

  it('a draft within its limits (700,000 control characters, and the same as the text an attempt sent) is written as a file every window can read back', async () => {
    // Pathological, but within the 1,000,000 characters of a text: each is written as \u001b (6 bytes) in JSON, twice over 8 MB.
    const log = '\u001b'.repeat(700_000);
    const a = await open();
    const made = await a.create(fields(log));
    await a.setUnconfirmed(made.id, { ref: 'hb-0123456789', sentText: log });
    assert.equal(a.get(made.id)?.text, log, 'saved, says this window');
    const reloaded = await open();
    assert.equal(reloaded.get(made.id)?.text.length, log.length, 'and found after a reload');
  });

  it('held: a save that cannot be written fails (the editor keeps its text) and the window keeps the draft as it was', async () => {
    const failing: DraftFolder = { ...folder(), write: () => Promise.reject(new Error('EACCES: permission denied')) };
    const a = await open();
    const made = await a.create(fields('Saved\n'));
    const b = await open(failing);
    await assert.rejects(b.update(made.id, 'Saved\nnot written\n'), /EACCES/);
    assert.equal(b.get(made.id)?.text, 'Saved\n');
    await assert.rejects(b.create(fields('New\n')), /EACCES/);
    assert.equal(b.all().length, 1, 'no draft kept only in memory, as if saved');
  });

  it('held: a file a crash left half-staged (.tmp) or a temp file being written is never taken for a draft', async () => {
    const a = await open();
    const made = await a.create(fields('Whole\n'));
    const dir = join(root, 'drafts');
    await writeFile(join(dir, `.${made.id}.json.abc.tmp`), '{"id":');
    await writeFile(join(dir, `.task-x.json.def.tmp`), JSON.stringify(draft('task-x', 'Staged\n')));
    await a.refresh();
    assert.deepEqual(
      a.all().map((d) => d.text),
      ['Whole\n'],
    );
    assert.equal((await a.read(made.id))?.text, 'Whole\n');
  });

  it('held: all() during refresh() answers with the drafts as read last, never a half-read list', async () => {
    const a = await open();
    for (let i = 0; i < 20; i++) await a.create(fields(`Draft ${i}\n`));
    const reading = a.refresh();
    const seen: number[] = [];
    let done = false;
    void reading.then(() => (done = true));
    while (!done) {
      seen.push(a.all().length);
      await turn();
    }
    assert.ok(
      seen.every((n) => n === 20),
      String(seen),
    );
  });
});

/** A folder whose changes are never heard: a window whose watcher is late. */
class Deaf extends MemoryFolder {
  override readonly onDidChange = () => new Disposable(() => undefined);
}

describe('a draft edited in another window while this window sends it', () => {
  let server: StandIn;
  standInsForSuite(([started]) => (server = started!));
  beforeEach(() => {
    fake.reset();
  });

  it('the edit saved in the other window during the POST is kept, not removed with the sent draft', async () => {
    const drafts = new Deaf();
    const presence = new MemoryFolder();
    const a = rig(server, undefined, presence, drafts);
    a.signIn();
    const b = new DraftStore(new SharedState().window(), drafts, presence);
    const made = await a.drafts.create({ kind: 'task', text: formatDraftDocument('Title', 'as sent'), accountUrl: server.url });
    await b.ready;
    server.addFault({ method: 'POST', path: '/app/posts.json', latencyMs: 200, times: 1 });
    const sending = a.sender.send(made.id);
    while (!server.requests.some((r) => r.method === 'POST')) await new Promise((resolve) => setTimeout(resolve, 5));
    await b.update(made.id, formatDraftDocument('Title', 'as sent, and a second thought typed in window B'));
    assert.ok(await sending, 'filed with the text it had');
    const kept = await b.read(made.id);
    assert.match(kept?.text ?? '(gone)', /second thought/, 'what B saved during the POST is kept');
    b.dispose();
    a.drafts.dispose();
  });
});
