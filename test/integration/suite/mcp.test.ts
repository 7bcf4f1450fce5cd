import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { CONNECTION_FILE, parseConnection } from '../../../src/mcp/protocol';
import { assertNoTokenIn, extensionApi, standIn, useCleanSlate, waitFor } from './helpers';

/*
 * Issue 37 in a real extension host: VS Code's own registration where the API exists (1.101 and
 * later) and its absence before; and the stdio entry, started as VS Code (or an agent) starts it,
 * driven by the MCP SDK's own client against this window's endpoint.
 */

const postsFiled = async () => (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
const minor = Number(vscode.version.split('.')[1]);

describe('MCP for agents outside VS Code', () => {
  useCleanSlate();

  it('is in VS Code\'s list of MCP servers where the API exists, and absent, not broken, where it does not', async () => {
    const { mcp } = await extensionApi();
    const api = vscode as unknown as { lm: { registerMcpServerDefinitionProvider?: unknown }; McpStdioServerDefinition?: new (...args: never[]) => unknown };
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
    assert.deepEqual(definition!.args.slice(1), ['--dir', mcp.folder]);
    await waitFor('the endpoint to open', () => existsSync(join(mcp.folder!, CONNECTION_FILE)), 10_000);
    const { secret } = parseConnection(readFileSync(join(mcp.folder!, CONNECTION_FILE), 'utf8'))!;
    assert.ok(!JSON.stringify(definition).includes(secret), 'the secret stays in its file');
  });

  it('the stdio entry, driven by the SDK\'s client: tools listed, a search, a task asked and created, one declined', async () => {
    const { mcp, ui } = await extensionApi();
    const folder = mcp.folder!;
    await waitFor('the endpoint to open', () => existsSync(join(folder, CONNECTION_FILE)), 10_000);
    const entry = join(vscode.extensions.getExtension('helpdesk-bridge.helpdesk-bridge')!.extensionPath, 'dist', 'mcp.js');
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry, '--dir', folder], env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    const said: string[] = [];
    const text = (result: Awaited<ReturnType<Client['callTool']>>) => {
      const words = (result.content as { text?: string }[]).map((part) => part.text ?? '').join('\n');
      said.push(words);
      return words;
    };
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 6);
      said.push(JSON.stringify(tools));
      assert.match(text(await client.callTool({ name: 'helpdesk_searchPosts', arguments: { state: 'all' } })), /posts matched/);
      const before = (await postsFiled()).length;
      ui.answerNextQuestion('Continue');
      assert.match(text(await client.callTool({ name: 'helpdesk_createTask', arguments: { title: `From an agent ${Date.now()}`, description: 'Asked in the window.' } })), /^Task \S+ created\. Web page: /);
      assert.equal((await postsFiled()).length, before + 1);
      ui.answerNextQuestion(undefined);
      assert.match(text(await client.callTool({ name: 'helpdesk_createTask', arguments: { title: `Declined ${Date.now()}` } })), /^The person declined in VS Code: nothing was written/);
      assert.equal((await postsFiled()).length, before + 1);
    } finally {
      await client.close();
    }
    assertNoTokenIn('the MCP exchange', `${said.join('\n')}\n${stderr}`);
  });
});
