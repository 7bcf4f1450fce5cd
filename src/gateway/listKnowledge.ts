import type { Post } from '../api';
import { carriesDraftRef } from '../drafts/draftRef';

/** The kinds of post the extension files: a bug report (only a `kind`), a task, a comment. */
export type FiledKind = 'bug' | 'task' | 'comment';

/** The part of VS Code's `Memento` this needs (no vscode import: it is unit-tested alone). */
export interface KnowledgeState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

interface Known {
  /** The newest posts this extension filed here, with the marker each carried. */
  filed: { id: number; ref: string; kind: FiledKind }[];
  /** For each kind: whether the list was last seen to hand back one of them with its marker intact. */
  shows: Partial<Record<FiledKind, boolean>>;
  /** The service refused a list's `order` (422): lists are asked without it. */
  orderRefused?: boolean;
}

/** How many filed posts of each kind are remembered, to learn from when a list shows them. */
const REMEMBERED = 10;
const PREFIX = 'helpdesk.listKnowledge:';

/**
 * What this extension has seen an account's list of posts (`/app.json`) hand back. Which posts
 * it lists, and how much of their content, is not documented: it may leave bug reports out, cut
 * content to an abstract or leave it out. So "no listed post carries the marker" proves that a
 * post was not filed only where the list has been seen to hand back a post of that kind that
 * the extension filed, with its marker intact. Learned from the extension's own posts as lists
 * show them, kept per account in the global state (never the token), and never sent anywhere.
 */
export class ListKnowledge {
  private readonly key: string;

  constructor(
    private readonly state: KnowledgeState,
    accountUrl: string,
  ) {
    this.key = PREFIX + accountUrl;
  }

  /** Whether an absence of this kind's marker from the list proves that it was not filed. */
  showsMarkers(kind: FiledKind): boolean {
    return this.read().shows[kind] === true;
  }

  /** The newest post of this kind the extension filed here, to look for in the list. */
  newestFiled(kind: FiledKind): { id: number; ref: string } | undefined {
    return this.read().filed.find((post) => post.kind === kind);
  }

  get orderRefused(): boolean {
    return this.read().orderRefused === true;
  }

  async noteOrderRefused(): Promise<void> {
    await this.write({ ...this.read(), orderRefused: true });
  }

  /** A post this extension filed, with the marker it carried. */
  async noteFiled(kind: FiledKind, id: number, ref: string): Promise<void> {
    const known = this.read();
    const others = known.filed.filter((post) => post.id !== id);
    const sameKind = others.filter((post) => post.kind === kind).slice(0, REMEMBERED - 1);
    const filed = [{ id, ref, kind }, ...sameKind, ...others.filter((post) => post.kind !== kind)].sort((a, b) => b.id - a.id);
    await this.write({ ...known, filed });
  }

  /** A page of the list as the service handed it back: what it shows of the posts filed here. */
  async notePage(posts: readonly Post[]): Promise<void> {
    const known = this.read();
    if (known.filed.length === 0) return;
    const byId = new Map(posts.map((post) => [post.id, post]));
    const seen: Partial<Record<FiledKind, boolean>> = {};
    for (const { id, ref, kind } of known.filed) {
      const listed = byId.get(id);
      if (listed) seen[kind] = (seen[kind] ?? true) && carriesDraftRef(listed.content, ref);
    }
    const shows = { ...known.shows, ...seen };
    if (Object.entries(seen).some(([kind, value]) => known.shows[kind as FiledKind] !== value)) await this.write({ ...known, shows });
  }

  private read(): Known {
    const value = this.state.get<Partial<Known>>(this.key);
    return { filed: Array.isArray(value?.filed) ? value.filed : [], shows: value?.shows ?? {}, orderRefused: value?.orderRefused };
  }

  private async write(known: Known): Promise<void> {
    await this.state.update(this.key, known);
  }
}
