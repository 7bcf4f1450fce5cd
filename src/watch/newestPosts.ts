import type { Page, Post } from '../api';
import { readLastPages } from '../store/lastPages';

/** Where a service that lists oldest first keeps its newest posts: its last page holding any, for pages that hold `full`. */
export interface NewestPage {
  page: number;
  full: number;
}

/**
 * The newest posts the service lists, in as few requests as the service allows. Asked newest
 * first, a service that sorts answers them on page 1: one request. One that lists oldest first
 * whatever it is asked holds them on its last page: found once (O(log n) reads, see
 * `readLastPages`), then remembered (`known`): while that page is short of `full`, new posts land
 * on it, so one request reads them; once it fills, two (it and the next); only a list that grew or
 * shrank by more than a page is searched again. No vscode import.
 */
export async function readNewest(read: (page: number) => Promise<Page<Post>>, known: NewestPage | undefined): Promise<{ posts: Post[]; newestPage?: NewestPage }> {
  if (known) {
    const page = await read(known.page);
    if (page.received > 0 && page.received < known.full) return { posts: page.items, newestPage: known };
    if (page.received > 0) {
      // Full: the newest may have begun the page after it, which then is short or empty.
      const after = await read(known.page + 1);
      if (after.received === 0) return { posts: page.items, newestPage: known };
      if (after.received < known.full && !after.items.some((post) => page.items.some((p) => p.id === post.id))) {
        return { posts: [...page.items, ...after.items], newestPage: { page: known.page + 1, full: known.full } };
      }
    }
    const found = await readLastPages(cached(read, known.page, page), { page: known.page }, known.full);
    return { posts: found.pages.flatMap((p) => p.items), newestPage: found.last > 0 ? { page: found.last, full: known.full } : undefined };
  }
  const first = await read(1);
  if (!ascending(first.items)) return { posts: first.items };
  const found = await readLastPages(read, { page: 1, read: first }, first.received);
  return { posts: found.pages.flatMap((p) => p.items), newestPage: found.last > 0 ? { page: found.last, full: first.received } : undefined };
}

/** Two posts or more, each with a lower id than the next: the service lists oldest first. */
function ascending(posts: readonly Post[]): boolean {
  return posts.length >= 2 && posts.every((post, i) => i === 0 || posts[i - 1]!.id < post.id);
}

function cached(read: (page: number) => Promise<Page<Post>>, number: number, page: Page<Post>): (page: number) => Promise<Page<Post>> {
  return (asked) => (asked === number ? Promise.resolve(page) : read(asked));
}
