// The stdio entry's end of the local link (see protocol.ts): it reads the connection file the
// window wrote, says the secret, and relays calls. It connects at the first call and again after
// the window closed or another took over, so an agent started before VS Code works once VS Code
// is open. Every failure is an answer in words, never the file's content (it holds the secret).
// No vscode import.
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { CONNECTION_FILE, LINE_BYTES, LineReader, lineOf, objectOf, readConnection, type McpToolName } from '../protocol';

export const NO_WINDOW =
  'No VS Code window with Helpdesk Bridge signed in to the helpdesk is open, so nothing was done. Ask the person to open VS Code and run "Helpdesk: Sign In…" there; then call again.';
export const REFUSED =
  'The VS Code window refused this connection (its secret did not match: VS Code may have restarted meanwhile). Nothing was done. Call again; if it goes on, ask the person to run "Helpdesk: Connect an Agent…" in VS Code.';
const LOST =
  'The connection to the VS Code window was lost before it answered. A write may have been made: call again with exactly the same input, and VS Code finds it rather than writing twice.';

/** How long to wait for the window to answer the hello. */
const HELLO_MS = 5000;

interface Link {
  readonly socket: Socket;
  readonly pending: Map<number, (text: string) => void>;
}

export class EndpointClient {
  private link: Promise<Link | string> | undefined;
  private nextId = 1;

  /** `folder` holds the connection file; `client` is the MCP client's name, as it gave it (read at each connection). */
  constructor(
    private readonly folder: string,
    private readonly client: () => string,
  ) {}

  /** The tool's answer in words; `signal` cancels it (the window is told). */
  async call(tool: McpToolName, input: unknown, signal: AbortSignal): Promise<{ text: string; reached: boolean }> {
    const link = await this.connected();
    if (typeof link === 'string') return { text: link, reached: false };
    const id = this.nextId++;
    return new Promise((resolve) => {
      const done = (text: string, reached = true) => {
        link.pending.delete(id);
        signal.removeEventListener('abort', cancel);
        resolve({ text, reached });
      };
      const cancel = () => link.socket.write(lineOf({ t: 'cancel', id }));
      link.pending.set(id, done);
      signal.addEventListener('abort', cancel, { once: true });
      link.socket.write(lineOf({ t: 'call', id, tool, input }));
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
    return new Promise((resolve) => {
      const socket = connect(connection.socket);
      const pending = new Map<number, (text: string, reached?: boolean) => void>();
      const reader = new LineReader(() => LINE_BYTES);
      let welcomed = false;
      const timer = setTimeout(() => finish(REFUSED), HELLO_MS);
      const finish = (why: string) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(why);
      };
      socket.on('connect', () => socket.write(lineOf({ t: 'hello', secret: connection.secret, client: this.client() })));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        this.link = undefined;
        if (!welcomed) resolve(NO_WINDOW);
        for (const done of pending.values()) done(LOST, false);
        pending.clear();
      });
      socket.on('data', (chunk: Buffer) => {
        const lines = reader.push(chunk);
        if (lines === 'tooLong') return void socket.destroy();
        for (const line of lines) {
          const message = objectOf(line);
          if (!welcomed) {
            if (message?.t === 'welcome') {
              welcomed = true;
              clearTimeout(timer);
              resolve({ socket, pending });
            } else finish(REFUSED);
            continue;
          }
          if (message?.t === 'result' && typeof message.id === 'number' && typeof message.text === 'string')
            pending.get(message.id)?.(message.text);
        }
      });
    });
  }
}
