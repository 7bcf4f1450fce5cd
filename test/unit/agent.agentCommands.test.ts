import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { agentConfigs, launchOf, type Launch } from '../../src/agent/mcp/agentConfigs';
import { guardMs } from '../limits';

/*
 * Issue 47: every command Connect an Agent… shows is run as the person would run it: pasted into
 * a POSIX shell, which hands its words to the client's own option parser. Claude Code is its
 * real client from npm (@anthropic-ai/claude-code, a devDependency) in a home of its own, where
 * `claude mcp add` only writes ~/.claude.json (and a backup of it); its entry is read back. The
 * generic command is the program itself.
 */

/** How long `claude mcp add` takes on a quiet machine (it starts a 400 MB binary and writes one file). */
const CLAUDE_QUIET_MS = 1_500;

let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** `claude` on PATH as npm installs it: the package's own wrapper, which finds the binary for this platform. */
function claudeOnPath(): string {
  const bin = join(home, 'bin');
  mkdirSync(bin);
  const wrapper = join(__dirname, '..', '..', 'node_modules', '@anthropic-ai', 'claude-code', 'cli-wrapper.cjs');
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${process.execPath}' '${wrapper}' "$@"\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  return bin;
}

/** The shown command pasted into sh, in the temporary home: its exit, what it said, and the files it left there. */
function runInShell(command: string, bin: string): { status: number | null; said: string; files: string[] } {
  const run = spawnSync('/bin/sh', ['-c', command], {
    cwd: home,
    env: {
      HOME: home,
      PATH: `${bin}:/usr/bin:/bin`,
      // No update, no telemetry, no network: the command only edits the configuration.
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
    },
    input: '',
    encoding: 'utf8',
    timeout: guardMs(CLAUDE_QUIET_MS),
  });
  const files = readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(home, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('bin/'));
  return { status: run.status, said: `${run.stdout}${run.stderr}`, files };
}

const launches: [string, Launch][] = [
  [
    "VS Code's own Node (Electron)",
    launchOf('/home/me/.config/Code/User/globalStorage/x/mcp/helpdesk-mcp.js', '/usr/share/code/code', true),
  ],
  [
    'paths with spaces and a quote, plain Node',
    launchOf('/Users/me/Library/Application Support/Code/x/helpdesk-mcp.js', "/Applications/It's Code.app/node", false),
  ],
];

describe("Connect an Agent…: Claude Code's command, run by Claude Code itself", () => {
  for (const [name, launch] of launches) {
    it(`${name}: claude mcp add writes the helpdesk's entry to ~/.claude.json, as shown`, () => {
      home = mkdtempSync(join(tmpdir(), 'hd-claude-'));
      const command = agentConfigs(launch, home).claudeCode.shellCommand!;
      const { status, said, files } = runInShell(command, claudeOnPath());
      assert.equal(status, 0, `${command}\n${said}`);
      assert.deepEqual(
        files.filter((file) => !file.startsWith('.claude/backups/')),
        ['.claude.json'],
        'nothing written but its configuration (and its backup of it)',
      );
      const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
      assert.deepEqual(config.mcpServers, {
        helpdesk: { type: 'stdio', command: launch.command, args: [...launch.args], env: { ...launch.env } },
      });
    });
  }
});

describe('Connect an Agent…: the command for any other MCP client, run by a shell', () => {
  it('starts the program with the entry and the environment, whatever the paths hold', () => {
    home = mkdtempSync(join(tmpdir(), "hd-agent it's-"));
    // A program in the entry's place that says how it was started.
    const entry = join(home, 'Application Support', "it's helpdesk-mcp.js");
    mkdirSync(join(home, 'Application Support'));
    writeFileSync(entry, 'console.log(JSON.stringify({ args: process.argv.slice(2), env: process.env.ELECTRON_RUN_AS_NODE ?? null }))');
    for (const electron of [true, false]) {
      const launch = launchOf(entry, process.execPath, electron);
      const run = spawnSync('/bin/sh', ['-c', agentConfigs(launch, home).generic.shellCommand!], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
        timeout: guardMs(500),
      });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { args: [], env: electron ? '1' : null });
    }
  });
});
