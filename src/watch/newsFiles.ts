import vscode = require('vscode');
import type { ReadOrder } from './changedPosts';
import type { NewestPage } from './newestPosts';
import type { HeldNews, Snapshot } from './news';

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
 * one writer at a time, so no window overwrites another's news. They hold the account address,
 * post ids and titles; never a token.
 */
export class NewsFolder implements vscode.Disposable {
  private readonly folder: vscode.Uri;
  private readonly made: Promise<void>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a window (this one too) wrote news or what was seen, of any account. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(globalStorage: vscode.Uri) {
    this.folder = vscode.Uri.joinPath(globalStorage, 'news');
    this.made = Promise.resolve(vscode.workspace.fs.createDirectory(this.folder)).then(
      () => this.watch(),
      () => this.watch(),
    );
  }

  news(accountUrl: string): Promise<NewsFile | undefined> {
    return this.read<NewsFile>(accountUrl, 'news');
  }

  writeNews(accountUrl: string, news: NewsFile): Promise<void> {
    return this.write(accountUrl, 'news', news);
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

  writeSeen(accountUrl: string, marks: ReadonlyMap<number, number>): Promise<void> {
    return this.write(accountUrl, 'seen', { marks: Object.fromEntries(marks) });
  }

  /** Forgets an account's news (signed out of): the next sign-in starts from a silent baseline. */
  async forget(accountUrl: string): Promise<void> {
    for (const what of ['news', 'lease', 'notified', 'seen']) await Promise.resolve(vscode.workspace.fs.delete(this.file(accountUrl, what))).catch(() => undefined);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private file(accountUrl: string, what: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${what}.${encodeURIComponent(accountUrl).replace(/[%.]/g, '_')}.json`);
  }

  private async read<T>(accountUrl: string, what: string): Promise<T | undefined> {
    try {
      const value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.file(accountUrl, what)))) as unknown;
      return value && typeof value === 'object' ? (value as T) : undefined;
    } catch {
      return undefined; // not there, or being written: the write that completes it is heard
    }
  }

  private async write(accountUrl: string, what: string, value: unknown): Promise<void> {
    await this.made;
    await vscode.workspace.fs.writeFile(this.file(accountUrl, what), new TextEncoder().encode(JSON.stringify(value)));
  }

  private watch(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '*.json'));
    const heard = (uri: vscode.Uri) => {
      if (/^(?:news|seen)\./.test(uri.path.slice(uri.path.lastIndexOf('/') + 1))) this.changed.fire();
    };
    this.disposables.push(watcher, watcher.onDidCreate(heard), watcher.onDidChange(heard), watcher.onDidDelete(heard));
  }
}
