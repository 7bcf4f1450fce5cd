// The local link between the MCP stdio entry (src/agent/mcp/entry/stdio.ts, run by an agent outside VS Code)
// and the VS Code window that acts for it (src/agent/mcp/endpoint.ts): newline-delimited JSON over a
// Unix socket or a Windows named pipe. The window writes where its endpoint is, with a secret made
// for this run, to a file only the user can read (connection.json); the entry must say that secret
// first, or the connection is closed before anything else is read. The helpdesk's token is never
// on this link: the window acts with it, and answers in words. No vscode import, no SDK import:
// both bundles use it.
import { readBounded } from '../../globalStorage/readBounded';

/** The tools the MCP server offers; each is the language model tool of the same name (src/agent/tools/). */
export const MCP_TOOLS = [
  'helpdesk_searchPosts',
  'helpdesk_getPost',
  'helpdesk_fileBug',
  'helpdesk_createTask',
  'helpdesk_commentOnPost',
  'helpdesk_updatePost',
] as const;
export type McpToolName = (typeof MCP_TOOLS)[number];

export function isMcpTool(name: unknown): name is McpToolName {
  return typeof name === 'string' && (MCP_TOOLS as readonly string[]).includes(name);
}

/**
 * The argument VS Code's own registration adds (src/agent/mcp/register.ts): VS Code's chat has these
 * tools already as its own language model tools, asked in the chat itself. Listed by the server
 * too, the model would see each tool twice, and a write through it would be asked twice (VS
 * Code's question for an MCP tool, then the window's). Started with it, the server lists none.
 */
export const IN_VSCODE_CHAT = '--in-vscode-chat';
/** What the server started with IN_VSCODE_CHAT says of itself (the handshake's instructions). */
export const IN_VSCODE_CHAT_INSTRUCTIONS =
  "In VS Code's chat the helpdesk's tools are VS Code's own (#helpdesk, #helpdeskPost and the others), so this server lists none there. It serves agents outside VS Code: run \"Helpdesk: Connect an Agent…\" to connect one.";

/** The file, in the connection folder, that says where the endpoint is and holds its secret (mode 0600). */
export const CONNECTION_FILE = 'connection.json';
/** The folder under the extension's global storage that holds the connection file and the stdio entry's copy. */
export const CONNECTION_FOLDER = 'mcp';
/** The stdio entry's copy in the connection folder: its path stays the same across updates of the extension. */
export const ENTRY_FILE = 'helpdesk-mcp.js';

export interface ConnectionFile {
  readonly version: 1;
  /** The socket's path, or the pipe's name on Windows. */
  readonly socket: string;
  /** Made for this run of the window's endpoint; 64 hex digits. */
  readonly secret: string;
  readonly pid: number;
}

/** A socket's path, a secret and a pid: a larger connection file is none a window wrote. */
const MAX_CONNECTION_CHARS = 4096;

/** The connection file's content, or undefined for anything of another shape (never its text: it holds the secret). */
export function parseConnection(text: string): ConnectionFile | undefined {
  if (text.length > MAX_CONNECTION_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, socket, secret, pid } = value as Record<string, unknown>;
  if (version !== 1 || typeof socket !== 'string' || socket.length === 0 || socket.length > 1024) return undefined;
  if (typeof secret !== 'string' || !/^[0-9a-f]{64}$/.test(secret)) return undefined;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid)) return undefined;
  return { version, socket, secret, pid };
}

/** The connection file at `path`, read to the bound of its content and never waited on (see readBounded.ts): undefined when there is none of this shape. */
export async function readConnection(path: string): Promise<ConnectionFile | undefined> {
  const read = await readBounded(path, MAX_CONNECTION_CHARS).catch(() => undefined);
  return read && parseConnection(read.bytes.toString('utf8'));
}

/** Entry → window. `hello` first and once; then calls, and cancels of calls under way. */
export type ToWindow =
  | { readonly t: 'hello'; readonly secret: string; readonly client: string }
  | { readonly t: 'call'; readonly id: number; readonly tool: McpToolName; readonly input: unknown }
  | { readonly t: 'cancel'; readonly id: number };

/** Window → entry. */
export type ToEntry =
  | { readonly t: 'welcome' }
  | { readonly t: 'refused'; readonly why: string }
  | { readonly t: 'result'; readonly id: number; readonly text: string };

/** The longest line before the hello is accepted (a hello is about 200 bytes). */
export const HELLO_BYTES = 1024;
/** The longest line after it: a call's input (the longest text a tool takes is 10,000 characters, escaped). */
export const LINE_BYTES = 256 * 1024;
/** The longest answer: the tools bound theirs well below. */
export const ANSWER_CHARS = 64 * 1024;
/** The longest name of the client, as the question shows it. */
export const CLIENT_CHARS = 60;

/**
 * Splits a stream of chunks into lines, each at most `max()` bytes: a longer line (or a longer
 * unfinished tail) is `tooLong`, and the connection is to be closed. Linear in what is read.
 */
export class LineReader {
  private tail: Buffer[] = [];
  private tailBytes = 0;

  constructor(private readonly max: () => number) {}

  /** The complete lines in `chunk` (with what came before it), or 'tooLong'. */
  push(chunk: Buffer): string[] | 'tooLong' {
    const lines: string[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, at);
      if (this.tailBytes + piece.length > this.max()) return 'tooLong';
      lines.push(Buffer.concat([...this.tail, piece]).toString('utf8'));
      this.tail = [];
      this.tailBytes = 0;
      start = at + 1;
    }
    const rest = chunk.subarray(start);
    if (this.tailBytes + rest.length > this.max()) return 'tooLong';
    if (rest.length > 0) {
      this.tail.push(rest);
      this.tailBytes += rest.length;
    }
    return lines;
  }
}

/** One message as a line. */
export function lineOf(message: ToWindow | ToEntry): string {
  return `${JSON.stringify(message)}\n`;
}

/** A parsed line as an object, or undefined. */
export function objectOf(line: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
