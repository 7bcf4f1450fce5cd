import type { Post } from '../api';

/** Rows shown at the top of the Helpdesk view before older ones fold into groups. */
export const TOP_ROWS = 500;
/** Rows per group of older posts. */
export const GROUP_ROWS = 500;

/** Where the shown rows stand: at the top, or in group `index` (rows `start` to `end`, end excluded). */
export interface RowGroup {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  /** Holds GROUP_ROWS rows: it is folded (a group still filling is open, and ends with "Load more…"). */
  readonly full: boolean;
}

/** The groups `count` shown rows fold into past the top ones. */
export function rowGroups(count: number): RowGroup[] {
  const groups: RowGroup[] = [];
  for (let start = TOP_ROWS, index = 0; start < count; start += GROUP_ROWS, index++) {
    const end = Math.min(count, start + GROUP_ROWS);
    groups.push({ index, start, end, full: end - start === GROUP_ROWS });
  }
  return groups;
}

/** How often `ShownPosts` marks how many rows the records read so far made (not at each row: a list of 50,000 would hold 50,000 indexes). */
const MARK_EVERY = 100;

/** Which group shown row `position` is in; undefined for a top row. */
export function groupAt(position: number): number | undefined {
  return position < TOP_ROWS ? undefined : Math.floor((position - TOP_ROWS) / GROUP_ROWS);
}

/**
 * The posts the view shows as rows (not comments, and in its filters), and the comments of
 * each, kept as the list grows: a page added at the end is read alone, so that a click on
 * "Load more…" deep in a long list costs its own page, not the list's. Plain TypeScript.
 */
export class ShownPosts {
  private rows: Post[] = [];
  /** How many rows the list's records before index `i * MARK_EVERY` made: where `forget` goes back to. */
  private readonly rowsBefore: number[] = [];
  /** How many of the list's records were read for rows, and for comments. */
  private read = 0;
  private commentsRead = 0;
  private byParent = new Map<number, Post[]>();

  constructor(private readonly shows: (post: Post) => boolean) {}

  /** The list's records from index `from` on may have changed (see `ListChange`); all of them without `from`. */
  forget(from = 0): void {
    if (from < this.read) {
      // Back to the last mark at or before `from`: fewer than MARK_EVERY records that did not change are read again.
      const mark = Math.floor(from / MARK_EVERY);
      this.rows.length = this.rowsBefore[mark]!;
      this.rowsBefore.length = mark;
      this.read = mark * MARK_EVERY;
    }
    if (from < this.commentsRead) {
      // Comments are few and seldom (a service that lists them among posts): read again.
      if (this.byParent.size > 0) {
        this.byParent = new Map();
        this.commentsRead = 0;
      } else {
        this.commentsRead = from;
      }
    }
  }

  /** The rows of `items`, the list's records, reading only those not read before. */
  of(items: readonly Post[]): readonly Post[] {
    if (this.read > items.length || this.commentsRead > items.length) this.forget(items.length);
    for (let i = this.read; i < items.length; i++) {
      if (i % MARK_EVERY === 0) this.rowsBefore.push(this.rows.length);
      const post = items[i]!;
      if (this.shows(post)) this.rows.push(post);
    }
    this.read = items.length;
    const touched = new Set<Post[]>();
    for (let i = this.commentsRead; i < items.length; i++) {
      const post = items[i]!;
      if (typeof post.post_id !== 'number') continue;
      let comments = this.byParent.get(post.post_id);
      if (!comments) this.byParent.set(post.post_id, (comments = []));
      comments.push(post);
      touched.add(comments);
    }
    this.commentsRead = items.length;
    for (const comments of touched) comments.sort((a, b) => a.id - b.id);
    return this.rows;
  }

  /** How many rows are known: after `forget(from)`, those that stand before `from`. */
  get count(): number {
    return this.rows.length;
  }

  /** The loaded comments of post `id`, oldest first. */
  commentsOf(id: number): readonly Post[] {
    return this.byParent.get(id) ?? [];
  }
}
