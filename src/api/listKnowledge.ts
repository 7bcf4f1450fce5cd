/** The kinds of post the extension files: a bug report (only a `kind`), a task, a comment. */
export type FiledKind = 'bug' | 'task' | 'comment';

/** A post this extension filed, with the marker it carried. */
export interface FiledPost {
  id: number;
  ref: string;
  kind: FiledKind;
}

/** The part of VS Code's `Memento` this needs (no vscode import: it is unit-tested alone). */
export interface KnowledgeState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

interface Known {
  /** The newest posts this extension filed here, newest first. */
  filed: FiledPost[];
  /** The service refused a list's `order` (422), and answered without it: lists are asked without it. */
  orderRefused?: boolean;
  /** The service refused updating a post (the HTTP status it answered): Close, Assign and the rest are not offered. */
  updatesRefused?: number;
}

/** How many filed posts of each kind are remembered. */
const REMEMBERED = 10;
const PREFIX = 'helpdesk.listKnowledge:';

/**
 * What this extension knows of an account's list of posts (`/app.json`) beyond the spec: the
 * posts it filed there with their markers (a search after a lost answer looks for them, to see
 * whether the list shows such posts with their marker: see `searchFiled`), whether the list
 * refuses `order`, and whether the service refused updating a post. Kept per account in the
 * global state (never the token), never sent anywhere.
 */
export class ListKnowledge {
  private readonly key: string;

  constructor(
    private readonly state: KnowledgeState,
    accountUrl: string,
  ) {
    this.key = PREFIX + accountUrl;
  }

  /** The posts of this kind the extension filed here, newest first. */
  filed(kind: FiledKind): FiledPost[] {
    return this.read().filed.filter((post) => post.kind === kind);
  }

  get orderRefused(): boolean {
    return this.read().orderRefused === true;
  }

  async noteOrderRefused(): Promise<void> {
    await this.write({ ...this.read(), orderRefused: true });
  }

  /** The HTTP status with which the service refused updating a post; undefined while not refused (or forgotten). */
  get updatesRefused(): number | undefined {
    return this.read().updatesRefused;
  }

  /** The service refused updating a post; `undefined` forgets it (a refresh, or an update that went through). */
  async noteUpdatesRefused(status: number | undefined): Promise<void> {
    const { updatesRefused: _old, ...known } = this.read();
    await this.write(status === undefined ? known : { ...known, updatesRefused: status });
  }

  /** A post this extension filed, with the marker it carried. */
  async noteFiled(kind: FiledKind, id: number, ref: string): Promise<void> {
    const known = this.read();
    const others = known.filed.filter((post) => post.id !== id);
    const sameKind = others.filter((post) => post.kind === kind).slice(0, REMEMBERED - 1);
    const filed = [{ id, ref, kind }, ...sameKind, ...others.filter((post) => post.kind !== kind)].sort((a, b) => b.id - a.id);
    await this.write({ ...known, filed });
  }

  private read(): Known {
    const value = this.state.get<Partial<Known>>(this.key);
    const filed = Array.isArray(value?.filed) ? value.filed.filter(isFiledPost) : [];
    const refused = value?.updatesRefused;
    const updatesRefused =
      typeof refused === 'number' && Number.isInteger(refused) && refused >= 100 && refused <= 599 ? refused : undefined;
    return { filed, orderRefused: value?.orderRefused === true, ...(updatesRefused === undefined ? {} : { updatesRefused }) };
  }

  private async write(known: Known): Promise<void> {
    await this.state.update(this.key, known);
  }
}

function isFiledPost(value: unknown): value is FiledPost {
  const post = value as Partial<FiledPost> | undefined;
  return (
    typeof post?.id === 'number' && typeof post.ref === 'string' && (post.kind === 'bug' || post.kind === 'task' || post.kind === 'comment')
  );
}
