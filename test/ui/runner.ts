// A tiny sequential test runner for the UI tests: the steps share one workbench and build on
// each other (sign in before filing a bug), so a step whose prerequisite failed is skipped.
// Prints one line per step and returns the counts; the launcher prints `N passed, N failed`.
import { seconds } from '../codeServer/run';
import { limitMs, nearLimit, nearLimitWarning } from '../limits';

export interface UiTest {
  name: string;
  /** Names of earlier steps that must have passed; otherwise this one is skipped. */
  needs?: string[];
  run(): Promise<void>;
}

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: Array<{ name: string; message: string }>;
}

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
    try {
      const work = test.run();
      work.catch(() => undefined); // if the timeout wins, the step's own failure comes later
      await withTimeout(work, limitMs('uiStep'), 'The step');
      passed.add(test.name);
      summary.passed++;
      console.log(`  ✔ ${test.name} (${seconds(Date.now() - start)})`);
      if (nearLimit(Date.now() - start, limitMs('uiStep')))
        console.log(`    ${nearLimitWarning('the step', Date.now() - start, limitMs('uiStep'))}`);
    } catch (error) {
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
