import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { reportBug } from '../../src/commands/reportBug';
import { startStandIn, type StandIn } from '../server';
import { fake, Range, Uri, window } from './fakeVscode';
import { filed, toolRig } from './toolRig';

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

  it('Escape in the title box files nothing', async () => {
    const rig = toolRig([server]);
    const before = filed(server).length;
    const reported = reportBug(rig.services, rig.signedIn());
    (await until(() => fake.inputBoxes[0])).hide();
    assert.equal(await reported, undefined);
    assert.equal(filed(server).length, before);
  });
});
