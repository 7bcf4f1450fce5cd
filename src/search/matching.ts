// Which records a search finds, one rule for the agent's search (helpdesk_searchPosts) and the
// editor's picks: every word in the record's text, any case; the work in slices (`pause`), each
// record's text lower-cased once. The words are bounded before (see searchInput.ts). A post's
// content is what it reads as (an e-mail's text, not its markup: contentText.ts).
import { isComment, type Client, type Post } from '../api';
import { NOBODY, type WhoIAm } from '../accounts/identity';
import { inScope, type PostsScope } from '../accounts/scopes';
import { contentText } from '../text/contentText';

/** What a search of posts wants (the agent's SearchCriteria, or a pick's). */
export interface PostQuery {
  /** Lower-cased, each once. */
  readonly words: readonly string[];
  /** Lower-cased; the service's kind (`error`) or task kind. */
  readonly kind?: string | undefined;
  readonly state: 'open' | 'closed' | 'all';
  readonly scope?: PostsScope;
}

export type Pause = () => Promise<void> | undefined;

/** The posts among `posts` that the query wants (no comment), by id; each post's title and content searched for every word. */
export async function matchingPosts(
  posts: readonly Post[],
  query: PostQuery,
  pause: Pause,
  who: Pick<WhoIAm, 'me' | 'filed'> = NOBODY,
): Promise<Map<number, Post>> {
  const { words, kind, state, scope = 'everything' } = query;
  const found = new Map<number, Post>();
  for (const post of posts) {
    await pause();
    const wanted =
      !isComment(post) &&
      (state === 'all' || (state === 'closed') === (post.closed === true)) &&
      (kind === undefined || post.kind?.toLowerCase() === kind || post.task_kind?.toLowerCase() === kind) &&
      inScope(post, scope, who);
    if (wanted && (await hasEvery(words, () => `${textOf(post.title)}\n${contentText(post).text}`, pause))) found.set(post.id, post);
  }
  return found;
}

/** The clients among `clients` whose name, city or e-mail address hold every word, by id. */
export async function matchingClients(clients: readonly Client[], words: readonly string[], pause: Pause): Promise<Map<number, Client>> {
  const found = new Map<number, Client>();
  for (const client of clients) {
    await pause();
    if (await hasEvery(words, () => [client.name, client.city, client.email].map(textOf).join('\n'), pause)) found.set(client.id, client);
  }
  return found;
}

/** Whether the text (made only when there are words, lower-cased once) holds every word. */
async function hasEvery(words: readonly string[], text: () => string, pause: Pause): Promise<boolean> {
  if (words.length === 0) return true;
  const lower = text().toLowerCase();
  for (const word of words) {
    if (!lower.includes(word)) return false;
    await pause();
  }
  return true;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
