import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { storageFiles } from '../globalStorage/storageFiles';

const FILE_NAME = 'signed-out.json';
/** One announcement is an address and two ids: a larger file is none this extension wrote, and is not read. */
const MAX_FILE_BYTES = 64 * 1024;

interface Announcement {
  accountUrl: string;
  /** The window that signed out, so that it does not act on its own news. */
  window: string;
  /** One per sign-out: the watcher may report one write more than once. */
  id: string;
}

/**
 * Tells this VS Code's other windows that an account was signed out of.
 *
 * Desktop VS Code fires `SecretStorage.onDidChange` in every window, but the web workbench
 * (code-server, vscode.dev) keeps secrets in a copy of localStorage made when the page loads and
 * tells only the window that wrote: another window keeps using the token, and writes it back
 * with its next change of any secret. The extension's global storage folder is one folder for
 * every window, so a small file there, watched by each window, carries the news. It names the
 * account address only, never the token.
 */
export class SignOutSignal extends Disposable {
  /** Each window has an extension host process of its own. (node:crypto would cost activation a module load.) */
  private readonly window = `${process.pid}.${Math.random().toString(36).slice(2)}`;
  private readonly file: vscode.Uri;
  private readonly heard = this.register(new vscode.EventEmitter<string>());
  /** Fires with the account address another window signed out of. */
  readonly onDidSignOutElsewhere = this.heard.event;
  private readonly ready: Promise<void>;
  private announced = 0;
  private lastHeard: string | undefined;

  constructor(private readonly folder: vscode.Uri) {
    super();
    this.file = vscode.Uri.joinPath(folder, FILE_NAME);
    // The folder must exist before it can be watched; activation does not wait for this.
    this.ready = storageFiles.createDirectory(folder).then(
      () => this.watch(),
      () => this.watch(),
    );
  }

  async announce(accountUrl: string): Promise<void> {
    await this.ready;
    const announcement: Announcement = { accountUrl, window: this.window, id: `${this.window}.${++this.announced}` };
    await storageFiles.writeFile(this.file, new TextEncoder().encode(JSON.stringify(announcement)));
  }

  private watch(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, FILE_NAME));
    this.register(watcher);
    this.register(watcher.onDidCreate(() => void this.read()));
    this.register(watcher.onDidChange(() => void this.read()));
  }

  private async read(): Promise<void> {
    let announcement: Partial<Announcement>;
    try {
      const read = await storageFiles.readFile(this.file, MAX_FILE_BYTES);
      if (!read) return;
      announcement = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<Announcement>;
    } catch {
      return; // half written or removed: the write that completes it fires again
    }
    if (typeof announcement.accountUrl !== 'string' || announcement.window === this.window || announcement.id === this.lastHeard) return;
    // A repeat would sign out a sign-in made since with the same token.
    this.lastHeard = announcement.id;
    this.heard.fire(announcement.accountUrl);
  }
}
