// The local link between the MCP stdio entry (src/agent/mcp/entry/stdio.ts, run by an agent outside VS Code)
// and the VS Code window that acts for it (src/agent/mcp/endpoint.ts): newline-delimited JSON over a
// Unix socket or a Windows named pipe. The window writes where its endpoint is, with a secret made
// for this run, to a file only the user can read (connection.json). Before any call, the window
// proves to the entry that it knows that secret, then the entry to the window, neither saying it
// (linkProof.ts); a connection that does not is closed before anything else is read. The helpdesk's token is never
// on this link: the window acts with it, and answers in words (a read, with its data too). No vscode
// import, no SDK import: both bundles use it.
import { readBounded } from '../../globalStorage/readBounded';
import type { PostData, SearchData } from '../tools/readData';

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

/** Entry → window. `hello` first and once, then `proof` (see linkProof.ts); then calls, and cancels of calls under way. */
export type ToWindow =
  | { readonly t: 'hello'; readonly nonce: string; readonly client: string }
  | { readonly t: 'proof'; readonly proof: string }
  | { readonly t: 'call'; readonly id: number; readonly tool: McpToolName; readonly input: unknown }
  | { readonly t: 'cancel'; readonly id: number };

/** Window → entry. */
export type ToEntry =
  | { readonly t: 'challenge'; readonly nonce: string; readonly proof: string }
  | { readonly t: 'welcome' }
  | { readonly t: 'refused'; readonly why: string }
  | { readonly t: 'result'; readonly id: number; readonly text: string; readonly data?: SearchData | PostData };

/** A call's answer, as the window's handler gives it: words, and a read's data (see readData.ts). */
export interface Answer {
  readonly text: string;
  readonly data?: SearchData | PostData | undefined;
}

/** The longest line before the hello is accepted (a hello is about 200 bytes). */
export const HELLO_BYTES = 1024;
/** The longest line after it: a call's input (the longest text a tool takes is 10,000 characters, escaped). */
export const LINE_BYTES = 256 * 1024;
/** What an entry or a window answers a call whose input is over LINE_BYTES (its size, as the line it would be). */
export function tooBig(bytes: number): string {
  return `This call's input is too big: ${bytes.toLocaleString('en-US')} bytes as JSON, and the link to VS Code carries at most ${LINE_BYTES.toLocaleString('en-US')} bytes a call (the longest text a tool takes is 10,000 characters). Nothing was sent, and nothing was done: call again with less.`;
}

/** Which tools write (and are asked): the others only read. */
export const MCP_WRITES: Readonly<Record<McpToolName, boolean>> = {
  helpdesk_searchPosts: false,
  helpdesk_getPost: false,
  helpdesk_fileBug: true,
  helpdesk_createTask: true,
  helpdesk_commentOnPost: true,
  helpdesk_updatePost: true,
};

/** The longest answer: the tools bound theirs well below. */
export const ANSWER_CHARS = 64 * 1024;
/** The most a read's data takes as JSON on the link (its texts are cut as in the words: a post's is about 20 KB at most); more is not sent. */
export const DATA_BYTES = 128 * 1024;
/** The longest name of the client, as the question shows it. */
export const CLIENT_CHARS = 60;

/** A line longer than the reader takes: how many bytes it had, and its first bytes (to say which call it was). */
export interface TooLong {
  readonly tooLong: number;
  readonly head: string;
}

/** The first bytes of a too-long line that are kept. */
const HEAD_BYTES = 64;

/**
 * Splits a stream of chunks into lines, each at most `max()` bytes. A longer line is not kept: it
 * is skipped to its end and given as `TooLong` (its size and first bytes), and the lines after it
 * are read as before. Linear in what is read; what is held is at most `max()` bytes.
 */
export class LineReader {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** While a line too long is skipped: its size so far and its first bytes. */
  private skipping: { bytes: number; head: string } | undefined;

  constructor(private readonly max: () => number) {}

  /** The complete lines in `chunk` (with what came before it). */
  push(chunk: Buffer): (string | TooLong)[] {
    const lines: (string | TooLong)[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, at);
      start = at + 1;
      if (this.skipping || this.tailBytes + piece.length > this.max()) {
        const skipped = this.skip(piece);
        this.skipping = undefined;
        lines.push({ tooLong: skipped.bytes, head: skipped.head });
        continue;
      }
      lines.push(Buffer.concat([...this.tail, piece]).toString('utf8'));
      this.tail = [];
      this.tailBytes = 0;
    }
    const rest = chunk.subarray(start);
    if (this.skipping || this.tailBytes + rest.length > this.max()) this.skipping = this.skip(rest);
    else if (rest.length > 0) {
      this.tail.push(rest);
      this.tailBytes += rest.length;
    }
    return lines;
  }

  private skip(piece: Buffer): { bytes: number; head: string } {
    const skipping = this.skipping ?? {
      bytes: this.tailBytes,
      head: Buffer.concat(this.tail).subarray(0, HEAD_BYTES).toString('utf8'),
    };
    this.tail = [];
    this.tailBytes = 0;
    const head = skipping.head.length < HEAD_BYTES ? skipping.head + piece.subarray(0, HEAD_BYTES).toString('utf8') : skipping.head;
    return { bytes: skipping.bytes + piece.length, head: head.slice(0, HEAD_BYTES) };
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
