// The MCP endpoint's life in a window: open while the window is signed in to the helpdesk and no
// other window serves agents already; closed at sign-out and when the window closes (another
// signed-in window takes over at its next look: on focus, on a sign-in, or within half a minute).
// Opening it also puts the stdio entry where agents' configurations name it (the connection
// folder), so that updating the extension does not break them. Nothing of the MCP SDK is loaded.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import vscode = require('vscode');
import { Disposable } from '../../lifecycle';
import { withSignedInNow, type WindowAccount } from '../../accounts/signedIn';
import type { Log } from '../../log';
import { readBounded } from '../../globalStorage/readBounded';
import { openEndpoint, type CallHandler, type Endpoint } from './endpoint';
import { windowServes } from './linkProof';
import { CONNECTION_FILE, CONNECTION_FOLDER, ENTRY_FILE, readConnection, type ConnectionFile } from './protocol';

const LOOK_EVERY_MS = 30_000;
/** How long a window named by the connection file has to prove itself. */
const PROVE_MS = 2000;

/** Where the connection file and the entry's copy are, or undefined where the extension's storage is not on disk. */
export function connectionFolder(context: Pick<vscode.ExtensionContext, 'globalStorageUri'>): string | undefined {
  return context.globalStorageUri.scheme === 'file' ? join(context.globalStorageUri.fsPath, CONNECTION_FOLDER) : undefined;
}

export class McpHost extends Disposable {
  private endpoint: Endpoint | undefined;
  private looking: Promise<void> = Promise.resolve();
  private disposed = false;
  private started = false;

  constructor(
    private readonly folder: string,
    private readonly entry: vscode.Uri,
    private readonly window: Pick<WindowAccount, 'current' | 'onDidChange'>,
    private readonly handle: CallHandler,
    private readonly log: Log,
  ) {
    super();
  }

  /** Follows the window from now on (the root starts it with the background work, not at activation: opening it writes files). */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    const look = () => void this.look();
    const timer = setInterval(look, LOOK_EVERY_MS);
    this.register(this.window.onDidChange(look));
    this.register(vscode.window.onDidChangeWindowState((state) => state.focused && look()));
    this.register(new vscode.Disposable(() => clearInterval(timer)));
    look();
  }

  /** Opens or closes the endpoint as the window's sign-in and the other windows say; one look at a time. */
  look(): Promise<void> {
    this.looking = this.looking
      .then(() => this.lookNow())
      .catch((error: unknown) => this.log.error('MCP: the endpoint could not be opened or closed', error));
    return this.looking;
  }

  private async lookNow(): Promise<void> {
    if (this.disposed) return;
    const serving = this.endpoint;
    const signedIn = withSignedInNow(
      this.window,
      () => true,
      () => false,
    )();
    if (!signedIn) {
      if (serving) await this.close();
      return;
    }
    const named = await this.named();
    if (serving) {
      // Another window wrote its own since (two opened at once): the one the file names serves.
      if (named !== undefined && named.socket !== serving.socket && (await windowServes(named, PROVE_MS))) await this.close();
      return;
    }
    // Something that answers where the file points is not enough: a window that crashed left the
    // file, and another process (another user) may listen at its path. Only one that proves it
    // knows the file's secret is a window serving.
    if (named !== undefined && (await windowServes(named, PROVE_MS))) return;
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await this.placeEntry();
    this.endpoint = await openEndpoint({ folder: this.folder, handle: this.handle, log: (line) => this.log.info(line) });
  }

  /** The endpoint the connection file names now. */
  private async named(): Promise<ConnectionFile | undefined> {
    return readConnection(join(this.folder, CONNECTION_FILE));
  }

  /** The stdio entry's copy in the connection folder, replaced when this version's differs. */
  private async placeEntry(): Promise<void> {
    if (this.entry.scheme !== 'file') return;
    const target = join(this.folder, ENTRY_FILE);
    const ours = await readFile(this.entry.fsPath);
    // A copy larger than ours differs from it, and is not read; nor is a pipe in its place waited on.
    const placed = await readBounded(target, ours.length).catch(() => undefined);
    if (placed && digest(placed.bytes) === digest(ours)) return;
    const temporary = `${target}.${process.pid}.tmp`;
    await copyFile(this.entry.fsPath, temporary);
    await rename(temporary, target);
  }

  private async close(): Promise<void> {
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.close();
  }

  override dispose(): void {
    this.disposed = true;
    super.dispose();
    void this.looking.then(() => this.close());
  }
}

function digest(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
