import vscode = require('vscode');
import { draftIdOf, draftUri } from './draftUri';
import type { DraftStore } from './drafts';

/**
 * Drafts as Markdown files, so "Edit Draft" is a normal editor: saving writes the draft back to
 * the store, and a draft left open survives a window reload.
 */
export class DraftFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly drafts: DraftStore) {
    this.subscription = drafts.onDidChange((id) => {
      const type = drafts.get(id) ? vscode.FileChangeType.Changed : vscode.FileChangeType.Deleted;
      this.changed.fire([{ type, uri: draftUri(id) }]);
    });
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  // VS Code may read a draft left open before the store has read the drafts (a reload): each read waits for it (see `find`).
  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const draft = await this.find(uri);
    return { type: vscode.FileType.File, ctime: draft.createdAt, mtime: draft.updatedAt, size: Buffer.byteLength(draft.text) };
  }

  async readDirectory(): Promise<[string, vscode.FileType][]> {
    await this.drafts.ready;
    return this.drafts.all().map((d) => [`${d.id}.md`, vscode.FileType.File]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return Buffer.from((await this.find(uri)).text, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    await this.find(uri);
    await this.drafts.update(draftIdOf(uri)!, Buffer.from(content).toString('utf8'));
  }

  async delete(uri: vscode.Uri): Promise<void> {
    await this.drafts.remove((await this.find(uri)).id);
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Drafts have no folders.');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Drafts cannot be renamed.');
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  /** The draft as its file is now: another window may have changed or sent it. */
  private async find(uri: vscode.Uri) {
    const id = draftIdOf(uri);
    const draft = id ? await this.drafts.read(id) : undefined;
    if (!draft) throw vscode.FileSystemError.FileNotFound(uri);
    return draft;
  }
}
