// The Helpdesk view's list of posts as the read tools read it: refreshed, then read further as
// every search reads it (see readFurther), so that what a tool finds is a row of the view.
import type vscode = require('vscode');
import type { Post } from '../../api';
import { readFurther } from '../../search/listSearch';
import { clientText, postFacts, postTitle, statusText } from '../../text/postFacts';
import { labelText } from '../../text/serverText';
import type { HelpdeskStore } from '../../store/helpdeskStore';
import type { PostRow } from './readData';
import { withAbort } from './tool';

/**
 * The Helpdesk view's list of posts, refreshed (newest first, whatever order the service keeps; a
 * 404 or an empty page past the end ends it), then read further as every search reads it (see
 * readFurther) until `enough`. What the view shows follows it.
 */
export async function readList(
  store: HelpdeskStore,
  token: vscode.CancellationToken,
  enough: (posts: readonly Post[]) => boolean,
): Promise<{ posts: readonly Post[]; read: number; complete: boolean } | { error: unknown }> {
  const list = store.posts;
  // A cancelled call answers at once; a page only it waits for is given up, one the view waits for goes on.
  await withAbort(token, async (signal) => {
    const cancelled = new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    // Read afresh from the newest (the view's rows stay until the new ones arrive).
    await Promise.race([list.refresh(), cancelled]);
    await readFurther(list, { signal, enough: () => token.isCancellationRequested || enough(list.state.items) });
  });
  const { items, error, hasMore } = list.state;
  if (error && items.length === 0) return { error };
  return { posts: items, read: items.length, complete: !hasMore && !error };
}

/** A post's facts in one line, its client by name where the Clients view has loaded it, else by number. */
export function factsLine(store: HelpdeskStore, post: Post): string {
  return postFacts(post, { statuses: store.statuses, clients: store.clients.state.items, now: Date.now() }).join(' · ');
}

/** A post's facts as data (see readData.ts): the same facts as `factsLine`, its title cut at `titleChars` as the words cut it. */
export function postRow(store: HelpdeskStore, post: Post, reference: string, titleChars: number): PostRow {
  const row: PostRow = { reference, title: labelText(postTitle(post), titleChars), closed: post.closed === true };
  const kind = labelText(post.kind, 20);
  const status = statusText(post, store.statuses);
  const client = clientText(post, store.clients.state.items);
  if (kind) row.kind = kind;
  if (status) row.status = status;
  if (client) row.client = client;
  if (typeof post.comments_cache === 'number' && Number.isSafeInteger(post.comments_cache)) row.commentCount = post.comments_cache;
  return row;
}
