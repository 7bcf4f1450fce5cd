// What the bench suite (inside the extension host) writes to HELPDESK_BENCH_RESULT, and what the
// launcher passes to it in the environment. Shared by both sides; no vscode import.

/** Environment variables of the code-server process, which the extension host inherits. */
export const BENCH_ENV = {
  /** Where the suite writes its BenchOutput as JSON. */
  result: 'HELPDESK_BENCH_RESULT',
  /** The id of the extension under test (the development extension). */
  extension: 'HELPDESK_BENCH_EXTENSION',
  /** BenchAccount as JSON: the account whose pages are loaded. Test-only: the stand-in's throwaway token. */
  account: 'HELPDESK_BENCH_ACCOUNT',
  /** Posts per page. */
  pageSize: 'HELPDESK_BENCH_PAGE_SIZE',
  /** What the suite measures: 'depth' (the default) or 'mcp'. */
  job: 'HELPDESK_BENCH_JOB',
  /** With 'mcp': pairs of each read. */
  pairs: 'HELPDESK_BENCH_PAIRS',
} as const;

/** One stand-in server, holding one account of `posts` generated posts. */
export interface BenchAccount {
  posts: number;
  url: string;
  token: string;
}

/** Load more at depth: every page of a large account through the Helpdesk view. */
export interface DepthFigures {
  posts: number;
  pageSize: number;
  /** Per page loaded, in order: page 1 is the view's refresh, the others "Load more…". */
  pageMs: number[];
  /** fetch + JSON.parse of the same URL, per repetition, for page 1 and for the last page. */
  bareFirstMs: number[];
  bareLastMs: number[];
  heapBefore: number;
  heapAfter: number;
  /** Posts in the list when heapAfter was read. */
  loaded: number;
  /** The floor: heap per post of the same pages fetched and JSON.parse'd bare, kept, in the same host. */
  bareHeapPerPost: number;
  /** How garbage was collected before each reading. */
  gc: 'global.gc' | 'v8 flag' | 'none';
}

/** A read tool called through MCP (the stdio entry, an MCP client of the official SDK) and through VS Code's chat (vscode.lm.invokeTool), in pairs. */
export interface McpFigures {
  /** The account's posts. */
  posts: number;
  reads: {
    tool: string;
    /** Per pair, in ms: the MCP client's callTool to its result. */
    mcp: number[];
    /** Per pair, in ms: vscode.lm.invokeTool to its result. */
    chat: number[];
  }[];
}

export interface BenchOutput {
  ok: boolean;
  error?: string;
  depth?: DepthFigures;
  mcp?: McpFigures;
}
