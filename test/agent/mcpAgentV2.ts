// An agent on the official TypeScript SDK's v2 client (@modelcontextprotocol/client), beside
// mcpAgent.ts's v1 one: the same stdio entry, spoken to as newer agents speak.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export interface AgentV2 {
  readonly client: Client;
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export async function startAgentV2(name: string, entry: string, folder: string): Promise<AgentV2> {
  const env = process.versions.electron ? { ...getDefaultEnvironment(), ELECTRON_RUN_AS_NODE: '1' } : undefined;
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, '--dir', folder], env, stderr: 'pipe' });
  const client = new Client({ name, version: '2.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return { text: content.map((part) => part.text ?? '').join('\n'), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
