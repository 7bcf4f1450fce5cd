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
import { postTitle } from '../../text/postFacts';
import { labelText } from '../../text/serverText';
import { factsLine, readList } from './postList';
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
): (input: unknown, token: vscode.CancellationToken) => Promise<string> {
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);

  async function search({ url, store }: SignedIn, criteria: SearchCriteria, token: vscode.CancellationToken): Promise<string> {
    const who = identity.whoIAm(url);
    if (scopeNeedsMe(criteria.scope) && who.me === undefined)
      return 'Who the person is in this helpdesk is not known yet, so "assigned to me" cannot be told. Ask them to run "Helpdesk: Set Who I Am…", or search without that scope.';
    const listed = await readList(store, token, () => false);
    if ('error' in listed) return failureAnswer("The helpdesk's posts could not be read.", listed.error);
    const pause = slicer();
    const found = await matchingPosts(listed.posts, criteria, pause, who);
    const { read, complete } = listed;
    const posts = [...found.values()].sort((a, b) => b.id - a.id).slice(0, criteria.limit);
    const scope = complete ? `all ${read} posts` : `the ${read} newest posts`;
    if (posts.length === 0) return `No post matched, among ${scope} of the helpdesk.`;
    const lines: string[] = [];
    for (const post of posts) {
      lines.push([reference(post.id), labelText(postTitle(post), 100), factsLine(store, post)].join(' · '));
      await pause();
    }
    return [
      `${found.size > posts.length ? `The ${posts.length} newest of ${found.size}` : posts.length} posts matched, among ${scope} (reference · title · kind · status · open or closed · client · comments · age).`,
      quoted(lines.join('\n')),
    ].join('\n');
  }

  return async (input, token) => {
    if (!isInput(input)) return NO_INPUT;
    // Validated into its criteria where it enters, before any work (and before the account).
    const criteria = searchCriteria(input);
    if (typeof criteria === 'string') return criteria;
    return onAccount(
      window,
      (signedIn) => search(signedIn, criteria, token),
      () => SIGN_IN,
    )();
  };
}
