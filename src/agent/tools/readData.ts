// What the read tools answer as data, beside their words: MCP's structured content, whose schemas
// (the read tools' output schemas) are src/agent/mcp/entry/definitions.ts's, checked against these
// types by tsc. Server text in it is plain text (no fence, no markup), cut to the same lengths as in
// the words. VS Code's chat is given the words only. No imports: the entry's bundle reads the types.

/** A post as a search lists it: the facts its line says, each a field. */
export interface PostRow {
  /** As the words name it: HD-123, #123. */
  reference: string;
  title: string;
  /** The service's kind ("error", "task"…), as it sends it. */
  kind?: string;
  /** The status by name, else by number. */
  status?: string;
  closed: boolean;
  /** The client by name, else by number. */
  client?: string;
  /** As the service counts them. */
  commentCount?: number;
}

export interface SearchData {
  /** The newest that matched, at most the limit. */
  posts: PostRow[];
  /** How many matched, of those read. */
  matched: number;
  /** How many posts were read. */
  read: number;
}

export interface PostData extends PostRow {
  /** Its web page. */
  url: string;
  /** Its content as text (an e-mail's HTML as its text), cut as in the words. */
  content: string;
  /** The comments listed on it, oldest first, the last few. */
  comments: { reference: string; content: string }[];
}

/** A read tool's answer: its words, and its data where it read something (none for an answer that only says why not). */
export interface ReadAnswer<T> {
  readonly text: string;
  readonly data?: T;
}

/** An answer of words only: nothing was read. */
export function wordsOnly(text: string): ReadAnswer<never> {
  return { text };
}
