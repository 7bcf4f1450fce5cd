import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { reportBug } from '../../src/commands/reportBug';
import { startStandIn, type StandIn } from '../server';
import { fake, Range, Uri, window } from './fakeVscode';
import { filed, toolRig } from './toolRig';
import { MemoryFolder, memoryState } from './memoryState';

const LOOKUP = 'Looking up the code on the remote…';
const until = async <T>(value: () => T | undefined): Promise<T> => {
  for (let i = 0; i < 500; i++) {
    const got = value();
    if (got !== undefined) return got;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('never came');
};

describe('Report Bug from the palette', () => {
  let server: StandIn;
  let folder: string;
  before(async () => {
    server = await startStandIn();
    folder = mkdtempSync(join(tmpdir(), 'report-bug-'));
  });
  after(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.reset();
    fake.folders.push({ uri: Uri.file(folder), name: 'ws', index: 0 });
    const file = join(folder, 'greeting.ts');
    writeFileSync(
      file,
      'export function greet(name: string) {\n  if (!name) throw new Error("name is required");\n  return `Hello ${name}`;\n}\n',
    );
    const lines = [
      'export function greet(name: string) {',
      '  if (!name) throw new Error("name is required");',
      '  return `Hello ${name}`;',
      '}',
      '',
    ];
    const document = {
      uri: Uri.file(file),
      isDirty: false,
      languageId: 'typescript',
      lineCount: lines.length,
      lineAt: (line: number) => ({ text: lines[line]! }),
      getText: (range?: Range) => (range ? lines.slice(range.startLine, range.endLine + 1) : lines).join('\n'),
    };
    const selection = { start: { line: 1, character: 0 }, end: { line: 2, character: 3 }, isEmpty: false };
    window.activeTextEditor = { document, selection };
  });

  it('shows the title box before it looks the code up in Git (whose work would hold the box back), and files once Enter is pressed', async () => {
    const rig = toolRig([server]);
    const reported = reportBug(rig.services, rig.signedIn());
    const box = await until(() => fake.inputBoxes[0]);
    assert.match(box.title ?? '', /^Report Bug: greeting\.ts:2–3$/);
    assert.deepEqual(box.progressWhenShown, [], 'no lookup had begun when the box showed');
    await until(() => (fake.progress.includes(LOOKUP) ? true : undefined));
    const before = filed(server).length;
    box.accept('greet() throws on an empty name');
    const post = await reported;
    assert.ok(post, 'filed');
    assert.equal(filed(server).length, before + 1);
    assert.match(String((filed(server).at(-1)!.body as { post: { content: string } }).post.content), /name is required/);
  });

  it('reads only the selected lines of a document with unsaved changes: Git answers "unsaved" without its whole text', async () => {
    const rig = toolRig([server]);
    const editor = window.activeTextEditor as { document: { isDirty: boolean; getText: (range?: Range) => string } };
    const { getText } = editor.document;
    let wholeTextReads = 0;
    editor.document.isDirty = true;
    editor.document.getText = (range?: Range) => (range ? getText(range) : (wholeTextReads++, getText()));
    const reported = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('greet() throws on an empty name');
    assert.ok(await reported, 'filed');
    assert.match(String((filed(server).at(-1)!.body as { post: { content: string } }).post.content), /name is required/);
    assert.equal(wholeTextReads, 0);
  });

  it("Enter writes the draft's file once before the POST: saved, claimed and marked in one write", async () => {
    const draftsFolder = new MemoryFolder();
    const write = draftsFolder.write.bind(draftsFolder);
    const before = filed(server).length;
    const writes: string[] = [];
    draftsFolder.write = (name: string, text: string) => {
      // A draft's file; a lock file holds a window's name.
      const draft = (name.endsWith('.json') ? JSON.parse(text || 'null') : null) as {
        sending?: unknown;
        unconfirmed?: { ref?: string };
      } | null;
      const what = `${name.endsWith('.json') ? 'draft' : name}${draft?.sending ? ' claimed' : ''}${draft?.unconfirmed?.ref ? ' marked' : ''}`;
      writes.push(`${filed(server).length > before ? 'after' : 'before'} the POST: ${what}`);
      return write(name, text);
    };
    const rig = toolRig([server], { draftsFolder });
    const reported = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('One write before the POST');
    const post = await reported;
    assert.ok(post, 'filed');
    assert.equal(filed(server).length, before + 1);
    assert.deepEqual(
      writes.filter((w) => w.startsWith('before')),
      ['before the POST: draft claimed marked'],
    );
    assert.match(
      String((filed(server).at(-1)!.body as { post: { content: string } }).post.content),
      /^Sent from VS Code · hb-[0-9a-z]{10}\n/,
    );
  });

  it('a window gone after the draft was saved and marked, before its POST: the draft is kept, and sent from another window once', async () => {
    const stored = () => server.store.list(server.prefix, 'posts').length;
    const before = stored();
    // What is on the disk once the draft's last write before the POST is done: a window that crashed then left this.
    const posted = filed(server).length;
    const draftsFolder = new MemoryFolder();
    const write = draftsFolder.write.bind(draftsFolder);
    let leftByCrash: MemoryFolder | undefined;
    draftsFolder.write = (name: string, text: string) =>
      write(name, text).then(() => void (filed(server).length === posted && (leftByCrash = draftsFolder.copy())));
    const presence = new MemoryFolder();
    const state = memoryState();
    // That window's POST is not stored (here: refused with 503, so that the test goes on without it).
    server.addFault({ method: 'POST', path: '/app/posts.json', status: 503, times: 1 });
    const first = toolRig([server], { draftsFolder, presence, state });
    const reported = reportBug(first.services, first.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('Kept though the window went');
    assert.equal(await reported, undefined);
    assert.equal(stored(), before, 'nothing stored');
    assert.ok(leftByCrash, 'the draft was written');
    const second = toolRig([server], { draftsFolder: leftByCrash, presence, state });
    await second.drafts.ready;
    const draft = second.drafts.all()[0];
    assert.ok(draft?.unconfirmed?.ref, 'kept, with its marker: the next send looks for the post first');
    assert.match(draft.text, /^Kept though the window went\n/, 'what was typed is kept');
    fake.answers.push('Send Anyway'); // where the search cannot prove it absent, the person is asked
    const post = await second.sender.send(draft.id);
    assert.ok(post, 'sent from the other window');
    assert.equal(stored(), before + 1, 'once');
    assert.equal(second.drafts.get(draft.id), undefined);
  });

  it("Enter, the service's answer lost, then the draft sent again: filed once, the post found by its marker", async () => {
    const stored = () => server.store.list(server.prefix, 'posts').length;
    const before = stored();
    server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
    const rig = toolRig([server]);
    const reported = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('Answer lost on Enter');
    assert.equal(await reported, undefined, 'not known to be filed');
    assert.equal(stored(), before + 1, 'the service has it');
    const [kept] = rig.drafts.all();
    assert.ok(kept?.unconfirmed?.ref, 'kept, with its marker');
    const post = await rig.sender.send(kept.id);
    assert.ok(post, 'found');
    assert.equal(stored(), before + 1, 'not filed again');
    assert.equal(rig.drafts.get(kept.id), undefined);
  });

  it('Enter on a title filed a moment ago asks first; Keep Draft files nothing and keeps a draft that waits on no attempt', async () => {
    const rig = toolRig([server]);
    const first = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('Filed twice?');
    const post = await first;
    assert.ok(post);
    const before = filed(server).length;
    fake.answers.push('Keep Draft');
    const second = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[1])).accept('Filed twice?');
    assert.equal(await second, undefined);
    assert.ok(
      fake.messages.some((m) => m.modal && m.text.includes(`#${post.id} was filed with this title`)),
      'asked',
    );
    assert.equal(filed(server).length, before, 'nothing sent');
    const [kept] = rig.drafts.all();
    assert.ok(kept, 'the draft is kept');
    assert.equal(kept.unconfirmed, undefined, 'not taken for an attempt that may be on the service');
  });

  it('another window sending the draft while its POST is on its way is refused: filed once', async () => {
    const draftsFolder = new MemoryFolder();
    const presence = new MemoryFolder();
    const state = memoryState();
    const before = filed(server).length;
    server.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 1 });
    const first = toolRig([server], { draftsFolder, presence, state });
    const reported = reportBug(first.services, first.signedIn());
    (await until(() => fake.inputBoxes[0])).accept('Raced by another window');
    await until(() => (filed(server).length > before ? true : undefined));
    const other = toolRig([server], { draftsFolder, presence, state });
    await other.drafts.ready;
    const [draft] = other.drafts.all();
    assert.ok(draft?.unconfirmed?.ref, 'the other window sees it marked');
    assert.equal(await other.sender.send(draft.id), undefined, 'refused: this window is sending it');
    server.release();
    const post = await reported;
    assert.ok(post, 'filed by its own window');
    assert.equal(filed(server).length, before + 1, 'once');
    assert.equal(await other.sender.send(draft.id), undefined, 'gone once filed');
    assert.equal(filed(server).length, before + 1, 'still once');
  });

  it('Escape in the title box files nothing', async () => {
    const rig = toolRig([server]);
    const before = filed(server).length;
    const reported = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).hide();
    assert.equal(await reported, undefined);
    assert.equal(filed(server).length, before);
  });
});
