import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { storageFiles } from '../globalStorage/storageFiles';
import type { SignedInList } from './session';

const FILE_NAME = 'accounts.json';
/** Thousands of addresses: a larger file is none this extension wrote, and is not read. */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * The account addresses signed in to in this VS Code, in a file of the extension's global storage
 * that every window reads and watches (addresses only; each token stays in the secret storage
 * under its address). A file, not the global state: VS Code keeps an extension's global state as
 * one value, which a window writing another key would put back as it last saw it.
 */
export class AccountList extends Disposable implements SignedInList {
  private readonly file: vscode.Uri;
  private addresses: string[] = [];
  /** The list as the listeners were last told it (or as first read): a read that finds another is told. */
  private told: readonly string[] = [];
  /** Counts reads and writes: a read that began before a later one's is dropped (its list is older). */
  private generation = 0;
  private disposed = false;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when the list changed, here or in another window. */
  readonly onDidChange = this.changed.event;
  private readonly ready: Promise<void>;

  constructor(folder: vscode.Uri) {
    super();
    this.file = vscode.Uri.joinPath(folder, FILE_NAME);
    this.ready = storageFiles
      .createDirectory(folder)
      .then(undefined, () => undefined)
      .then(async () => {
        if (this.disposed) return;
        // A watcher outside the workspace may miss a write: a window coming to the front reads again too.
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, FILE_NAME));
        const heard = () => void this.reload();
        this.register(watcher);
        this.register(watcher.onDidCreate(heard));
        this.register(watcher.onDidChange(heard));
        this.register(watcher.onDidDelete(heard));
        this.register(vscode.window.onDidChangeWindowState((state) => state.focused && heard()));
        await this.load();
        this.told = this.addresses;
      });
  }

  /** The addresses as last read (none until the first read is done): for what must answer at once, such as links. */
  get known(): readonly string[] {
    return this.addresses;
  }

  /** The addresses as last read, in the order they were first signed in to. */
  async all(): Promise<readonly string[]> {
    await this.ready;
    return this.addresses;
  }

  async add(accountUrl: string): Promise<void> {
    await this.ready;
    await this.reload();
    if (this.addresses.includes(accountUrl)) return;
    await this.write([...this.addresses, accountUrl]);
  }

  async remove(accountUrl: string): Promise<void> {
    await this.ready;
    await this.reload();
    if (!this.addresses.includes(accountUrl)) return;
    await this.write(this.addresses.filter((address) => address !== accountUrl));
  }

  override dispose(): void {
    this.disposed = true;
    super.dispose();
  }

  /** Reads the list again, and tells it when it is not the list last told (the watcher hears this window's own writes too). */
  private async reload(): Promise<void> {
    await this.load();
    const now = this.addresses;
    if (now.length === this.told.length && now.every((address, i) => address === this.told[i])) return;
    this.told = now;
    this.changed.fire();
  }

  private async load(): Promise<void> {
    const generation = ++this.generation;
    const stale = () => generation !== this.generation;
    try {
      const read = await storageFiles.readFile(this.file, MAX_FILE_BYTES);
      if (stale()) return;
      // Past its bound it is no list of ours: the list stays as it was, as with one being written.
      if (!read) return;
      const value = JSON.parse(new TextDecoder().decode(read.bytes)) as { accounts?: unknown };
      this.addresses = Array.isArray(value.accounts) ? value.accounts.filter((a): a is string => typeof a === 'string') : [];
    } catch (error) {
      // None yet; a file being written keeps the list as it was (the write that completes it is heard).
      if (!stale() && error instanceof vscode.FileSystemError && error.code === 'FileNotFound') this.addresses = [];
    }
  }

  private async write(addresses: string[]): Promise<void> {
    this.generation += 1;
    this.addresses = addresses;
    this.told = addresses;
    await storageFiles.writeFile(this.file, new TextEncoder().encode(JSON.stringify({ accounts: addresses })));
    this.changed.fire();
  }
}
