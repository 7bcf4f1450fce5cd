import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AccountList } from '../../src/accounts/accountList';
import { DraftStore } from '../../src/drafts/drafts';
import { draftFolder, presenceFolder } from '../../src/drafts/draftFolders';
import { storageFiles } from '../../src/globalStorage/storageFiles';
import { newsFileOf, newsFolderOf } from '../../src/watch/newsFileNames';
import { NewsFolder } from '../../src/watch/newsFiles';
import { limitMs } from '../limits';
import { fake, FileType, Uri } from './fakeVscode';
import { memoryState } from './memoryState';

const vscodeUri = (uri: Uri) => uri as unknown as import('vscode').Uri;
/** Waits for `done`, polling, for 2 s at most. */
async function until(done: () => boolean): Promise<void> {
  for (const start = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() - start > 2000) throw new Error('not within 2 s');
  }
}
const textOf = async (file: import('vscode').Uri) => new TextDecoder().decode((await storageFiles.readFile(file, 1_000_000))?.bytes);

describe("the extension's own files", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'storage-'));
    fake.reset();
  });
  // A window's presence file may still be being written as a test ends.
  afterEach(() => rm(root, { recursive: true, force: true, maxRetries: 5 }));

  it("Report Bug's steps through the drafts (saved claimed, read, claimed, marked, given up, removed) make no call through workspace.fs, each a round trip to the workbench", async () => {
    const storage = vscodeUri(Uri.file(root));
    const drafts = new DraftStore(memoryState(), draftFolder(storage), presenceFolder(storage));
    try {
      await drafts.ready;
      const draft = await drafts.create(
        { kind: 'bug', text: 'Crash\n\nat line 2\n', accountUrl: 'https://acme.example.com' },
        { claimed: true },
      );
      assert.equal((await drafts.read(draft.id))?.text, 'Crash\n\nat line 2\n');
      assert.deepEqual(await drafts.claim(draft.id), { taken: true });
      await drafts.setUnconfirmed(draft.id, { ref: 'r1', sentText: draft.text, markerAtHead: true });
      assert.equal((await drafts.read(draft.id))?.unconfirmed?.ref, 'r1');
      await drafts.release(draft.id);
      assert.equal(await drafts.remove(draft.id, { ifText: draft.text }), true);
      assert.deepEqual(
        (await readdir(join(root, 'drafts'))).filter((name) => name.endsWith('.json')),
        [],
      );
      assert.equal(fake.workspaceFsCalls, 0);
    } finally {
      drafts.dispose();
    }
  });

  // Each asynchronous fs call waits for a thread of libuv's pool, which a busy machine gives a
  // scheduler slice late: Report Bug's steps to its "filed" made dozens in a row.
  it(
    "Report Bug's steps through the drafts wait for none of the thread pool's threads: they are done with every thread busy",
    { skip: process.platform === 'win32' },
    async () => {
      const storage = vscodeUri(Uri.file(root));
      const drafts = new DraftStore(memoryState(), draftFolder(storage), presenceFolder(storage));
      const busy = join(root, 'busy.fifo');
      execFileSync('mkfifo', [busy]);
      // Opening a pipe to read waits for a writer: each open holds a thread until the pipe is opened to write.
      const threads = Number(process.env.UV_THREADPOOL_SIZE || 4);
      const holding = Array.from({ length: threads }, () => open(busy, 'r').then((handle) => handle.close()));
      try {
        const steps = (async () => {
          await drafts.ready;
          const draft = await drafts.create({ kind: 'bug', text: 'Crash', accountUrl: 'https://acme.example.com' }, { claimed: true });
          assert.equal((await drafts.read(draft.id))?.text, 'Crash');
          await drafts.setUnconfirmed(draft.id, { ref: 'r1', sentText: draft.text, markerAtHead: true });
          assert.equal(await drafts.remove(draft.id, { ifText: draft.text }), true);
          return 'done';
        })();
        const waited = new Promise((resolve) => setTimeout(resolve, limitMs('condition'), 'waited behind the thread pool'));
        assert.equal(await Promise.race([steps, waited]), 'done');
      } finally {
        closeSync(openSync(busy, constants.O_RDWR | constants.O_NONBLOCK));
        await Promise.all(holding);
        drafts.dispose();
      }
    },
  );

  it('the account list and the news files on this disk make no call through workspace.fs either', async () => {
    const storage = vscodeUri(Uri.file(root));
    const accounts = new AccountList(storage);
    const news = new NewsFolder(storage);
    try {
      await accounts.add('https://acme.example.com');
      assert.deepEqual(await accounts.all(), ['https://acme.example.com']);
      await news.writeLease('https://acme.example.com', { window: 'w1', until: Date.now() + 60_000, minutes: 5 }, () => true);
      assert.equal((await news.lease('https://acme.example.com'))?.window, 'w1');
      assert.equal(fake.workspaceFsCalls, 0);
    } finally {
      accounts.dispose();
      news.dispose();
    }
  });

  it('says what workspace.fs says of a local file: a link is followed and marked, a missing file is FileNotFound', async () => {
    await writeFile(join(root, 'plain.json'), '{"a":1}');
    await symlink(join(root, 'plain.json'), join(root, 'link.json'));
    const plain = await storageFiles.stat(vscodeUri(Uri.file(join(root, 'plain.json'))));
    assert.deepEqual([plain.type, plain.size], [FileType.File, 7]);
    assert.equal((await storageFiles.stat(vscodeUri(Uri.file(join(root, 'link.json'))))).type, FileType.File | FileType.SymbolicLink);
    const entries = new Map(await storageFiles.readDirectory(vscodeUri(Uri.file(root))));
    assert.deepEqual([entries.get('plain.json'), entries.get('link.json')], [FileType.File, FileType.File | FileType.SymbolicLink]);
    await assert.rejects(
      storageFiles.readFile(vscodeUri(Uri.file(join(root, 'none.json'))), 100),
      (error: { code?: string }) => error.code === 'FileNotFound',
    );
    await storageFiles.createDirectory(vscodeUri(Uri.file(join(root, 'a', 'b'))));
    assert.equal((await storageFiles.stat(vscodeUri(Uri.file(join(root, 'a', 'b'))))).type, FileType.Directory);
  });

  // A pipe in a file's place: reading it would hold one of the extension host's few file threads
  // until something writes to it. Each read below waited for ever before reads were opened without waiting.
  it(
    'a pipe in place of the news lease or the account list is not waited on: read as no file of the kind, and a write to it fails at once',
    { timeout: 5000, skip: process.platform === 'win32' },
    async () => {
      const storage = vscodeUri(Uri.file(root));
      const accounts = new AccountList(storage);
      const news = new NewsFolder(storage);
      try {
        const lease = newsFileOf(newsFolderOf(storage), 'https://acme.example.com', 'lease').fsPath;
        await news.writeLease('https://acme.example.com', { window: 'w1', until: Date.now() + 60_000, minutes: 5 }, () => true);
        await rm(lease);
        execFileSync('mkfifo', [lease]);
        assert.equal(await news.lease('https://acme.example.com'), undefined);
        await accounts.add('https://acme.example.com');
        const list = join(root, 'accounts.json');
        await rm(list);
        execFileSync('mkfifo', [list]);
        const again = new AccountList(storage);
        try {
          assert.deepEqual(await again.all(), []);
          // Opening a pipe to write waits for a reader: the write would hold a file thread, and every later write to the file behind it.
          await assert.rejects(
            again.add('https://other.example.com'),
            (error: { code?: string; message?: string }) => error.code === 'Unavailable' && error.message!.includes('accounts.json'),
          );
        } finally {
          again.dispose();
        }
      } finally {
        accounts.dispose();
        news.dispose();
      }
    },
  );

  it('a file is read to its bound and not past it; a folder or a pipe is no file; a missing one is FileNotFound', async () => {
    const file = (name: string) => vscodeUri(Uri.file(join(root, name)));
    await writeFile(join(root, 'ten.json'), '0123456789');
    assert.equal(new TextDecoder().decode((await storageFiles.readFile(file('ten.json'), 10))?.bytes), '0123456789');
    assert.equal(await storageFiles.readFile(file('ten.json'), 9), undefined);
    await writeFile(join(root, 'empty.json'), '');
    assert.equal((await storageFiles.readFile(file('empty.json'), 0))?.bytes.byteLength, 0);
    assert.equal(await storageFiles.readFile(vscodeUri(Uri.file(root)), 1000), undefined);
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(root, 'pipe.json')]);
      assert.equal(await storageFiles.readFile(file('pipe.json'), 1000), undefined);
    }
    await assert.rejects(storageFiles.readFile(file('none.json'), 10), (error: { code?: string }) => error.code === 'FileNotFound');
  });

  it("a link in place of a file is no file of the extension's: not read (a draft by its id included), not written through", async () => {
    const storage = vscodeUri(Uri.file(root));
    const outside = join(root, 'outside.json');
    const drafts = new DraftStore(memoryState(), draftFolder(storage), presenceFolder(storage));
    try {
      await drafts.ready;
      const draft = await drafts.create({ kind: 'bug', text: 'Crash', accountUrl: 'https://acme.example.com' });
      const name = (await readdir(join(root, 'drafts'))).find((n) => n.endsWith('.json'))!;
      await writeFile(outside, await readFile(join(root, 'drafts', name)));
      await rm(join(root, 'drafts', name));
      await symlink(outside, join(root, 'drafts', name));
      assert.equal(await drafts.read(draft.id), undefined);
      await writeFile(join(root, 'plain.json'), '{}');
      await symlink(join(root, 'plain.json'), join(root, 'link.json'));
      assert.equal(await storageFiles.readFile(vscodeUri(Uri.file(join(root, 'link.json'))), 1000), undefined);
      await assert.rejects(
        storageFiles.writeFile(vscodeUri(Uri.file(join(root, 'link.json'))), new TextEncoder().encode('{"through":1}')),
        (error: { code?: string }) => error.code === 'Unavailable',
      );
      assert.equal(await readFile(join(root, 'plain.json'), 'utf8'), '{}');
    } finally {
      drafts.dispose();
    }
  });

  /**
   * An account list with acme added here, then other.example.com added by another window behind
   * its watcher's back (as a watcher outside the workspace may miss a write); `told` counts what
   * it told since the add.
   */
  async function listMissingAWrite(run: (accounts: AccountList, told: () => number) => Promise<void>): Promise<void> {
    const accounts = new AccountList(vscodeUri(Uri.file(root)));
    let told = 0;
    const listening = accounts.onDidChange(() => (told += 1));
    try {
      await accounts.add('https://acme.example.com');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(told, 1, "the add, and not again for the watcher hearing the add's own write");
      told = 0;
      fake.watchersDeaf = true;
      await writeFile(join(root, 'accounts.json'), JSON.stringify({ accounts: ['https://acme.example.com', 'https://other.example.com'] }));
      await run(accounts, () => told);
    } finally {
      listening.dispose();
      accounts.dispose();
    }
  }

  it("an account list that missed another window's change reads it when the window comes to the front, and tells only a change", async () => {
    await listMissingAWrite(async (accounts, told) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(accounts.known.length, 1, 'the watcher missed the write');
      fake.windowState.fire({ focused: true });
      await until(() => accounts.known.length === 2);
      assert.deepEqual(accounts.known, ['https://acme.example.com', 'https://other.example.com']);
      assert.equal(told(), 1);
      fake.windowState.fire({ focused: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(told(), 1, 'the same list again: nothing to tell');
    });
  });

  it('a change another window made is told even when an add of this window read it first (the add itself changing nothing)', async () => {
    await listMissingAWrite(async (accounts, told) => {
      await accounts.add('https://acme.example.com');
      assert.deepEqual(accounts.known, ['https://acme.example.com', 'https://other.example.com']);
      assert.equal(told(), 1, "the other window's account is told");
    });
  });

  it("a read begun before this window's write does not put the list back as it was", async () => {
    await writeFile(join(root, 'accounts.json'), JSON.stringify({ accounts: [] }));
    const storage = vscodeUri(Uri.file(root));
    const accounts = new AccountList(storage);
    try {
      await accounts.all();
      fake.watchersDeaf = true;
      // A focus read under way while the add writes: its answer (the list before) comes last.
      const slowRead = storageFiles.readFile.bind(storageFiles);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let first = true;
      storageFiles.readFile = async (uri, max) => {
        const read = await slowRead(uri, max);
        if (first) {
          first = false;
          await held;
        }
        return read;
      };
      try {
        fake.windowState.fire({ focused: true });
        await new Promise((resolve) => setTimeout(resolve, 20));
        const adding = accounts.add('https://acme.example.com');
        await new Promise((resolve) => setTimeout(resolve, 50));
        release();
        await adding;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        storageFiles.readFile = slowRead;
      }
      assert.deepEqual(accounts.known, ['https://acme.example.com']);
    } finally {
      accounts.dispose();
    }
  });

  // A file that says it is smaller than it is (as one growing while read would): /proc's say 0 bytes.
  it(
    'a file that holds more than its size said is read on to the bound, and not past it',
    { skip: process.platform !== 'linux' },
    async () => {
      const status = vscodeUri(Uri.file('/proc/self/status'));
      assert.match(new TextDecoder().decode((await storageFiles.readFile(status, 1_000_000))?.bytes), /^Name:/);
      assert.equal(await storageFiles.readFile(status, 10), undefined);
    },
  );

  it('a file past its bound is not read: an account list of megabytes is no list (the accounts it names are not taken)', async () => {
    const storage = vscodeUri(Uri.file(root));
    const accounts = new AccountList(storage);
    try {
      await accounts.add('https://acme.example.com');
      const list = join(root, 'accounts.json');
      await writeFile(list, JSON.stringify({ accounts: ['https://big.example.com', 'x'.repeat(5_000_000)] }));
      const again = new AccountList(storage);
      try {
        assert.deepEqual(await again.all(), []);
      } finally {
        again.dispose();
      }
    } finally {
      accounts.dispose();
    }
  });

  it('writes to one file at once are made one after another, as workspace.fs queues them: the file holds one whole content', async () => {
    const file = vscodeUri(Uri.file(join(root, 'accounts.json')));
    for (let round = 0; round < 20; round++) {
      const contents = Array.from({ length: 4 }, (_, i) =>
        JSON.stringify({ accounts: Array.from({ length: 1 + i * 50 * (round % 3) }, (_, j) => `https://a${i}-${j}.example.com`) }),
      );
      await Promise.all(contents.map((text) => storageFiles.writeFile(file, new TextEncoder().encode(text))));
      assert.ok(contents.includes(await textOf(file)), `round ${round}: one whole content`);
    }
  });

  it('a write makes the folder again when it was removed meanwhile, as workspace.fs does', async () => {
    const file = vscodeUri(Uri.file(join(root, 'gone', 'drafts', 'a.json')));
    await storageFiles.writeFile(file, new TextEncoder().encode('{}'));
    await rm(join(root, 'gone'), { recursive: true });
    await storageFiles.writeFile(file, new TextEncoder().encode('{"again":1}'));
    assert.equal(await textOf(file), '{"again":1}');
  });

  it('a global storage that is not on this disk (another scheme) is read and written through workspace.fs', async () => {
    const file = vscodeUri(Uri.from({ scheme: 'vscode-userdata', path: join(root, 'elsewhere.json') }));
    await storageFiles.writeFile(file, new TextEncoder().encode('{}'));
    assert.equal(await textOf(file), '{}');
    assert.equal(await storageFiles.readFile(file, 1), undefined, 'past the bound, as the size says');
    assert.equal(fake.workspaceFsCalls, 4, 'the write; a stat and a read; a stat');
  });
});
