// The helpdesk as an MCP server on stdio, for agents outside VS Code (Claude Code, Cursor, Copilot
// CLI, Windsurf, any MCP client): `node helpdesk-mcp.js [--dir <folder>]`. It holds no token and
// makes no request to the helpdesk: each call goes to the VS Code window signed in (see
// endpointClient.ts), which asks the person before any write and answers in words. Built into a
// bundle of its own (dist/mcp.js); the extension never loads it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { dirname } from 'node:path';
import { MCP_TOOL_DEFINITIONS } from './definitions';
import { EndpointClient } from './endpointClient';
import { IN_VSCODE_CHAT, IN_VSCODE_CHAT_INSTRUCTIONS } from '../protocol';

declare const VERSION: string;

/** What some clients call themselves in the handshake, as people know them. */
const KNOWN_CLIENTS: Readonly<Record<string, string>> = { 'claude-code': 'Claude Code', 'cursor-vscode': 'Cursor' };

/** The folder of the connection file: `--dir`, else HELPDESK_BRIDGE_MCP_DIR, else this file's own (the copy in the extension's storage). */
function connectionFolder(argv: readonly string[]): string {
  const at = argv.indexOf('--dir');
  if (at !== -1 && argv[at + 1]) return argv[at + 1]!;
  return process.env.HELPDESK_BRIDGE_MCP_DIR || dirname(__filename);
}

async function main(): Promise<void> {
  const info = { name: 'helpdesk-bridge', title: 'Helpdesk (VS Code)', version: typeof VERSION === 'string' ? VERSION : '0.0.0' };
  if (process.argv.includes(IN_VSCODE_CHAT)) {
    // Started by VS Code's own list: its chat has the tools as its own (see IN_VSCODE_CHAT).
    const server = new McpServer(info, { capabilities: { tools: {} }, instructions: IN_VSCODE_CHAT_INSTRUCTIONS });
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    return serve(server, () => undefined);
  }
  const server = new McpServer(info);
  const client = () => {
    const info = server.server.getClientVersion();
    const name = (typeof info?.title === 'string' && info.title) || (typeof info?.name === 'string' && info.name) || '';
    return KNOWN_CLIENTS[name] ?? name;
  };
  const endpoint = new EndpointClient(connectionFolder(process.argv.slice(2)), client);
  for (const tool of MCP_TOOL_DEFINITIONS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.shape,
        // Every write files or changes at most once for the same input (and the same idempotency key): idempotent.
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: tool.destructive === true, idempotentHint: true, openWorldHint: true },
        ...(tool.output && { outputSchema: tool.output }),
      },
      async (input: unknown, extra: { signal: AbortSignal }) => {
        const { text, reached, data } = await endpoint.call(tool.name, input, extra.signal);
        const content = [{ type: 'text' as const, text }];
        if (!tool.output) return { content, isError: !reached };
        // A read's data, read through its output schema where it enters: a read without data of that shape
        // (signed out, no such post, a window that sent something else) is answered as an error, in its words.
        const read = reached ? tool.output.safeParse(data) : undefined;
        return read?.success ? { content, structuredContent: read.data } : { content, isError: true };
      },
    );
  }
  await serve(server, () => endpoint.close());
}

async function serve(server: McpServer, close: () => void): Promise<void> {
  const transport = new StdioServerTransport();
  // The agent closed its end: nothing more will be asked, so the entry ends (no process left behind).
  const end = () => {
    close();
    process.exit(0);
  };
  transport.onclose = end;
  process.stdin.once('end', end);
  await server.connect(transport);
}

main().catch(() => {
  process.stderr.write('helpdesk-mcp: could not start.\n');
  process.exit(1);
});
