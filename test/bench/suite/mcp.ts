// An MCP read's round trip against the same tool through VS Code's chat, in one extension host:
// an agent outside VS Code (the stdio entry this window's endpoint copied, driven by the MCP SDK's
// own client: its JSON-RPC over stdio, the link to this window, the tool, the way back and the
// client's check of the result against the tool's output schema) and VS Code's own call of the
// language model tool (vscode.lm.invokeTool: through the workbench and back to this host's tool).
// Each pair calls both with the same input, in alternating order, after a few calls of each.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CONNECTION_FILE, ENTRY_FILE } from '../../../src/agent/mcp/protocol';
import { startAgent } from '../../agent/mcpAgent';
import { limitMs } from '../../limits';
import type { BenchAccount, McpFigures } from '../results';
import { signIn } from './session';

const WARM_UP = 5;

async function waitFor(what: string, done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`Waited ${ms / 1000} s for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The answer's words, from either door: both must have answered the tool's words, not a failure. */
function checked(door: string, tool: string, text: string, isError: boolean): void {
  if (isError || !/^(Post |\d+ posts matched|The \d+ newest)/.test(text))
    throw new Error(`${tool} through ${door} answered: ${text.slice(0, 200)}`);
}

export async function measureMcp(account: BenchAccount, pairs: number): Promise<McpFigures> {
  const api = await signIn(account);
  const folder = api.mcp.folder;
  if (!folder) throw new Error('The extension has no MCP connection folder (its storage is not on disk).');
  // The endpoint opens with the window's background start, a few seconds after signing in.
  await waitFor('the MCP endpoint to open', () => existsSync(join(folder, CONNECTION_FILE)), limitMs('backgroundStart'));
  const agent = await startAgent('bench', join(folder, ENTRY_FILE), folder);
  try {
    // Listed first, as an agent does: its client checks each result against the tool's output schema.
    await agent.client.listTools();
    const search = { state: 'all', limit: 5 };
    const found = await agent.client.callTool({ name: 'helpdesk_searchPosts', arguments: search });
    const first = (found.structuredContent as { posts?: { reference: string }[] } | undefined)?.posts?.[0]?.reference;
    if (!first) throw new Error(`helpdesk_searchPosts through MCP found no post: ${JSON.stringify(found.content).slice(0, 200)}`);
    const calls: { tool: string; input: Record<string, unknown> }[] = [
      { tool: 'helpdesk_getPost', input: { post: first } },
      { tool: 'helpdesk_searchPosts', input: search },
    ];
    const mcp = async (tool: string, input: Record<string, unknown>) => {
      const started = performance.now();
      const result = await agent.client.callTool({ name: tool, arguments: input });
      const ms = performance.now() - started;
      const text = (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');
      checked('MCP', tool, text, result.isError === true || result.structuredContent === undefined);
      return ms;
    };
    const chat = async (tool: string, input: Record<string, unknown>) => {
      const started = performance.now();
      const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
      const ms = performance.now() - started;
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      checked("VS Code's chat", tool, text, false);
      return ms;
    };
    const reads: McpFigures['reads'] = [];
    for (const { tool, input } of calls) {
      for (let i = 0; i < WARM_UP; i++) {
        await mcp(tool, input);
        await chat(tool, input);
      }
      const figures = { tool, mcp: [] as number[], chat: [] as number[] };
      for (let i = 0; i < pairs; i++) {
        if (i % 2 === 0) {
          figures.mcp.push(await mcp(tool, input));
          figures.chat.push(await chat(tool, input));
        } else {
          figures.chat.push(await chat(tool, input));
          figures.mcp.push(await mcp(tool, input));
        }
      }
      reads.push(figures);
    }
    return { posts: account.posts, reads };
  } finally {
    await agent.close().catch(() => undefined);
  }
}
