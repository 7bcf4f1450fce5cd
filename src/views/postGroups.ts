import type { Post } from '../api';
import { PostGroupNode, postGroupId } from './nodes';
import { groupAt, rowGroups, type RowGroup } from './shownPosts';

/**
 * The groups the Helpdesk view's older rows fold into (see `rowGroups`): their layout for the
 * rows shown now, one node per group id (so that a change redraws the group alone), which
 * groups are open, and how many rows a refresh loads again to show the open ones.
 */
export class PostGroups {
  private groups: RowGroup[] = [];
  private readonly nodes = new Map<string, PostGroupNode>();
  /** Full groups the person opened. */
  private readonly opened = new Set<number>();
  /** The group still filling (open by itself), and whether the person folded it. */
  private filling: number | undefined;
  private fillingFolded = false;

  /** The groups as last laid out. */
  get all(): readonly RowGroup[] {
    return this.groups;
  }

  /** Lays the groups out for `count` rows shown. */
  layOut(count: number): void {
    this.groups = rowGroups(count);
    const last = this.groups.at(-1);
    const filling = last && !last.full ? last.index : undefined;
    if (filling !== this.filling) {
      this.filling = filling;
      this.fillingFolded = false;
    }
    const ids = new Set(this.groups.map(postGroupId));
    for (const id of this.nodes.keys()) if (!ids.has(id)) this.nodes.delete(id);
  }

  /** Group `node` as laid out now; undefined when it is no longer there (its rows moved, or it filled). */
  current(node: PostGroupNode): RowGroup | undefined {
    const group = this.groups[node.group.index];
    return group && postGroupId(group) === node.id ? group : undefined;
  }

  /** The group's node, described for the rows it holds in `shown`: the same object while its id stays. */
  node(group: RowGroup, shown: readonly Post[]): PostGroupNode {
    const id = postGroupId(group);
    let node = this.nodes.get(id);
    if (!node) {
      node = new PostGroupNode(group, !group.full || this.opened.has(group.index));
      this.nodes.set(id, node);
    }
    return node.describe(group, shown[group.start], shown[group.end - 1]);
  }

  /**
   * The group still filling, which ends with "Load more…" while it is open; undefined when every
   * group is full or the person folded it (the view ends with "Load more…" then).
   */
  get tail(): RowGroup | undefined {
    const last = this.groups.at(-1);
    return last && !last.full && !this.fillingFolded ? last : undefined;
  }

  /** The node of the group still filling, if VS Code was given one. */
  tailNode(): PostGroupNode | undefined {
    const tail = this.tail;
    return tail && this.nodes.get(postGroupId(tail));
  }

  /** The person opened or folded a group; true when "Load more…" moved (the group still filling), so the view is drawn again. */
  toggled(node: PostGroupNode, open: boolean): boolean {
    const { index, full } = node.group;
    if (!full && index === this.filling) {
      const moved = this.fillingFolded === open;
      this.fillingFolded = !open;
      return moved;
    }
    if (open) this.opened.add(index);
    else this.opened.delete(index);
    return false;
  }

  /** The rows a refresh must load again to show the groups open on screen (0: none). */
  openRows(): number {
    return Math.max(
      0,
      ...this.groups.filter((g) => this.opened.has(g.index) || (g.index === this.filling && !this.fillingFolded)).map((g) => g.end),
    );
  }

  /** Another account, or signed out: no group was opened. */
  forgetOpened(): void {
    this.opened.clear();
  }

  /**
   * After the rows from `position` on changed and the groups were laid out again (`before`: as
   * they were): the nodes to redraw, or undefined for the whole view (a top row changed, or the
   * groups themselves: one more, one fewer, one that filled).
   */
  changedFrom(position: number, before: readonly RowGroup[], shown: readonly Post[]): PostGroupNode[] | undefined {
    const first = groupAt(position);
    const same = before.length === this.groups.length && before.every((group, i) => group.full === this.groups[i]!.full);
    if (first === undefined || !same) return undefined;
    return this.groups.slice(first).flatMap((group) => (this.nodes.has(postGroupId(group)) ? [this.node(group, shown)] : []));
  }
}
