// helpdesk_searchPosts: the posts whose title or content holds all the words, among the newest
// the Helpdesk view's list reads. What the agent sends is bounded before any work
// (searchInput.ts), and the matching is done in slices (slices.ts).
import type vscode = require('vscode');
import type { Identity } from '../../accounts/identity';
import { scopeNeedsMe, type PostsScope } from '../../accounts/scopes';
import type { SignedIn, WindowAccount } from '../../accounts/signedIn';
import { referenceText } from '../../code/postReferences';
import { matchingPosts } from '../../search/matching';
import { searchCriteria, type SearchCriteria } from '../../search/searchInput';
import { slicer } from '../../search/slices';
import { readSettings } from '../../settings';
import { factsLine, postRow, readList } from './postList';
import { wordsOnly, type PostRow, type ReadAnswer, type SearchData } from './readData';
import { failureAnswer, isInput, NO_INPUT, onAccount, quoted, SIGN_IN } from './tool';

export interface SearchPostsInput {
  /** Words that must all be in the title or the content (any case); none: every post. At most QUERY_CHARS characters and QUERY_WORDS different words. */
  query?: string;
  /** `bug` for bug reports (kind `error`), `task`, or a kind the service uses. */
  kind?: string;
  state?: 'open' | 'closed' | 'all';
  scope?: PostsScope;
  /** At most this many posts in the answer (1–50, default 20). */
  limit?: number;
}

/** The tool: its input is what VS Code or the MCP endpoint hands over as the agent wrote it (a SearchPostsInput, or any JSON value). */
export function searchPostsTool(
  window: Pick<WindowAccount, 'ready'>,
  identity: Identity,
): (input: unknown, token: vscode.CancellationToken) => Promise<ReadAnswer<SearchData>> {
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);

  async function search(
    { url, store }: SignedIn,
    criteria: SearchCriteria,
    token: vscode.CancellationToken,
  ): Promise<ReadAnswer<SearchData>> {
    const who = identity.whoIAm(url);
    if (scopeNeedsMe(criteria.scope) && who.me === undefined)
      return wordsOnly(
        'Who the person is in this helpdesk is not known yet, so "assigned to me" cannot be told. Ask them to run "Helpdesk: Set Who I Am…", or search without that scope.',
      );
    const listed = await readList(store, token, () => false);
    if ('error' in listed) return wordsOnly(failureAnswer("The helpdesk's posts could not be read.", listed.error));
    const pause = slicer();
    const found = await matchingPosts(listed.posts, criteria, pause, who);
    const { read, complete } = listed;
    const posts = [...found.values()].sort((a, b) => b.id - a.id).slice(0, criteria.limit);
    const scope = complete ? `all ${read} posts` : `the ${read} newest posts`;
    const data = (rows: PostRow[]): SearchData => ({ posts: rows, matched: found.size, read });
    if (posts.length === 0) return { text: `No post matched, among ${scope} of the helpdesk.`, data: data([]) };
    const lines: string[] = [];
    const rows: PostRow[] = [];
    for (const post of posts) {
      const row = postRow(store, post, reference(post.id), TITLE_CHARS);
      lines.push([row.reference, row.title, factsLine(store, post)].join(' · '));
      rows.push(row);
      await pause();
    }
    const text = [
      `${found.size > posts.length ? `The ${posts.length} newest of ${found.size}` : posts.length} posts matched, among ${scope} (reference · title · kind · status · open or closed · client · comments · age).`,
      quoted(lines.join('\n')),
    ].join('\n');
    return { text, data: data(rows) };
  }

  return async (input, token) => {
    if (!isInput(input)) return wordsOnly(NO_INPUT);
    // Validated into its criteria where it enters, before any work (and before the account).
    const criteria = searchCriteria(input);
    if (typeof criteria === 'string') return wordsOnly(criteria);
    return onAccount(
      window,
      (signedIn) => search(signedIn, criteria, token),
      () => wordsOnly(SIGN_IN),
    )();
  };
}

/** A title's length in a search's answer. */
const TITLE_CHARS = 100;
