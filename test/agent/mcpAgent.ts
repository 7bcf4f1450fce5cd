// An agent outside VS Code, as the tests drive one: the stdio entry (dist/mcp.js) run as an agent
// runs it, driven by the MCP SDK's own Client over stdio. Every message both ways, and the entry's
// stderr, are kept for the test to scan. Used by the unit tests (against a faked editor) and by the
// integration and UI tests (against a real window).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A transport that keeps every message it sends and receives. */
export class Recording implements Transport {
  readonly seen: JSONRPCMessage[] = [];
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  constructor(readonly inner: StdioClientTransport) {}

  start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage) => {
      this.seen.push(message);
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.seen.push(message);
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface Agent {
  readonly client: Client;
  readonly transport: Recording;
  /** What the entry wrote on stderr. */
  readonly stderr: () => string;
  /** The text of a call's answer, and whether it is marked an error. */
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** Starts the stdio entry as `name` would, reading the connection file in `folder`, with `more` arguments. */
export async function startAgent(name: string, entry: string, folder: string, more: readonly string[] = []): Promise<Agent> {
  // Under Electron (a desktop extension host), its binary runs as Node only when told to.
  const env = process.versions.electron ? { ...getDefaultEnvironment(), ELECTRON_RUN_AS_NODE: '1' } : undefined;
  const inner = new StdioClientTransport({ command: process.execPath, args: [entry, '--dir', folder, ...more], env, stderr: 'pipe' });
  let stderr = '';
  inner.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const transport = new Recording(inner);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      return { text: content.map((part) => part.text ?? '').join('\n'), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
