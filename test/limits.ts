// Every time limit of the tests, their launchers and the bench, in one place. Each one is a hang
// guard, never a budget: it ends a run that would otherwise wait for ever, and says what was
// waited for. None decides whether a test passes on a slow machine.
//
// Each limit is written as how long the thing it guards takes on a quiet 2-vCPU machine of CI's
// kind (the slowest seen there), times GUARD_FACTOR. Machines of that kind differ by up to 3×, and
// a developer's has a build running beside it: ten times the quiet figure leaves at least three
// times it on the slowest of them. HELPDESK_TEST_PATIENCE (a number from 1 to 100) multiplies every
// limit, for a machine slower still (a debugger, valgrind). The launchers print a warning for
// anything that took more than a third of its limit (`nearLimit`), so a figure here that has grown
// out of date is seen long before it fails a run.
//
// No vscode import: the launchers (Node), the suite (in the extension host) and the UI tests use it.

/** How many times the quiet duration a limit allows. */
export const GUARD_FACTOR = 10;

/** HELPDESK_TEST_PATIENCE, checked: 1 when unset. */
export function patience(given = process.env.HELPDESK_TEST_PATIENCE): number {
  if (given === undefined || given === '') return 1;
  const value = Number(given);
  if (!Number.isFinite(value) || value < 1 || value > 100) {
    throw new Error(`HELPDESK_TEST_PATIENCE must be a number from 1 to 100, not ${JSON.stringify(given)}.`);
  }
  return value;
}

/**
 * How long each thing takes on a quiet machine of CI's kind, in ms: the slowest seen over runs of
 * `npm test` there (per-test and per-wait times are in each run's "slowest" summary).
 */
export const QUIET_MS = {
  // ---- the integration suite, inside the extension host
  /** Something a test's own action brings about: a row painted, a file written, a request recorded, a line logged. */
  condition: 500,
  /** The built-in Git extension opening the workspace's repository after activation. */
  gitRepository: 1_500,
  /** The extension's background start (5 s after the window's, see extension.ts), e.g. the MCP endpoint opening. */
  backgroundStart: 6_000,
  /** An agent's call through the MCP entry, a process of its own. */
  agentCall: 1_500,
  /** A pick of posts reading the pages it searches. */
  postSearch: 2_000,
  /** One test or hook of the integration suite (the slowest are the news and Start Work tests). */
  integrationTest: 5_000,
  /** The whole integration suite in one code-server, from opening the page to its result. */
  integrationSuite: 150_000,
  // ---- the launchers
  /** code-server, from its start to "HTTP server listening" (an --install-extension first included). */
  serverListening: 3_000,
  /** A process group stopping after SIGTERM, before it is killed. */
  processStop: 500,
  /** `npm run package` (production bundles and vsce). */
  packaging: 15_000,
  // ---- the UI tests, driving the workbench in Chromium
  /** The workbench laid out after the page opens. */
  workbenchReady: 4_000,
  /** Something on screen after a click or a key: a box, a row, a toast, a dialog. */
  uiReaction: 2_000,
  /** How long a UI step looks for something that may not come, before it tries another way. */
  uiProbe: 500,
  /** The TypeScript server's "Analyzing…" in the status bar, from showing to gone. */
  typeScriptAnalysis: 5_000,
  /** One UI step (the slowest reload the workbench or file through a dialog). */
  uiStep: 12_000,
  /** The whole UI run, from packaging to the last step. */
  uiRun: 90_000,
  // ---- the bench
  /** The whole of `npm run bench` (15 pairs of each figure, the depth, MCP and news runs). */
  benchRun: 1_000_000,
  /** The bench's Load more at depth, in one extension host. */
  benchDepth: 60_000,
  /** The bench's MCP reads against VS Code's chat, in one extension host (the endpoint's background start, then the pairs). */
  benchMcp: 20_000,
} as const;

export type Guarded = keyof typeof QUIET_MS;

/** The limit for `what`, in ms. */
export function limitMs(what: Guarded): number {
  return guardMs(QUIET_MS[what]);
}

/**
 * A unit test's hang guard on work it times (a parser over 1 MB of hostile text, say): `quietMs`,
 * the slowest that work takes on a quiet machine of CI's kind, times GUARD_FACTOR. A blow-up it
 * guards against (backtracking, quadratic scans) takes seconds, far past it.
 */
export function guardMs(quietMs: number): number {
  return quietMs * GUARD_FACTOR * patience();
}

/** True when something that took `tookMs` used more than a third of `what`'s limit: QUIET_MS is out of date. */
export function nearLimit(tookMs: number, limit: number): boolean {
  return tookMs > limit / 3;
}

/** The line a launcher prints for something that took more than a third of its limit. */
export function nearLimitWarning(name: string, tookMs: number, limit: number): string {
  const percent = Math.round((100 * tookMs) / limit);
  return `Slow: ${name} took ${(tookMs / 1000).toFixed(1)} s, ${percent}% of its hang guard (${limit / 1000} s). If this machine is not unusually busy, raise its figure in test/limits.ts.`;
}
