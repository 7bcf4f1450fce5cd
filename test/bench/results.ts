// What the bench suite (inside the extension host) writes to HELPDESK_BENCH_RESULT, and what the
// launcher passes to it in the environment. Shared by both sides; no vscode import.

/** Environment variables of the code-server process, which the extension host inherits. */
export const BENCH_ENV = {
  /** Where the suite writes its BenchOutput as JSON. */
  result: 'HELPDESK_BENCH_RESULT',
  /** 'activation' or 'tree'. */
  mode: 'HELPDESK_BENCH_MODE',
  /** activation mode: the id of the extension to activate (the development extension). */
  extension: 'HELPDESK_BENCH_EXTENSION',
  /** tree mode: BenchAccount[] as JSON. */
  accounts: 'HELPDESK_BENCH_ACCOUNTS',
  /** tree mode: timed repetitions per case. */
  reps: 'HELPDESK_BENCH_REPS',
} as const;

export type BenchMode = 'activation' | 'tree';

/** One stand-in server, holding one account of `posts` generated posts. */
export interface BenchAccount {
  posts: number;
  url: string;
  token: string;
}

export interface ActivationSample {
  extensionId: string;
  /** `await extension.activate()`, in ms. */
  ms: number;
  /** How long the extension host had been running when the timing started. */
  hostUptimeMs: number;
  /** Other extensions already active when the timing started (built-ins). */
  othersActive: number;
  /**
   * Right after activation, the test exports' load(): what the first use of a view or command
   * adds (requiring dist/helpdesk.js and starting it). Absent for the empty extension.
   */
  firstUseMs?: number;
}

export interface TreeCase {
  posts: number;
  latencyMs: number;
  perPage: number;
  /** The Helpdesk view's refresh button (`helpdesk.refreshPosts`) to the provider's getChildren() resolving with the new first page, per repetition. */
  refreshMs: number[];
  /** "Helpdesk: Refresh" (`helpdesk.refresh`, both views) to the same, per repetition. */
  refreshAllMs: number[];
  /** fetch + JSON.parse of the same URL, per repetition. */
  bareMs: number[];
  /** Requests per refresh, by path, from the stand-in's record (the most seen in one repetition). */
  requestsPerRefresh: Record<string, number>;
  /** The same for "Helpdesk: Refresh". */
  requestsPerRefreshAll: Record<string, number>;
  /** Post rows in the first page's nodes (closed posts are hidden by default). */
  rows: number;
}

export interface HeapFigures {
  posts: number;
  /** helpdesk.loadMore commands until no "Load more…" node was left. */
  loadMoreClicks: number;
  /** Requests for the posts list while loading them all. */
  requests: number;
  loadAllMs: number;
  heapBefore: number;
  heapAfter: number;
  /** How garbage was collected before each reading. */
  gc: 'global.gc' | 'v8 flag' | 'none';
}

export interface BenchOutput {
  mode: BenchMode;
  ok: boolean;
  error?: string;
  activation?: ActivationSample;
  tree?: TreeCase[];
  heap?: HeapFigures;
}
