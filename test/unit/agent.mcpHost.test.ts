import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { agentConfigs, configText, launchOf, mergedConfig } from '../../src/agent/mcp/agentConfigs';
import { EndpointClient, NO_WINDOW } from '../../src/agent/mcp/entry/endpointClient';
import { McpHost } from '../../src/agent/mcp/host';
import { CONNECTION_FILE, ENTRY_FILE, parseConnection } from '../../src/agent/mcp/protocol';
import { Log } from '../../src/log';
import { EventEmitter, Uri } from './fakeVscode';

/* Issue 37: the endpoint's life in a window, and what Connect an Agent… gives each agent. */

describe("MCP: the endpoint's host in a window", () => {
  let base: string;
  let entry: string;
  const hosts: McpHost[] = [];
  const windowOf = (signedIn: boolean) => {
    const changed = new EventEmitter<void>();
    const window = { current: signedIn ? ({ url: 'https://acme.example' } as never) : undefined, onDidChange: changed.event };
    return {
      window,
      sign: (now: boolean) => ((window.current = now ? ({ url: 'https://acme.example' } as never) : undefined), changed.fire()),
    };
  };
  const host = (window: ReturnType<typeof windowOf>['window']) => {
    const made = new McpHost(join(base, 'mcp'), Uri.file(entry) as never, window, () => Promise.resolve({ text: 'answered' }), new Log());
    hosts.push(made);
    return made;
  };
  const named = () => parseConnection(readFileSync(join(base, 'mcp', CONNECTION_FILE), 'utf8'))?.socket;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'hb-mcp-host-'));
    entry = join(base, 'mcp.js');
    writeFileSync(entry, '// the entry, version 1\n');
  });
  afterEach(async () => {
    for (const made of hosts.splice(0)) made.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    rmSync(base, { recursive: true, force: true });
  });

  it('opens while signed in, with the entry copied beside the connection file; closes at sign-out', async () => {
    const { window, sign } = windowOf(false);
    const one = host(window);
    await one.look();
    assert.ok(!existsSync(join(base, 'mcp', CONNECTION_FILE)), 'signed out: no endpoint');
    sign(true);
    await one.look();
    assert.ok(named());
    assert.equal(readFileSync(join(base, 'mcp', ENTRY_FILE), 'utf8'), '// the entry, version 1\n');
    sign(false);
    await one.look();
    assert.ok(!existsSync(join(base, 'mcp', CONNECTION_FILE)), 'the file goes with the endpoint');
  });

  it('a second window signed in leaves the first serving, and takes over once it closes', async () => {
    const first = host(windowOf(true).window);
    await first.look();
    const served = named();
    const second = host(windowOf(true).window);
    await second.look();
    assert.equal(named(), served);
    first.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await second.look();
    assert.ok(named() && named() !== served);
  });

  // Reading a pipe waits until something writes to it: the agent's call, and a window's look, would wait for ever.
  it(
    "a pipe in the connection file's or the entry's place is none: the agent is told no window serves, and a window puts its own there",
    { timeout: 5000, skip: process.platform === 'win32' },
    async () => {
      mkdirSync(join(base, 'mcp'));
      execFileSync('mkfifo', [join(base, 'mcp', CONNECTION_FILE)]);
      execFileSync('mkfifo', [join(base, 'mcp', ENTRY_FILE)]);
      const answer = await new EndpointClient(join(base, 'mcp'), () => 'agent').call(
        'helpdesk_list_posts' as never,
        {},
        new AbortController().signal,
      );
      assert.deepEqual(answer, { text: NO_WINDOW, reached: false });
      await host(windowOf(true).window).look();
      assert.ok(named());
      assert.equal(readFileSync(join(base, 'mcp', ENTRY_FILE), 'utf8'), '// the entry, version 1\n');
    },
  );

  it('a file left by a window that crashed is replaced', async () => {
    mkdirSync(join(base, 'mcp'));
    writeFileSync(
      join(base, 'mcp', CONNECTION_FILE),
      JSON.stringify({ version: 1, socket: join(base, 'gone.sock'), secret: 'a'.repeat(64), pid: 1 }),
    );
    await host(windowOf(true).window).look();
    assert.notEqual(named(), join(base, 'gone.sock'));
  });
});

describe('MCP: Connect an Agent… configurations', () => {
  const launch = launchOf('/home/me/.config/Code/User/globalStorage/x/mcp/helpdesk-mcp.js', '/usr/share/code/code', true);

  it('each agent gets a program, the entry and ELECTRON_RUN_AS_NODE, and nothing secret', () => {
    const configs = agentConfigs(launch, '/home/me');
    assert.equal(
      configs.claudeCode.shellCommand,
      'claude mcp add helpdesk --scope user -e ELECTRON_RUN_AS_NODE=1 -- /usr/share/code/code /home/me/.config/Code/User/globalStorage/x/mcp/helpdesk-mcp.js',
    );
    assert.equal(configs.cursor.file?.path, '/home/me/.cursor/mcp.json');
    assert.equal(configs.windsurf.file?.path, '/home/me/.codeium/windsurf/mcp_config.json');
    assert.deepEqual(JSON.parse(configText(configs.copilotCli.file!.entry)), {
      mcpServers: {
        helpdesk: {
          type: 'local',
          command: '/usr/share/code/code',
          args: [launch.args[0]],
          env: { ELECTRON_RUN_AS_NODE: '1' },
          tools: ['*'],
        },
      },
    });
    assert.ok(!/token|secret/i.test(JSON.stringify(configs)));
  });

  it('quotes paths with spaces for the shell', () => {
    const spaced = launchOf('/Users/me/Library/Application Support/Code/x/helpdesk-mcp.js', "/Applications/It's Code.app/node", false);
    assert.equal(
      agentConfigs(spaced).generic.shellCommand,
      `'/Applications/It'\\''s Code.app/node' '/Users/me/Library/Application Support/Code/x/helpdesk-mcp.js'`,
    );
  });

  it('merges into a file as it is, and never overwrites one it cannot read', () => {
    const entry = agentConfigs(launch).cursor.file!.entry;
    const merged = mergedConfig('{"mcpServers":{"other":{"command":"x"}},"theme":"dark"}', entry);
    assert.ok('text' in merged);
    assert.deepEqual(Object.keys(JSON.parse(merged.text).mcpServers), ['other', 'helpdesk']);
    assert.equal(JSON.parse(merged.text).theme, 'dark');
    for (const bad of ['{', '[1]', '{"mcpServers": 3}', 'null']) assert.ok('problem' in mergedConfig(bad, entry), bad);
    const made = mergedConfig(undefined, entry);
    assert.deepEqual('text' in made && JSON.parse(made.text), { mcpServers: { helpdesk: entry } });
  });
});
