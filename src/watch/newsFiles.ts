import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { replaceFile } from '../globalStorage/replaceFile';
import { storageFiles } from '../globalStorage/storageFiles';
import { forgetNews, newsFileOf, newsFolderOf, type NewsFileKind } from './newsFileNames';
import {
  MAX_FILE_BYTES,
  parseLease,
  parseNewsFile,
  parseNotified,
  parseSeenMarks,
  type Lease,
  type NewsFile,
  type Notified,
} from './newsShapes';

export { NEWS_KEPT, type Lease, type NewsFile, type Notified } from './newsShapes';

/** Whether a write is still wanted: checked before it starts, before the file is replaced, and after (see `write`). */
export type StillWanted = () => boolean;

/**
 * The files the windows share about an account's news, in a folder of the extension's global
 * storage (one for every window): the news (written by the polling window only), the lease that
 * says which window polls, the last poll told in a notification, and the news seen. Each file has
 * one writer at a time, so no window overwrites another's news, and is replaced whole, so no window
 * reads half of one. What is read is checked for its shape (see newsShapes.ts): a file of another
 * shape reads as none. They hold the account address, post ids and titles; never a token.
 */
export class NewsFolder extends Disposable {
  private readonly folder: vscode.Uri;
  private readonly globalStorage: vscode.Uri;
  private readonly made: Promise<void>;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when a window (this one too) wrote news or what was seen, of any account. */
  readonly onDidChange = this.changed.event;

  constructor(globalStorage: vscode.Uri) {
    super();
    this.globalStorage = globalStorage;
    this.folder = newsFolderOf(globalStorage);
    this.made = storageFiles.createDirectory(this.folder).then(
      () => this.watch(),
      () => this.watch(),
    );
  }

  async news(accountUrl: string): Promise<NewsFile | undefined> {
    return parseNewsFile(await this.read(accountUrl, 'news'));
  }

  /**
   * Writes the news. Its `seq` never goes below what the notified and seen files hold: a news file
   * found unreadable (corrupt, or of another shape) starts a baseline at 0, and the news after it
   * would otherwise count as told and as seen. Resolves to what was written, or undefined when the
   * write was no longer wanted.
   */
  async writeNews(accountUrl: string, news: NewsFile, wanted: StillWanted): Promise<NewsFile | undefined> {
    const [told, seen] = await Promise.all([this.notified(accountUrl), this.seen(accountUrl)]);
    const floor = Math.max(told?.seq ?? 0, ...seen.values());
    const written = news.seq < floor ? { ...news, seq: floor } : news;
    return (await this.write(accountUrl, 'news', written, wanted)) ? written : undefined;
  }

  async lease(accountUrl: string): Promise<Lease | undefined> {
    return parseLease(await this.read(accountUrl, 'lease'));
  }

  async writeLease(accountUrl: string, lease: Lease, wanted: StillWanted): Promise<void> {
    await this.write(accountUrl, 'lease', lease, wanted);
  }

  /** Gives the lease up if `window` holds it (a window that closes, or leaves the account): deleted, so that it cannot outlive a sign-out. */
  async releaseLease(accountUrl: string, window: string): Promise<void> {
    if ((await this.lease(accountUrl))?.window !== window) return;
    await storageFiles.delete(this.file(accountUrl, 'lease')).catch(() => undefined);
  }

  /** The last poll whose news a notification told (in some window), and the window that claimed it. */
  async notified(accountUrl: string): Promise<Notified | undefined> {
    return parseNotified(await this.read(accountUrl, 'notified'));
  }

  async writeNotified(accountUrl: string, notified: Notified, wanted: StillWanted): Promise<boolean> {
    return this.write(accountUrl, 'notified', notified, wanted);
  }

  /** For each post, the last poll whose news on it was seen (see `isSeen`). */
  async seen(accountUrl: string): Promise<Map<number, number>> {
    return parseSeenMarks(await this.read(accountUrl, 'seen'));
  }

  /** Writes the seen marks, but for posts no longer in the news (as its file is now; all of them when it cannot be read). */
  async writeSeen(accountUrl: string, marks: ReadonlyMap<number, number>, wanted: StillWanted): Promise<void> {
    const items = (await this.news(accountUrl))?.items;
    const listed = items ? new Set(items.map((item) => item.id)) : undefined;
    const kept = [...marks].filter(([id]) => !listed || listed.has(id));
    await this.write(accountUrl, 'seen', { marks: Object.fromEntries(kept) }, wanted);
  }

  /** Forgets an account's news (signed out of): the next sign-in starts from a silent baseline. */
  forget(accountUrl: string): Promise<void> {
    return forgetNews(this.globalStorage, accountUrl);
  }

  private file(accountUrl: string, what: NewsFileKind): vscode.Uri {
    return newsFileOf(this.folder, accountUrl, what);
  }

  private async read(accountUrl: string, what: NewsFileKind): Promise<unknown> {
    try {
      const read = await storageFiles.readFile(this.file(accountUrl, what), MAX_FILE_BYTES);
      return read && (JSON.parse(new TextDecoder().decode(read.bytes)) as unknown);
    } catch {
      return undefined; // not there, or not JSON
    }
  }

  /**
   * Whole or not at all: written to a file of its own in the same folder, then renamed over the
   * file, so that another window reading it meanwhile finds the one before, never half of this one.
   * Only while `wanted()` (the account is still the window's, the window still open): checked
   * before the write, before the rename, and after it, when the file is deleted again if it is no
   * longer wanted (a sign-out forgets the files meanwhile: none comes back). Resolves to whether it
   * was written.
   */
  private async write(accountUrl: string, what: NewsFileKind, value: unknown, wanted: StillWanted): Promise<boolean> {
    await this.made;
    if (!wanted()) return false;
    const file = this.file(accountUrl, what);
    // Not *.json: the windows' file watchers hear the rename, not this file.
    const temp = file.with({ path: `${file.path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp` });
    await storageFiles.writeFile(temp, new TextEncoder().encode(JSON.stringify(value)));
    const drop = (uri: vscode.Uri) => storageFiles.delete(uri).catch(() => undefined);
    if (!wanted()) {
      await drop(temp);
      return false;
    }
    try {
      await replaceFile(temp, file);
    } catch (error) {
      await drop(temp);
      throw error;
    }
    if (wanted()) return true;
    await drop(file);
    return false;
  }

  private watch(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '*.json'));
    const heard = (uri: vscode.Uri) => {
      if (/^(?:news|seen)\./.test(uri.path.slice(uri.path.lastIndexOf('/') + 1))) this.changed.fire();
    };
    this.register(watcher);
    this.register(watcher.onDidCreate(heard));
    this.register(watcher.onDidChange(heard));
    this.register(watcher.onDidDelete(heard));
  }
}
