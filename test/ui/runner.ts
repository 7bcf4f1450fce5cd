// A tiny sequential test runner for the UI tests: the steps share one workbench and build on
// each other (sign in before filing a bug), so a step whose prerequisite failed is skipped.
// A step can be marked as a known issue: it still runs, its failure is counted apart (not as a
// failure), and its passing is a failure that says to drop the mark.
// Prints one line per step and returns the counts; the launcher prints `N passed, N failed`.

export interface UiTest {
  name: string;
  /** Names of earlier steps that must have passed; otherwise this one is skipped. */
  needs?: string[];
  /** Default 60 s. */
  timeoutMs?: number;
  /**
   * Why this step is expected to fail today (e.g. the issue it proves). It runs anyway: failing
   * counts as `knownFailing`, passing counts as a failure, so the mark goes when the fix lands.
   */
  knownIssue?: string;
  run(): Promise<void>;
}

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Steps marked `knownIssue` that failed, as expected. */
  knownFailing?: number;
  failures: Array<{ name: string; message: string }>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Runs `tests` in order, counting into `summary` as it goes (so a run stopped half-way still
 * says how far it got). `onFailure` is called right after a step fails (e.g. to take a
 * screenshot) and may return lines to print under it.
 */
export async function runTests(
  tests: UiTest[],
  onFailure: (test: UiTest, index: number) => Promise<string[]>,
  summary: RunSummary = { passed: 0, failed: 0, skipped: 0, failures: [] },
): Promise<RunSummary> {
  const passed = new Set<string>();
  for (const [index, test] of tests.entries()) {
    const missing = (test.needs ?? []).filter((name) => !passed.has(name));
    if (missing.length > 0) {
      summary.skipped++;
      console.log(`  - ${test.name} (skipped: needs "${missing.join('", "')}")`);
      continue;
    }
    const start = Date.now();
    let error: unknown;
    try {
      const work = test.run();
      work.catch(() => undefined); // if the timeout wins, the step's own failure comes later
      await withTimeout(work, test.timeoutMs ?? 60_000, 'The step');
    } catch (e) {
      error = e ?? new Error('The step failed.');
    }
    if (test.knownIssue && error !== undefined) {
      summary.knownFailing = (summary.knownFailing ?? 0) + 1;
      const message = error instanceof Error ? error.message : String(error);
      console.log(`  ✖ ${test.name} (${seconds(Date.now() - start)}; known issue, not counted as a failure)`);
      console.log(`      Known issue: ${test.knownIssue.split('\n').join('\n      ')}`);
      console.log(`      ${message.split('\n').join('\n      ')}`);
      continue;
    }
    if (test.knownIssue) {
      error = new Error(`This step is marked as a known issue but passed: if the issue is fixed, remove its knownIssue.\nKnown issue: ${test.knownIssue}`);
    }
    if (error === undefined) {
      passed.add(test.name);
      summary.passed++;
      console.log(`  ✔ ${test.name} (${seconds(Date.now() - start)})`);
    } else {
      summary.failed++;
      const message = error instanceof Error ? error.message : String(error);
      summary.failures.push({ name: test.name, message });
      console.log(`  ✖ ${test.name} (${seconds(Date.now() - start)})`);
      console.log(`      ${message.split('\n').join('\n      ')}`);
      const extra = await onFailure(test, index).catch((e: unknown) => [`(could not record the failure: ${(e as Error).message})`]);
      for (const line of extra) console.log(`      ${line}`);
    }
  }
  return summary;
}
