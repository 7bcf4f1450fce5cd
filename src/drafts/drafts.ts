import vscode = require('vscode');

export type DraftKind = 'bug' | 'task' | 'comment';

/**
 * Something the person typed that is not on the server yet. `text` is what the draft document
 * shows: the first line is the title and the rest the content (see draftDocument.ts), except in
 * a comment draft saved before comments had titles (`titled` unset), which is all content.
 */
export interface Draft {
  id: string;
  kind: DraftKind;
  text: string;
  /** The account it is for, so a draft is never sent to another one. */
  accountUrl: string;
  /** The parent post of a comment. */
  postId?: number;
  /** A comment draft whose first line is its title. */
  titled?: boolean;
  /** The parent's comment count when the comment was written, where the service gave one. */
  parentComments?: number;
  clientId?: number | null;
  responsibleId?: number | null;
  /** A short description of where it goes, for lists ("comment on #12"). */
  target?: string;
  createdAt: number;
  updatedAt: number;
  /**
   * Set when an attempt to send it started and no clear "not stored" came back: the service
   * may have it already. Before sending again, the sender looks for it.
   */
  unconfirmed?: UnconfirmedSend;
}

export interface UnconfirmedSend {
  /** The marker the attempt put into the content (see draftRef.ts): the post that carries it is this draft's. */
  ref?: string;
  /** The text the attempt sent: a draft edited since is not the post found. */
  sentText?: string;
  /** The newest post id known before the first attempt: the search for it stops once past this. */
  newestPostId?: number;
  /** The parent's comment count before the first attempt (comments may not be listed). */
  parentComments?: number;
}

const KEY = 'helpdesk.drafts';

/** Drafts in the extension's global state: they survive a window reload and a failed send. */
export class DraftStore {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the id of the draft that changed or went away. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  all(): Draft[] {
    const value = this.state.get<unknown>(KEY);
    return Array.isArray(value) ? (value.filter(isDraft) as Draft[]) : [];
  }

  get(id: string): Draft | undefined {
    return this.all().find((d) => d.id === id);
  }

  async create(fields: Omit<Draft, 'id' | 'createdAt' | 'updatedAt'>): Promise<Draft> {
    const now = Date.now();
    const draft: Draft = { ...fields, id: `${fields.kind}-${now.toString(36)}-${Math.random().toString(36).slice(2, 6)}`, createdAt: now, updatedAt: now };
    await this.write([...this.all(), draft]);
    this.changed.fire(draft.id);
    return draft;
  }

  async update(id: string, text: string): Promise<void> {
    const drafts = this.all();
    const draft = drafts.find((d) => d.id === id);
    if (!draft) throw vscode.FileSystemError.FileNotFound(id);
    draft.text = text;
    draft.updatedAt = Date.now();
    await this.write(drafts);
    this.changed.fire(id);
  }

  /** Records (or, with undefined, forgets) an attempt whose outcome is not known. */
  async setUnconfirmed(id: string, unconfirmed: UnconfirmedSend | undefined): Promise<void> {
    const drafts = this.all();
    const draft = drafts.find((d) => d.id === id);
    if (!draft) return;
    draft.unconfirmed = unconfirmed;
    await this.write(drafts);
  }

  async remove(id: string): Promise<void> {
    await this.write(this.all().filter((d) => d.id !== id));
    this.changed.fire(id);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private write(drafts: Draft[]): Thenable<void> {
    return this.state.update(KEY, drafts);
  }
}

function isDraft(value: unknown): boolean {
  const d = value as Partial<Draft> | null;
  return !!d && typeof d.id === 'string' && typeof d.text === 'string' && typeof d.kind === 'string' && typeof d.accountUrl === 'string';
}
