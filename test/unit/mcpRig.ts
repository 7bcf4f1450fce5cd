/**
 * The MCP door against a stand-in, the editor faked: the window's real tools (read, write,
 * update: one HelpdeskTools, as src/extension.ts makes it), its endpoint on a real socket, and the
 * stdio entry (dist/mcp.js) run as an agent runs it, driven by the SDK's own Client over stdio.
 * Every message both ways, and the entry's stderr, are kept for the test to scan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DraftStore } from '../../src/drafts/drafts';
import { FiledIntents } from '../../src/drafts/filedIntents';
import { DraftSender } from '../../src/drafts/sendDraft';
import { Identity } from '../../src/identity/identity';
import { Log } from '../../src/log';
import { mcpDispatch, type Ask } from '../../src/mcp/dispatch';
import { openEndpoint, type Endpoint, type EndpointCall } from '../../src/mcp/endpoint';
import type { Services } from '../../src/services';
import { postTools } from '../../src/tools/postTools';
import type { HelpdeskTools } from '../../src/tools/registerTools';
import { updatePostTool } from '../../src/tools/updatePostTool';
import { writeTools } from '../../src/tools/writeTools';
import { Notifier } from '../../src/ui/notifier';
import type { StandIn } from '../server';
import { MemoryFolder, memoryState } from './memoryState';
import { postToolsRig } from './postToolsRig';

/** The stdio entry, as `node esbuild.mjs --unit` builds it (out/unit/x.test.js → dist/mcp.js). */
export const ENTRY = join(__dirname, '..', '..', 'dist', 'mcp.js');

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

/** Starts the stdio entry as `name` would, reading the connection file in `folder`. */
export async function startAgent(name: string, folder: string): Promise<Agent> {
  const inner = new StdioClientTransport({ command: process.execPath, args: [ENTRY, '--dir', folder], stderr: 'pipe' });
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

/**
 * One window signed in to the stand-in, its endpoint open in a fresh folder. `answers` are the
 * person's answers to the next questions, in order (true: Continue); every question is kept.
 */
export async function mcpRig(server: StandIn) {
  const { session, gateway, store } = postToolsRig(server);
  const log = new Log();
  const ui = new Notifier(log);
  const identity = new Identity(memoryState());
  const drafts = new DraftStore(memoryState(), new MemoryFolder(), new MemoryFolder());
  const sender = new DraftSender(gateway, drafts, ui, log, undefined, new FiledIntents(new MemoryFolder()));
  const services = { session, gateway, drafts, sender, ui, log } as unknown as Services;
  const tools: HelpdeskTools = { ...postTools(gateway, store, identity), ...writeTools(services), ...updatePostTool(services, identity, { showUpdated: () => undefined, shownIn: () => undefined }) };
  const questions: { question: string; detail: string }[] = [];
  const answers: (boolean | Promise<boolean>)[] = [];
  const ask: Ask = async (question, detail) => {
    questions.push({ question, detail });
    return (await answers.shift()) ?? false;
  };
  const calls: EndpointCall[] = [];
  const dispatch = mcpDispatch(tools, ask);
  const folder = mkdtempSync(join(tmpdir(), 'hb-mcp-test-'));
  const logLines: string[] = [];
  const endpoint: Endpoint = await openEndpoint({
    folder,
    log: (line) => logLines.push(line),
    handle: (call, signal) => {
      calls.push(call);
      return dispatch(call, signal);
    },
  });
  return {
    session,
    gateway,
    tools,
    drafts,
    folder,
    endpoint,
    questions,
    answers,
    calls,
    logLines,
    async close() {
      await endpoint.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
