// The window's end of the local link (see protocol.ts): a Unix socket in a folder of its own that
// only the user can enter (a named pipe on Windows), and the connection file, mode 0600, that says
// where it is and holds a secret made for this run. Within a few seconds of connecting, the window
// and the connection prove to each other that they know that secret, neither saying it
// (linkProof.ts); anything else is refused and closed before any call is read. Calls are
// bounded in size and number, and each is handed to `handle`, which answers in words (a read,
// with its data, bounded too). No vscode import.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cutMarkdown } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import { isNonce, newNonce, proofMatches, proofOf } from './linkProof';
import {
  ANSWER_CHARS,
  CLIENT_CHARS,
  CONNECTION_FILE,
  DATA_BYTES,
  HELLO_BYTES,
  isMcpTool,
  LINE_BYTES,
  LineReader,
  lineOf,
  MCP_WRITES,
  objectOf,
  readConnection,
  tooBig,
  type Answer,
  type ConnectionFile,
  type McpToolName,
  type ToEntry,
} from './protocol';

/** A call, as the endpoint hands it on: the tool, its input (any JSON value: untrusted), and the client's name as it gave it (bounded, one line). */
export interface EndpointCall {
  readonly tool: McpToolName;
  readonly input: unknown;
  readonly client: string;
}

export type CallHandler = (call: EndpointCall, signal: AbortSignal) => Promise<Answer>;

export interface EndpointOptions {
  /** The folder of the connection file (made if missing). */
  readonly folder: string;
  readonly handle: CallHandler;
  /** Lines for the log: never a secret, never an input. */
  readonly log: (line: string) => void;
  /** How long a connection may take to say the secret. */
  readonly helloMs?: number;
}

export interface Endpoint {
  /** The socket's path or pipe's name. */
  readonly socket: string;
  /** Closes the socket and every connection, and removes the connection file if it is still this endpoint's. */
  close(): Promise<void>;
}

const HELLO_MS = 5000;
const CONNECTIONS = 16;
const CALLS_PER_CONNECTION = 16;

export const REFUSED_SECRET = 'The secret was missing or wrong: this VS Code window does not act for this connection.';

/** Opens an endpoint and writes its connection file. */
export async function openEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const secret = randomBytes(32).toString('hex');
  const { socket, cleanup } = await socketPlace();
  const connections = new Set<Socket>();
  const server = createServer({ allowHalfOpen: false }, (connection) => {
    if (connections.size >= CONNECTIONS) {
      connection.destroy();
      return;
    }
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    serve(connection, secret, options);
  });
  await listen(server, socket);
  const file: ConnectionFile = { version: 1, socket, secret, pid: process.pid };
  const path = join(options.folder, CONNECTION_FILE);
  await writePrivate(path, JSON.stringify(file));
  options.log(`MCP: this window acts for agents outside VS Code (endpoint ${socket})`);
  return {
    socket,
    async close() {
      for (const connection of connections) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await removeIfOurs(path, socket);
      await cleanup();
    },
  };
}

/** Where the socket goes: a new folder only the user can enter (its path short enough for a socket), or a pipe of a random name. */
async function socketPlace(): Promise<{ socket: string; cleanup: () => Promise<void> }> {
  const name = randomBytes(8).toString('hex');
  if (process.platform === 'win32') return { socket: `\\\\.\\pipe\\helpdesk-bridge-${name}`, cleanup: () => Promise.resolve() };
  const folder = await mkdtemp(join(tmpdir(), 'hb-mcp-'));
  return { socket: join(folder, 's'), cleanup: () => rm(folder, { recursive: true, force: true }) };
}

function listen(server: Server, socket: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Written whole (a temporary file, then renamed), readable and writable by the user alone. */
export async function writePrivate(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Removes the connection file if it still names this socket (another window may have written its own since). */
async function removeIfOurs(path: string, socket: string): Promise<void> {
  if ((await readConnection(path))?.socket === socket) await rm(path, { force: true });
}

function serve(connection: Socket, secret: string, { handle, log, helloMs = HELLO_MS }: EndpointOptions): void {
  let client: string | undefined;
  /** After the hello: the nonces of the handshake, until the entry's proof. */
  let nonces: { entry: string; window: string } | undefined;
  const calls = new Map<number, { controller: AbortController; write: boolean }>();
  const reader = new LineReader(() => (client === undefined ? HELLO_BYTES : LINE_BYTES));
  const send = (message: ToEntry) => connection.writable && connection.write(lineOf(message));
  const refuse = (why: string) => {
    send({ t: 'refused', why });
    connection.end();
    setTimeout(() => connection.destroy(), 1000).unref();
  };
  const helloTimer = setTimeout(() => refuse(REFUSED_SECRET), helloMs);
  connection.on('close', () => {
    clearTimeout(helloTimer);
    for (const { controller } of calls.values()) controller.abort();
    calls.clear();
  });
  connection.on('error', () => undefined);
  connection.on('data', (chunk: Buffer) => {
    for (const line of reader.push(chunk)) {
      if (connection.destroyed || !connection.readable) return;
      if (typeof line !== 'string') {
        if (client === undefined) return refuse(REFUSED_SECRET);
        // The entry says a call this big is too big before sending it; one that sends it anyway is told the same, by its id.
        const id = Number(/^\{"t":"call","id":(\d{1,15}),/.exec(line.head)?.[1]);
        if (Number.isSafeInteger(id) && !calls.has(id)) send({ t: 'result', id, text: tooBig(line.tooLong) });
        continue;
      }
      const message = objectOf(line);
      if (client === undefined) {
        // The hello, then the entry's proof, or nothing else is read (see linkProof.ts).
        if (!nonces) {
          if (message?.t !== 'hello' || !isNonce(message.nonce)) return refusing();
          nonces = { entry: message.nonce, window: newNonce() };
          pendingClient = clientName(message.client);
          send({ t: 'challenge', nonce: nonces.window, proof: proofOf(secret, 'window', nonces.entry, nonces.window) });
          continue;
        }
        if (message?.t !== 'proof' || !proofMatches(message.proof, proofOf(secret, 'entry', nonces.entry, nonces.window)))
          return refusing();
        clearTimeout(helloTimer);
        client = pendingClient;
        send({ t: 'welcome' });
        continue;
      }
      if (message?.t === 'cancel' && typeof message.id === 'number') {
        // A call cancelled frees its place at once; what it comes to is not sent (the entry no longer waits for it).
        calls.get(message.id)?.controller.abort();
        calls.delete(message.id);
        continue;
      }
      if (message?.t !== 'call' || typeof message.id !== 'number' || !Number.isSafeInteger(message.id) || calls.has(message.id)) {
        connection.destroy();
        return;
      }
      const { id, tool, input } = message;
      if (!isMcpTool(tool)) {
        send({ t: 'result', id, text: 'There is no such tool.' });
        continue;
      }
      // Reads and writes have places of their own: writes waiting for the person never keep a read out.
      const write = MCP_WRITES[tool];
      if ([...calls.values()].filter((call) => call.write === write).length >= CALLS_PER_CONNECTION) {
        send({
          t: 'result',
          id,
          text: `Too many ${write ? 'writes' : 'reads'} at once (at most ${CALLS_PER_CONNECTION}): this one was not run. Wait for an answer, then call again.`,
        });
        continue;
      }
      const controller = new AbortController();
      const call = { controller, write };
      calls.set(id, call);
      const named = client;
      // A handler that throws at once is answered like one that rejects: nothing escapes into the extension host.
      void Promise.resolve()
        .then(() => handle({ tool, input, client: named }, controller.signal))
        .catch((error: unknown): Answer => {
          log(`MCP: ${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
          return { text: 'The tool failed in VS Code (its log, "Helpdesk", says why). Nothing more is known.' };
        })
        .then(({ text, data }) => {
          if (calls.get(id) !== call) return;
          calls.delete(id);
          // Data over its bound is not sent: the entry then answers the words alone, as an error.
          const bounded = data !== undefined && Buffer.byteLength(JSON.stringify(data)) <= DATA_BYTES ? data : undefined;
          if (data !== undefined && !bounded) log(`MCP: ${tool}'s data was over ${DATA_BYTES} bytes, and was not sent`);
          send({ t: 'result', id, text: cutMarkdown(text, ANSWER_CHARS), ...(bounded && { data: bounded }) });
        });
    }
  });
  let pendingClient = 'An agent';
  function refusing(): void {
    log('MCP: a connection that did not prove it knows the secret was refused');
    refuse(REFUSED_SECRET);
  }
}

/** The client's name as it gave it, made one short line; "An agent" where it gave none. */
export function clientName(value: unknown): string {
  const name = typeof value === 'string' ? labelText(value.slice(0, 4 * CLIENT_CHARS), CLIENT_CHARS) : '';
  return name || 'An agent';
}
