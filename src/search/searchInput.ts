// What helpdesk_searchPosts accepts, bounded before any work: an agent's input is untrusted, and a
// query of a megabyte (or of a hundred thousand words) would otherwise hold the extension host.
// A value out of bounds or of the wrong type is refused in words the agent can act on, not
// quietly read as something else. No vscode import.
import { POSTS_SCOPES, type PostsScope } from '../accounts/scopes';

/** The longest query, in characters, and the most different words in it. */
export const QUERY_CHARS = 500;
export const QUERY_WORDS = 20;
/** The longest kind: kinds are single words (`error`, `task`, `question`…). */
const KIND_CHARS = 40;
const STATES = ['open', 'closed', 'all'] as const;
const LIMIT = { least: 1, most: 50, usual: 20 };

export interface SearchCriteria {
  /** Lower-cased, each once, at most QUERY_WORDS. */
  readonly words: readonly string[];
  /** Lower-cased; `bug` is the service's `error`. */
  readonly kind: string | undefined;
  readonly state: (typeof STATES)[number];
  readonly scope: PostsScope;
  readonly limit: number;
}

/** The criteria of a search, or why the input is refused. */
export function searchCriteria(input: Readonly<Record<string, unknown>>): SearchCriteria | string {
  const { query, kind, state, scope, limit } = input;
  if (query !== undefined && query !== null && typeof query !== 'string')
    return '"query" is text: the words to look for. Nothing was searched.';
  const text = typeof query === 'string' ? query : '';
  if (text.length > QUERY_CHARS)
    return `The query is ${text.length} characters long; a search takes at most ${QUERY_CHARS} characters and ${QUERY_WORDS} different words, which must all be in a post's title or content. Search for a few of its words. Nothing was searched.`;
  const words = [...new Set(text.toLowerCase().split(/\s+/).filter(Boolean))];
  if (words.length > QUERY_WORDS)
    return `The query has ${words.length} different words; a search takes at most ${QUERY_WORDS}, which must all be in a post's title or content. Search for a few of its words. Nothing was searched.`;
  if (kind !== undefined && kind !== null && (typeof kind !== 'string' || kind.length > KIND_CHARS))
    return '"kind" is one short word: "bug" for bug reports, "task", or a kind the service uses ("question", "idea"…). Nothing was searched.';
  const kindWord = typeof kind === 'string' ? kind.trim().toLowerCase() : '';
  const stateWord = oneOf(state, STATES, 'open');
  if (stateWord === undefined) return `"state" is one of ${STATES.join(', ')} (open when left out). Nothing was searched.`;
  const scopeWord = oneOf(scope, POSTS_SCOPES, 'everything');
  if (scopeWord === undefined) return `"scope" is one of ${POSTS_SCOPES.join(', ')} (everything when left out). Nothing was searched.`;
  const most = limitOf(limit);
  if (most === undefined)
    return `"limit" is a number of posts, from ${LIMIT.least} to ${LIMIT.most} (${LIMIT.usual} when left out). Nothing was searched.`;
  return { words, kind: kindWord === 'bug' ? 'error' : kindWord || undefined, state: stateWord, scope: scopeWord, limit: most };
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], usual: T): T | undefined {
  if (value === undefined || value === null) return usual;
  return allowed.find((item) => item === value);
}

/** A number (or a few digits as text) brought within the bounds; undefined for anything else. */
function limitOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return LIMIT.usual;
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.length <= 20 && /^\s*\d{1,6}\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (Number.isNaN(number)) return undefined;
  return Math.min(LIMIT.most, Math.max(LIMIT.least, Math.floor(number)));
}
