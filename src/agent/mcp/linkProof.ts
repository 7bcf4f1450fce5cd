// Both ends of the local link prove that they know the connection file's secret, and neither says
// it: each sends a fresh nonce, and each answers with an HMAC of both nonces under the secret,
// labelled by its side (so one side's proof is never the other's). The window proves itself first,
// so the entry says nothing of a call to whatever listens at a path named by a stale file (the
// window that wrote it crashed, and someone else took the path), and a window never takes such a
// listener for a live window's endpoint. No vscode import, no SDK import: both bundles use it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { ANSWER_CHARS, DATA_BYTES, HELLO_BYTES, LineReader, lineOf, objectOf, type ConnectionFile } from './protocol';

export type Side = 'window' | 'entry';

/** 32 random bytes, as hex. */
export function newNonce(): string {
  return randomBytes(32).toString('hex');
}

export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** What `side` answers to prove that it knows `secret`, for this pair of nonces. */
export function proofOf(secret: string, side: Side, entryNonce: string, windowNonce: string): string {
  return createHmac('sha256', secret).update(`helpdesk-bridge link proof\n${side}\n${entryNonce}\n${windowNonce}`).digest('hex');
}

/** Compared in constant time: anything of another type or length is no proof. */
export function proofMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** A link whose window proved itself and accepted the entry's proof; `rest` is what it sent after its welcome. */
export interface OpenLink {
  readonly socket: Socket;
  readonly reader: LineReader;
  readonly rest: readonly string[];
}

/** Why no link: nothing listens (or it closed), the window refused the entry's proof, or what answered is no window. */
export type NoLink = 'noWindow' | 'refused' | 'impostor';

/**
 * Connects to the endpoint `connection` names and runs the handshake as the entry: hello (a nonce
 * and the client's name) → the window's challenge (its nonce and proof, checked) → the entry's
 * proof → welcome. Nothing else is written before the welcome. Linear in what is read.
 */
export function openLink(connection: ConnectionFile, client: string, waitMs: number): Promise<OpenLink | NoLink> {
  return new Promise((resolve) => {
    const socket = connect(connection.socket);
    let welcomed = false;
    // An answer is at most ANSWER_CHARS characters, each at most 6 bytes as JSON, and its data at most DATA_BYTES.
    const reader = new LineReader(() => (welcomed ? 6 * ANSWER_CHARS + DATA_BYTES + HELLO_BYTES : HELLO_BYTES));
    const entryNonce = newNonce();
    let windowNonce: string | undefined;
    let settled = false;
    const finish = (outcome: OpenLink | NoLink) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      if (typeof outcome === 'string') socket.destroy();
      resolve(outcome);
    };
    // Something that accepts and says nothing right is no window either.
    const timer = setTimeout(() => finish(windowNonce === undefined ? 'impostor' : 'refused'), waitMs);
    const onData = (chunk: Buffer) => {
      const lines = reader.push(chunk);
      for (const [at, line] of lines.entries()) {
        if (typeof line !== 'string') return finish('impostor');
        const message = objectOf(line);
        if (windowNonce === undefined) {
          if (message?.t !== 'challenge' || !isNonce(message.nonce)) return finish(message?.t === 'refused' ? 'refused' : 'impostor');
          if (!proofMatches(message.proof, proofOf(connection.secret, 'window', entryNonce, message.nonce))) return finish('impostor');
          windowNonce = message.nonce;
          socket.write(lineOf({ t: 'proof', proof: proofOf(connection.secret, 'entry', entryNonce, windowNonce) }));
          continue;
        }
        if (message?.t === 'welcome') {
          welcomed = true;
          const rest = lines.slice(at + 1).filter((kept): kept is string => typeof kept === 'string');
          return finish({ socket, reader, rest });
        }
        return finish('refused');
      }
    };
    socket.on('connect', () => socket.write(lineOf({ t: 'hello', nonce: entryNonce, client })));
    socket.on('data', onData);
    socket.on('error', () => undefined);
    socket.on('close', () => finish(windowNonce === undefined ? 'noWindow' : 'refused'));
  });
}

/** Whether a live window's endpoint is at the place `connection` names: one that proves it knows the file's secret. */
export async function windowServes(connection: ConnectionFile, waitMs: number): Promise<boolean> {
  const link = await openLink(connection, 'VS Code (another window, looking)', waitMs);
  if (typeof link === 'string') return false;
  link.socket.destroy();
  return true;
}
