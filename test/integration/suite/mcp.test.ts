import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { IMPOSTOR, NO_WINDOW } from '../../../src/agent/mcp/entry/endpointClient';
import { CONNECTION_FILE, ENTRY_FILE, IN_VSCODE_CHAT, parseConnection } from '../../../src/agent/mcp/protocol';
import { startAgent, type Agent } from '../../agent/mcpAgent';
import { assertNoTokenIn, extensionApi, outputLog, serverPosts, signInToStandIn, standIn, useCleanSlate, waitFor } from './helpers';

/*
 * Issue 37 in a real extension host: VS Code's own registration where the API exists (1.101 and
 * later) and its absence before; and the stdio entry, started as an agent starts it (the copy in
 * the connection folder that Connect an Agent… names), driven by the MCP SDK's own client against
 * this window's endpoint. Modal questions are answered through the test API (ui.answerNextQuestion);
 * the UI test shows the same question in the workbench.
 */

const postsFiled = async () => (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
const minor = Number(vscode.version.split('.')[1]);
/** The question an agent named claude-code gets for a new task (the log keeps every question's first line). */
const CREATE_QUESTION = 'Claude Code asks: Create a helpdesk task?';

describe('MCP for agents outside VS Code', () => {
  useCleanSlate();
  let agents: Agent[] = [];
  let secrets: string[] = [];

  /** The endpoint's folder once this window serves agents, and the secret its connection file holds now. */
  const endpoint = async () => {
    const folder = (await extensionApi()).mcp.folder!;
    await waitFor('the endpoint to open', () => existsSync(join(folder, CONNECTION_FILE)), 'backgroundStart');
    const { secret } = parseConnection(readFileSync(join(folder, CONNECTION_FILE), 'utf8'))!;
    secrets.push(secret);
    return { folder, secret };
  };
  const agent = async (folder: string, name = 'claude-code') => {
    const started = await startAgent(name, join((await extensionApi()).mcp.folder!, ENTRY_FILE), folder);
    agents.push(started);
    return started;
  };
  /** How many times this window has asked `question` so far. */
  const asked = async (question = CREATE_QUESTION) => outputLog(await extensionApi()).split(question).length - 1;
  const filedTitled = async (title: string) =>
    (await serverPosts<{ id: number; title?: string }>()).filter((p) => p.title === title).length;

  afterEach(async () => {
    // Neither the helpdesk's token nor the endpoint's secret, in any message either way or on stderr.
    for (const { transport, stderr } of agents) {
      const exchange = `${JSON.stringify(transport.seen)}\n${stderr()}`;
      assertNoTokenIn('the MCP exchange', exchange);
      for (const secret of secrets) assert.ok(!exchange.includes(secret), "the endpoint's secret in the exchange");
    }
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
    agents = [];
    secrets = [];
  });

  it("is in VS Code's list of MCP servers where the API exists, and absent, not broken, where it does not", async () => {
    const { mcp } = await extensionApi();
    const api = vscode as unknown as {
      lm: { registerMcpServerDefinitionProvider?: unknown };
      McpStdioServerDefinition?: new (...args: never[]) => unknown;
    };
    // 1.100 has an earlier shape of the API, which refuses our manifest: absent there too.
    const has = minor >= 101;
    if (has) assert.equal(typeof api.lm.registerMcpServerDefinitionProvider, 'function', `VS Code ${vscode.version}`);
    assert.equal(mcp.registration.registered, has, `VS Code ${vscode.version}`);
    const definitions = mcp.registration.definitions();
    if (!has) return assert.deepEqual(definitions, []);
    assert.equal(definitions.length, 1);
    const [definition] = definitions as { label: string; command: string; args: string[]; env: Record<string, string> }[];
    assert.ok(definition instanceof api.McpStdioServerDefinition!);
    assert.equal(definition!.label, 'Helpdesk');
    assert.match(definition!.args[0]!, /dist[\\/]mcp\.js$/);
    // Listed there, it offers VS Code's chat no tools: the chat has them as its own (see IN_VSCODE_CHAT).
    assert.deepEqual(definition!.args.slice(1), ['--dir', mcp.folder, IN_VSCODE_CHAT]);
    const { secret } = await endpoint();
    assert.ok(!JSON.stringify(definition).includes(secret), 'the secret stays in its file');
    // Started as VS Code starts it: it answers, and lists no tools.
    const transport = new StdioClientTransport({
      command: definition!.command,
      args: definition!.args,
      env: { ...getDefaultEnvironment(), ...definition!.env },
    });
    const client = new Client({ name: 'Visual Studio Code', version: vscode.version });
    await client.connect(transport);
    try {
      assert.deepEqual((await client.listTools()).tools, []);
      assert.match(client.getInstructions() ?? '', /Connect an Agent/);
    } finally {
      await client.close();
    }
  });

  it("the stdio entry, driven by the SDK's client: tools listed, a search, a task asked and created, one declined", async () => {
    const { ui } = await extensionApi();
    const a = await agent((await endpoint()).folder);
    const { tools } = await a.client.listTools();
    assert.equal(tools.length, 6);
    assert.match((await a.call('helpdesk_searchPosts', { state: 'all' })).text, /posts matched/);
    const before = (await postsFiled()).length;
    ui.answerNextQuestion('Continue');
    assert.match(
      (await a.call('helpdesk_createTask', { title: `From an agent ${Date.now()}`, description: 'Asked in the window.' })).text,
      /^Task \S+ created\. Web page: /,
    );
    assert.equal((await postsFiled()).length, before + 1);
    ui.answerNextQuestion(undefined);
    assert.match(
      (await a.call('helpdesk_createTask', { title: `Declined ${Date.now()}` })).text,
      /^The person declined in VS Code: nothing was written/,
    );
    assert.equal((await postsFiled()).length, before + 1);
  });

  it('a call killed mid-write, then made again: one post', async () => {
    const { ui } = await extensionApi();
    const { folder } = await endpoint();
    const input = { title: `Killed mid-write ${Date.now()}`, description: 'The agent died while VS Code was sending.' };
    const questions = await asked();
    await standIn.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 1 });
    ui.answerNextQuestion('Continue');
    const first = await agent(folder);
    void first.call('helpdesk_createTask', input).catch(() => undefined);
    await waitFor('the POST to be under way', async () => (await postsFiled()).length === 1, 'agentCall');
    process.kill(first.transport.inner.pid!, 'SIGKILL');
    // Asked again (the first answer went with its agent); the yes finds the write under way.
    ui.answerNextQuestion('Continue');
    const calling = (await agent(folder)).call('helpdesk_createTask', input);
    await waitFor('the second call to be asked', async () => (await asked()) === questions + 2, 'agentCall');
    assert.equal(await standIn.release(), 1, 'the first POST held at the helpdesk until now');
    const again = await calling;
    assert.match(again.text, /^Task \S+ created\. Web page: /);
    assert.equal(await asked(), questions + 2, 'each call asked once');
    await waitFor('the draft to be settled', async () => (await extensionApi()).drafts.all().length === 0, 'agentCall');
    assert.equal((await postsFiled()).length, 1);
    assert.equal(await filedTitled(input.title), 1);
  });

  it('two calls at once: one question, one post, the same answer', async () => {
    const { ui } = await extensionApi();
    const a = await agent((await endpoint()).folder);
    const input = { title: `Twice at once ${Date.now()}`, description: 'Same call, twice.' };
    const questions = await asked();
    ui.answerNextQuestion('Continue');
    const [one, two] = await Promise.all([a.call('helpdesk_createTask', input), a.call('helpdesk_createTask', input)]);
    assert.match(one.text, /^Task \S+ created\./);
    assert.equal(one.text, two.text);
    assert.equal(await asked(), questions + 1);
    assert.equal((await postsFiled()).length, 1);
    assert.equal(await filedTitled(input.title), 1);
  });

  it('a wrong or missing secret is refused before any tool runs, with no request to the helpdesk', async () => {
    const { folder, secret } = await endpoint();
    const forged = mkdtempSync(join(tmpdir(), 'hb-mcp-forged-'));
    try {
      const real = readFileSync(join(folder, CONNECTION_FILE), 'utf8');
      writeFileSync(join(forged, CONNECTION_FILE), real.replace(secret, 'f'.repeat(secret.length)));
      const wrong = await (await agent(forged)).call('helpdesk_searchPosts', { state: 'all' });
      // Another secret in the file: what answers cannot prove it knows that one, so nothing of the call is sent.
      assert.equal(wrong.text, IMPOSTOR);
      assert.equal(wrong.isError, true);
      writeFileSync(join(forged, CONNECTION_FILE), real.replace(`"${secret}"`, '""'));
      const questions = await asked();
      const missing = await (await agent(forged)).call('helpdesk_createTask', { title: 'Never asked' });
      assert.equal(missing.text, NO_WINDOW);
      assert.equal(await asked(), questions, 'nobody was asked');
      assert.deepEqual(await standIn.requests(), [], 'no request to the helpdesk');
    } finally {
      rmSync(forged, { recursive: true, force: true });
    }
  });

  it('signed out: each tool answers in words what to do, and nothing is asked or requested; signed in again, it serves', async () => {
    const { folder } = await endpoint();
    const a = await agent(folder);
    await vscode.commands.executeCommand('helpdesk.signOut');
    await waitFor('the endpoint to close', () => !existsSync(join(folder, CONNECTION_FILE)));
    await standIn.clearRequests();
    const questions = await asked();
    for (const [tool, args] of [
      ['helpdesk_searchPosts', {}],
      ['helpdesk_getPost', { post: 1 }],
      ['helpdesk_createTask', { title: 'x' }],
      ['helpdesk_updatePost', { post: 1, closed: true }],
    ] as const) {
      assert.equal((await a.call(tool, args)).text, NO_WINDOW, tool);
    }
    assert.equal(await asked(), questions);
    assert.deepEqual(await standIn.requests(), []);
    // The same agent, still running, is served again once the window is signed in.
    await signInToStandIn();
    await endpoint();
    assert.match((await a.call('helpdesk_searchPosts', { state: 'all' })).text, /posts matched/);
  });
});
