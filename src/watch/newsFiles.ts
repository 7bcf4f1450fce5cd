import vscode = require('vscode');
import { replaceFile } from '../storage/replaceFile';
import type { ReadOrder } from './changedPosts';
import type { NewestPage } from './newestPosts';
import type { HeldNews, Snapshot } from './news';
import { forgetNews, newsFileOf, newsFolderOf, type NewsFileKind } from './newsFileNames';

/** What the window that polls an account writes for every window of this VS Code. */
export interface NewsFile {
  /** What the last poll that succeeded saw; none yet: the next poll is a silent baseline. */
  snapshot?: Snapshot;
  /** How the last poll read the list (see `readChanges`): kept so that an idle poll is one request. */
  order?: ReadOrder;
  newestPage?: NewestPage;
  /** Newest first; each with the number of the poll that found it. */
  items: HeldNews[];
  /** The number of the last poll that found news. */
  seq: number;
  /** When the last poll ended (ms), and how. */
  polledAt: number;
  /** Why the last poll failed, in words (no token, no address); undefined when it did not. */
  problem?: string;
  /** When the next poll is due (ms). */
  nextAt: number;
}

/** Which window polls the account, until when (ms). */
export interface Lease {
  window: string;
  until: number;
}

/** News items kept per account: the oldest go first. */
export const NEWS_KEPT = 200;

/**
 * The files the windows share about an account's news, in a folder of the extension's global
 * storage (one for every window): the news (written by the polling window only), the lease that
 * says which window polls, the last poll told in a notification, and the news seen. Each file has
 * one writer at a time, so no window overwrites another's news, and is replaced whole, so no window
 * reads half of one. They hold the account address, post ids and titles; never a token.
 */
export class NewsFolder implements vscode.Disposable {
  private readonly folder: vscode.Uri;
  private readonly globalStorage: vscode.Uri;
  private readonly made: Promise<void>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a window (this one too) wrote news or what was seen, of any account. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(globalStorage: vscode.Uri) {
    this.globalStorage = globalStorage;
    this.folder = newsFolderOf(globalStorage);
    this.made = Promise.resolve(vscode.workspace.fs.createDirectory(this.folder)).then(
      () => this.watch(),
      () => this.watch(),
    );
  }

  news(accountUrl: string): Promise<NewsFile | undefined> {
    return this.read<NewsFile>(accountUrl, 'news');
  }

  /**
   * Writes the news. Its `seq` never goes below what the notified and seen files hold: a news file
   * found unreadable (corrupt, or half written by an older version) starts a baseline at 0, and the
   * news after it would otherwise count as told and as seen.
   */
  async writeNews(accountUrl: string, news: NewsFile): Promise<void> {
    const [told, seen] = await Promise.all([this.notified(accountUrl), this.seen(accountUrl)]);
    const floor = Math.max(told ?? 0, ...seen.values());
    await this.write(accountUrl, 'news', news.seq < floor ? { ...news, seq: floor } : news);
  }

  lease(accountUrl: string): Promise<Lease | undefined> {
    return this.read<Lease>(accountUrl, 'lease');
  }

  writeLease(accountUrl: string, lease: Lease): Promise<void> {
    return this.write(accountUrl, 'lease', lease);
  }

  /** The number of the last poll whose news a notification told (in some window). */
  async notified(accountUrl: string): Promise<number | undefined> {
    return (await this.read<{ seq: number }>(accountUrl, 'notified'))?.seq;
  }

  writeNotified(accountUrl: string, seq: number): Promise<void> {
    return this.write(accountUrl, 'notified', { seq });
  }

  /** For each post, the last poll whose news on it was seen (see `isSeen`). */
  async seen(accountUrl: string): Promise<Map<number, number>> {
    const marks = (await this.read<{ marks: unknown }>(accountUrl, 'seen'))?.marks;
    const entries = marks && typeof marks === 'object' ? Object.entries(marks) : [];
    return new Map(entries.map(([id, seq]) => [Number(id), seq] as const).filter((entry): entry is [number, number] => Number.isSafeInteger(entry[0]) && typeof entry[1] === 'number'));
  }

  /** Writes the seen marks, but for posts no longer in the news (as its file is now; all of them when it cannot be read). */
  async writeSeen(accountUrl: string, marks: ReadonlyMap<number, number>): Promise<void> {
    const items = (await this.news(accountUrl))?.items;
    const listed = Array.isArray(items) ? new Set(items.map((item) => item.id)) : undefined;
    const kept = [...marks].filter(([id]) => !listed || listed.has(id));
    await this.write(accountUrl, 'seen', { marks: Object.fromEntries(kept) });
  }

  /** Forgets an account's news (signed out of): the next sign-in starts from a silent baseline. */
  forget(accountUrl: string): Promise<void> {
    return forgetNews(this.globalStorage, accountUrl);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private file(accountUrl: string, what: NewsFileKind): vscode.Uri {
    return newsFileOf(this.folder, accountUrl, what);
  }

  private async read<T>(accountUrl: string, what: NewsFileKind): Promise<T | undefined> {
    try {
      const value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.file(accountUrl, what)))) as unknown;
      return value && typeof value === 'object' ? (value as T) : undefined;
    } catch {
      return undefined; // not there, or not JSON (written by hand, or by an older version that wrote in place)
    }
  }

  /**
   * Whole or not at all: written to a file of its own in the same folder, then renamed over the
   * file, so that another window reading it meanwhile finds the one before, never half of this one.
   */
  private async write(accountUrl: string, what: NewsFileKind, value: unknown): Promise<void> {
    await this.made;
    const file = this.file(accountUrl, what);
    // Not *.json: the windows' file watchers hear the rename, not this file.
    const temp = file.with({ path: `${file.path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp` });
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(JSON.stringify(value)));
    try {
      await replaceFile(temp, file);
    } catch (error) {
      await Promise.resolve(vscode.workspace.fs.delete(temp)).catch(() => undefined);
      throw error;
    }
  }

  private watch(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '*.json'));
    const heard = (uri: vscode.Uri) => {
      if (/^(?:news|seen)\./.test(uri.path.slice(uri.path.lastIndexOf('/') + 1))) this.changed.fire();
    };
    this.disposables.push(watcher, watcher.onDidCreate(heard), watcher.onDidChange(heard), watcher.onDidDelete(heard));
  }
}
