// The stdio entry's end of the local link (see protocol.ts): it reads the connection file the
// window wrote, has the window prove that it knows the file's secret and proves it in turn
// (linkProof.ts), and only then relays calls. It connects at the first call and again after
// the window closed or another took over, so an agent started before VS Code works once VS Code
// is open. Every failure is an answer in words, never the file's content (it holds the secret).
// No vscode import.
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { openLink } from '../linkProof';
import { CONNECTION_FILE, LINE_BYTES, lineOf, objectOf, readConnection, tooBig, type McpToolName, type TooLong } from '../protocol';

export const NO_WINDOW =
  'No VS Code window with Helpdesk Bridge signed in to the helpdesk is open, so nothing was done. Ask the person to open VS Code and run "Helpdesk: Sign In…" there; then call again.';
export const REFUSED =
  'The VS Code window refused this connection (its secret did not match: VS Code may have restarted meanwhile). Nothing was done. Call again; if it goes on, ask the person to run "Helpdesk: Connect an Agent…" in VS Code.';
export const IMPOSTOR =
  'Something other than a VS Code window answered where the connection file points: it could not prove that it knows the secret VS Code wrote there. Nothing was sent to it, and nothing was done. The window that wrote the file is likely gone: ask the person to open VS Code signed in to the helpdesk, then call again.';
const LOST =
  'The connection to the VS Code window was lost before it answered. A write may have been made: call again with exactly the same input, and VS Code finds it rather than writing twice.';

/** What the entry answers a call the agent cancelled (the SDK no longer waits for it; the window is told). */
const CANCELLED = 'The call was cancelled: nothing more is known of it.';

/** How long to wait for the window to prove itself and welcome the entry. */
const HELLO_MS = 5000;

interface Link {
  readonly socket: Socket;
  readonly pending: Map<number, (text: string, reached?: boolean, data?: unknown) => void>;
}

/** A call's answer: the window's words (or the entry's, where it was not reached), and a read's data as the window sent it (any JSON value: the caller validates it). */
export interface CallAnswer {
  readonly text: string;
  readonly reached: boolean;
  readonly data?: unknown;
}

export class EndpointClient {
  private link: Promise<Link | string> | undefined;
  private nextId = 1;

  /** `folder` holds the connection file; `client` is the MCP client's name, as it gave it (read at each connection). */
  constructor(
    private readonly folder: string,
    private readonly client: () => string,
  ) {}

  /** The tool's answer in words, and a read's data; `signal` cancels it (the window is told, and its place there is freed). */
  async call(tool: McpToolName, input: unknown, signal: AbortSignal): Promise<CallAnswer> {
    const id = this.nextId++;
    const line = lineOf({ t: 'call', id, tool, input });
    // Measured before anything is sent: a line too long would cost the link, and every call on it.
    const bytes = Buffer.byteLength(line) - 1;
    if (bytes > LINE_BYTES) return { text: tooBig(bytes), reached: false };
    const link = await this.connected();
    if (typeof link === 'string') return { text: link, reached: false };
    if (signal.aborted) return { text: CANCELLED, reached: false };
    return new Promise((resolve) => {
      const done = (text: string, reached = true, data?: unknown) => {
        link.pending.delete(id);
        signal.removeEventListener('abort', cancel);
        resolve(data === undefined ? { text, reached } : { text, reached, data });
      };
      const cancel = () => {
        if (link.socket.writable) link.socket.write(lineOf({ t: 'cancel', id }));
        done(CANCELLED, false);
      };
      link.pending.set(id, done);
      signal.addEventListener('abort', cancel, { once: true });
      link.socket.write(line);
    });
  }

  close(): void {
    void this.link?.then((link) => typeof link !== 'string' && link.socket.destroy());
    this.link = undefined;
  }

  private connected(): Promise<Link | string> {
    this.link ??= this.open().then((link) => {
      if (typeof link === 'string') this.link = undefined;
      return link;
    });
    return this.link;
  }

  private async open(): Promise<Link | string> {
    const connection = await readConnection(join(this.folder, CONNECTION_FILE));
    if (!connection) return NO_WINDOW;
    const opened = await openLink(connection, this.client(), HELLO_MS);
    if (opened === 'noWindow') return NO_WINDOW;
    if (opened === 'refused') return REFUSED;
    if (opened === 'impostor') return IMPOSTOR;
    const { socket, reader, rest } = opened;
    const pending: Link['pending'] = new Map();
    const answer = (line: string | TooLong) => {
      const message = typeof line === 'string' ? objectOf(line) : undefined;
      if (message?.t === 'result' && typeof message.id === 'number' && typeof message.text === 'string')
        pending.get(message.id)?.(message.text, true, message.data);
    };
    socket.on('close', () => {
      this.link = undefined;
      for (const done of pending.values()) done(LOST, false);
      pending.clear();
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk).forEach(answer));
    rest.forEach(answer);
    if (socket.destroyed) return NO_WINDOW;
    return { socket, pending };
  }
}
