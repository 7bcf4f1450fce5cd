import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { parse, type ParseError } from 'jsonc-parser';
import { mergedConfig } from '../../src/agent/mcp/agentConfigs';
import { connectAgent } from '../../src/agent/mcp/connectAgent';
import { ENTRY_FILE } from '../../src/agent/mcp/protocol';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { guardMs } from '../limits';
import { fake } from './fakeVscode';

/*
 * Issue 47: Connect an Agent…'s Write to File…, through the fake editor, into real files: the
 * person's own server of the same name is never overwritten (another name is asked for), an entry
 * that is already ours is updated in place, and the file is kept as the person wrote it — a BOM,
 * comments, trailing commas, duplicate keys, numbers past 2^53, CRLF — or left alone: a link,
 * a pipe, a file that changed meanwhile, two "mcpServers", the extension's own folder.
 */

let dir: string;
let folder: string;
const ui = () => new Notifier(new Log());
beforeEach(() => {
  fake.reset();
  dir = mkdtempSync(join(tmpdir(), 'hd-connect-'));
  folder = join(dir, 'globalStorage', 'mcp');
  mkdirSync(folder, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Our entry as Write to File… puts it for Cursor (this test's Node runs the entry: no Electron variable). */
const ours = () => ({ command: process.execPath, args: [join(folder, ENTRY_FILE)], env: {} });

/** The person's own server named "helpdesk", with its key. */
const ZENDESK = `{
  "mcpServers": {
    "helpdesk": {
      "command": "npx",
      "args": ["zendesk-mcp"],
      "env": { "ZENDESK_TOKEN": "zd-secret-of-the-person" }
    }
  }
}
`;

/** Picks Cursor, Write to File…, the file at `path`, then answers the questions after it with `answers`. */
async function writeToFile(path: string, ...answers: (string | undefined)[]): Promise<void> {
  fake.pickAnswers.push('Cursor');
  fake.answers.push('Write to File…', ...answers);
  fake.saveAnswers.push(path);
  await connectAgent(folder, ui());
}

const jsonc = (text: string) => {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], text);
  return value;
};
const said = () => fake.messages.map((m) => `${m.level}: ${m.text}`).join('\n');

describe('Connect an Agent…: Write to File… and a server name the person uses', () => {
  it('their "helpdesk" (npx zendesk-mcp and its key) stays as it was: asked, the helpdesk goes in as "helpdesk-2"', async () => {
    const file = join(dir, 'mcp.json');
    writeFileSync(file, ZENDESK);
    await writeToFile(file, 'Add as "helpdesk-2"');
    const question = fake.messages.find((m) => m.modal && m.buttons.includes('Add as "helpdesk-2"'));
    assert.ok(question, `asked before anything was written: ${said()}`);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes(ZENDESK.slice(ZENDESK.indexOf('"helpdesk"'), ZENDESK.indexOf('}\n  }'))), text);
    assert.deepEqual(jsonc(text).mcpServers, { ...jsonc(ZENDESK).mcpServers, 'helpdesk-2': ours() }, said());
    assert.match(said(), /as "helpdesk-2"/);
  });

  it('asked and declined: the file is not touched', async () => {
    const file = join(dir, 'mcp.json');
    writeFileSync(file, ZENDESK);
    await writeToFile(file, undefined);
    assert.equal(readFileSync(file, 'utf8'), ZENDESK);
  });

  it('an entry that is ours (the same program and entry) is completed in place, under the name it has, nothing asked', async () => {
    const file = join(dir, 'mcp-config.json');
    // Copilot CLI's entry, written by hand without its type; what the person set in it stays: the tools they allow, a switch, a variable.
    const theirs = { disabled: false, tools: ['helpdesk_searchPosts'], env: { HTTPS_PROXY: 'http://proxy:3128' } };
    const servers = { helpdesk: jsonc(ZENDESK).mcpServers.helpdesk, tickets: { command: process.execPath, args: ours().args, ...theirs } };
    writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
    fake.pickAnswers.push('Copilot CLI');
    fake.answers.push('Write to File…');
    fake.saveAnswers.push(file);
    await connectAgent(folder, ui());
    assert.deepEqual(jsonc(readFileSync(file, 'utf8')).mcpServers, { ...servers, tickets: { ...servers.tickets, type: 'local' } });
    assert.equal(fake.messages.filter((m) => m.modal).length, 1, 'only the dialog that shows the configuration');
    assert.match(said(), /as "tickets"/);
    fake.reset();
    await writeToFile(file);
    assert.match(said(), /has the helpdesk already \(as "tickets"\)/, 'the same again: nothing to change');
  });

  it('a name given twice in the file is taken, whatever either says', async () => {
    const file = join(dir, 'mcp.json');
    const text = `{"mcpServers": {"helpdesk": ${JSON.stringify(ours())}, "helpdesk": {"command": "npx", "args": ["other"]}}}`;
    writeFileSync(file, text);
    await writeToFile(file, 'Add as "helpdesk-2"');
    const after = readFileSync(file, 'utf8');
    // Both kept, in their order (the line the entry went into is laid out again, as VS Code lays out its settings).
    assert.equal((after.match(/"helpdesk"/g) ?? []).length, 2, after);
    assert.ok(after.indexOf('helpdesk-mcp.js') < after.indexOf('"other"'), after);
    assert.deepEqual(jsonc(after).mcpServers['helpdesk-2'], ours());
  });
});

describe('Connect an Agent…: Write to File… keeps the file as the person wrote it', () => {
  it('a BOM, comments, trailing commas, a duplicate key, a number past 2^53 and CRLF line ends are all still there', async () => {
    const file = join(dir, 'mcp.json');
    const text =
      '\uFEFF{\r\n  // my servers\r\n  "limit": 12345678901234567890123,\r\n  "x": 1,\r\n  "x": 2,\r\n  "mcpServers": {\r\n    /* none yet */\r\n  },\r\n}\r\n';
    writeFileSync(file, text);
    await writeToFile(file);
    const after = readFileSync(file, 'utf8');
    assert.ok(
      after.startsWith('\uFEFF{\r\n  // my servers\r\n  "limit": 12345678901234567890123,\r\n  "x": 1,\r\n  "x": 2,\r\n'),
      JSON.stringify(after),
    );
    assert.ok(after.includes('/* none yet */'), after);
    assert.ok(!/[^\r]\n/.test(after), 'CRLF throughout');
    assert.deepEqual(jsonc(after.slice(1)).mcpServers, { helpdesk: ours() });
  });

  it('a file that does not exist is made, in a folder made for it', async () => {
    const file = join(dir, 'new', '.cursor', 'mcp.json');
    await writeToFile(file);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { helpdesk: ours() } });
  });

  it('"mcpServers" twice: which one an agent reads is unclear, so the file is left as it was', async () => {
    const file = join(dir, 'mcp.json');
    const text = '{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}';
    writeFileSync(file, text);
    await writeToFile(file);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.match(said(), /"mcpServers" twice/);
  });

  it('of every wrong shape, left as it was', async () => {
    for (const text of ['[1]', 'null', '{"mcpServers": 3}', '{"mcpServers": null}', '{"mcpServers": []}', '{', '{"a": 1} {"b": 2}']) {
      const file = join(dir, 'mcp.json');
      writeFileSync(file, text);
      fake.reset();
      await writeToFile(file);
      assert.equal(readFileSync(file, 'utf8'), text);
      assert.ok(
        fake.messages.some((m) => m.level === 'warn' && m.text.includes('left as it was')),
        `${text}: ${said()}`,
      );
    }
  });

  it("a link in the file's place: nothing written through it, and the link stays a link", async () => {
    const target = join(dir, 'dotfiles.json');
    writeFileSync(target, ZENDESK);
    const file = join(dir, 'mcp.json');
    symlinkSync(target, file);
    await writeToFile(file, 'Add as "helpdesk-2"');
    assert.equal(readFileSync(target, 'utf8'), ZENDESK);
    assert.ok(lstatSync(file).isSymbolicLink());
    assert.match(said(), /link/);
  });

  it("a pipe in the file's place: answered at once, never waited on", async () => {
    const file = join(dir, 'mcp.json');
    execFileSync('mkfifo', [file]);
    const outcome = await Promise.race([
      writeToFile(file).then(() => 'answered'),
      new Promise((resolve) => setTimeout(resolve, guardMs(500), 'waiting on the pipe')),
    ]);
    // Whatever waits on the pipe is let go, so that the test ends.
    try {
      closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader: nothing waits.
    }
    assert.equal(outcome, 'answered');
    assert.ok(statSync(file).isFIFO());
    assert.match(said(), /not a plain file|left as it was/);
  });

  it("the file's mode is kept", async () => {
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{}', { mode: 0o600 });
    await writeToFile(file);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { helpdesk: ours() } });
  });

  it("nothing is written into the extension's own folder, also when it is named through a link", async () => {
    const link = join(dir, 'linked');
    symlinkSync(folder, link);
    await writeToFile(join(link, 'mcp.json'));
    assert.throws(() => statSync(join(folder, 'mcp.json')));
    assert.match(said(), /outside the extension's own folder/);
  });
});

describe('mergedConfig: the merge itself', () => {
  const entry = { command: '/usr/bin/code', args: ['/x/helpdesk-mcp.js'], env: { ELECTRON_RUN_AS_NODE: '1' } };

  it('any JSON object: everything in it is kept, and the entry is there under the name it says', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((key) => key !== '__proto__'),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        fc.boolean(),
        (object, withServers) => {
          let given = withServers ? { ...object, mcpServers: { helpdesk: { command: 'npx' } } } : object;
          const text = JSON.stringify(given, null, 2);
          given = JSON.parse(text) as typeof given;
          const merged = mergedConfig(text, entry);
          const servers = (given as Record<string, unknown>).mcpServers;
          const serversAnObject = servers === undefined || (typeof servers === 'object' && servers !== null && !Array.isArray(servers));
          if ('problem' in merged) return assert.ok(!serversAnObject, merged.problem);
          // JSON.parse, as an agent reads it (and as given was made: a key "__proto__" is its own there).
          const after = JSON.parse(merged.text) as Record<string, unknown>;
          const { mcpServers, ...rest } = after;
          const { mcpServers: before, ...restBefore } = given as Record<string, unknown>;
          assert.deepEqual(rest, restBefore);
          assert.deepEqual((mcpServers as Record<string, unknown>)[merged.name], entry);
          for (const [name, value] of Object.entries((before as Record<string, unknown> | undefined) ?? {}))
            assert.deepEqual((mcpServers as Record<string, unknown>)[name], value, name);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a file of 1 MB is merged in linear time', () => {
    const servers = Object.fromEntries(
      Array.from({ length: 7_000 }, (_, i) => [`helpdesk${i ? `-${i + 1}` : ''}`, { command: 'npx', args: ['x'.repeat(80)] }]),
    );
    const text = JSON.stringify({ mcpServers: servers });
    const started = performance.now();
    const merged = mergedConfig(text, entry);
    assert.ok(performance.now() - started < guardMs(300), `${performance.now() - started} ms`);
    assert.ok(!('problem' in merged) && merged.name === 'helpdesk-7001', JSON.stringify('problem' in merged ? merged : merged.name));
  });
});
