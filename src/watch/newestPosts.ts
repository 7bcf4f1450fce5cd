import type { Page, Post } from '../api';
import { readLastPages } from '../store/lastPages';

/**
 * Where a service that lists oldest first keeps its newest posts: its last page holding any, for
 * pages that hold `full`, asked `perPage` a page (none: as many as the service gives, see `read`).
 */
export interface NewestPage {
  page: number;
  full: number;
  perPage?: number;
  /** The most a page of the service holds (asked 100), where `perPage` asks fewer. */
  most?: number;
}

/** A page of the list, `perPage` a page (undefined: the most the service gives). */
export type ReadPage = (page: number, perPage?: number) => Promise<Page<Post>>;

/**
 * The newest posts the service lists, in as few requests as the service allows. Asked newest
 * first, a service that sorts answers them on page 1: one request. One that lists oldest first
 * whatever it is asked holds them on its last page: found once (O(log n) reads, see
 * `readLastPages`), then remembered (`known`): while that page is short of `full`, new posts land
 * on it, so one request reads them. A last page exactly full would take two (it, and the empty
 * one after it) every idle poll: the list is then read a page size smaller (see `shortPaging`),
 * so that its last page is short again. Only a list that grew or shrank by more than a page is
 * searched again. No vscode import.
 */
export async function readNewest(read: ReadPage, known: NewestPage | undefined): Promise<{ posts: Post[]; newestPage?: NewestPage }> {
  if (known) {
    const sized = (page: number) => read(page, known.perPage);
    const page = await sized(known.page);
    if (page.received > 0 && page.received < known.full) return { posts: page.items, newestPage: known };
    if (page.received === known.full) {
      // Full: the newest may have begun the page after it, which then is short or empty.
      const after = await sized(known.page + 1);
      if (after.received === 0) return { posts: page.items, newestPage: shortPaging(known.page * known.full, known) };
      if (after.received < known.full && !after.items.some((post) => page.items.some((p) => p.id === post.id))) {
        return { posts: [...page.items, ...after.items], newestPage: { ...known, page: known.page + 1 } };
      }
    }
    if (page.received > known.full) return readNewest(read, undefined); // the service ignores the size asked
    const found = await readLastPages(cached(sized, known.page, page), { page: known.page }, known.full);
    return {
      posts: found.pages.flatMap((p) => p.items),
      newestPage: found.last > 0 ? lastOf(found.last, found.pages[0]!.received, known) : undefined,
    };
  }
  const first = await read(1);
  if (!ascending(first.items)) return { posts: first.items };
  const found = await readLastPages((page) => read(page), { page: 1, read: first }, first.received);
  return {
    posts: found.pages.flatMap((p) => p.items),
    newestPage: found.last > 0 ? lastOf(found.last, found.pages[0]!.received, { page: found.last, full: first.received }) : undefined,
  };
}

/** The newest page found: read a page size smaller from the next poll on where it is exactly full. */
function lastOf(last: number, received: number, known: NewestPage): NewestPage {
  const page = { ...known, page: last };
  return received === known.full ? shortPaging(last * known.full, page) : page;
}

/**
 * Where `count` posts (pages before the last all full) have a short last page: the largest page
 * size from the service's own down to half of it that does not divide `count`. A post added lands
 * on that page, found in one request. Where none does (it cannot happen for counts below the
 * product of those sizes), `known` as it was.
 */
export function shortPaging(count: number, known: NewestPage): NewestPage {
  const most = known.most ?? known.full;
  for (let size = most; size >= Math.max(2, Math.ceil(most / 2)); size--) {
    if (count % size !== 0)
      return size === most
        ? { page: Math.ceil(count / size), full: size }
        : { page: Math.ceil(count / size), full: size, perPage: size, most };
  }
  return known;
}

/** Two posts or more, each with a lower id than the next: the service lists oldest first. */
function ascending(posts: readonly Post[]): boolean {
  return posts.length >= 2 && posts.every((post, i) => i === 0 || posts[i - 1]!.id < post.id);
}

function cached(read: (page: number) => Promise<Page<Post>>, number: number, page: Page<Post>): (page: number) => Promise<Page<Post>> {
  return (asked) => (asked === number ? Promise.resolve(page) : read(asked));
}
