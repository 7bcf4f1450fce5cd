// What every launcher run needs, however it ends: a cleanup stack, the signals and the deadline
// that stop it, the summary and an exit code once everything it started is stopped. No editor in
// here: the desktop VS Code launcher (test/integration/electron.ts) uses it too.
import { existsSync, readFileSync } from 'node:fs';
import { limitMs, nearLimit, nearLimitWarning, type Guarded } from '../limits';

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Everything a run started, undone in reverse order however the run ends. */
export class Cleanups {
  private readonly steps: Array<() => Promise<void>> = [];

  /** `tag` names the launcher in the line a failing step prints: `[tag] cleanup: …`. */
  constructor(private readonly tag: string) {}

  /** Registers `undo`; the returned function runs it now (once) and forgets it. */
  add(undo: () => unknown): () => Promise<void> {
    let done = false;
    const step = async () => {
      if (done) return;
      done = true;
      const index = this.steps.indexOf(step);
      if (index >= 0) this.steps.splice(index, 1);
      await undo();
    };
    this.steps.push(step);
    return step;
  }

  async runAll(): Promise<void> {
    for (let step = this.steps.at(-1); step; step = this.steps.at(-1)) {
      try {
        await step();
      } catch (error) {
        console.error(`[${this.tag}] cleanup: ${(error as Error).message}`);
      }
    }
  }
}

/** Rejects on SIGINT/SIGTERM/SIGHUP, so the run stops and cleans up. */
export function onSignal(): { stopped: Promise<never>; signal: () => string | undefined } {
  let received: string | undefined;
  const stopped = new Promise<never>((_, reject) => {
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(name, () => {
        received = name;
        reject(new Error(`Stopped by ${name}.`));
      });
    }
  });
  stopped.catch(() => undefined);
  return { stopped, signal: () => received };
}

/** Rejects with `message` after `ms`, unless `cleanups` has run by then. */
export function rejectAfter(ms: number, message: string, cleanups: Cleanups): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    cleanups.add(() => clearTimeout(timer));
  });
  failed.catch(() => undefined);
  return failed;
}

/** Variables that set a run's limit before test/limits.ts did: said, not silently ignored. */
const OLD_LIMIT_VARIABLES = ['INTEGRATION_TIMEOUT', 'UI_TIMEOUT', 'BENCH_TIMEOUT'];

/**
 * The run's hang guard: `guarded`'s limit (test/limits.ts), or --timeout SECONDS (`flag`) for one
 * run by hand. Checked at once; `start()` starts it, and `ms` is the limit in ms.
 */
export function timeLimit(flag: string | undefined, guarded: Guarded, cleanups: Cleanups): { ms: number; start: () => Promise<never> } {
  for (const name of OLD_LIMIT_VARIABLES) {
    if (process.env[name])
      console.error(`${name} is no longer read: every limit is in test/limits.ts; HELPDESK_TEST_PATIENCE multiplies them.`);
  }
  const ms = flag === undefined ? limitMs(guarded) : Number(flag) * 1000;
  if (!(ms > 0)) throw new Error(`--timeout must be a number of seconds, not ${flag}.`);
  const source = flag === undefined ? 'its hang guard in test/limits.ts, times HELPDESK_TEST_PATIENCE' : '--timeout';
  return { ms, start: () => rejectAfter(ms, `The run did not finish within ${seconds(ms)} (${source}).`, cleanups) };
}

/**
 * `work`, unless one of `stops` rejects first. `work` then fails later, as the cleanup stops what
 * it waits for: that is not an unhandled rejection.
 */
export function until<T>(work: Promise<T>, ...stops: Array<Promise<never>>): Promise<T> {
  work.catch(() => undefined);
  return Promise.race([work, ...stops]);
}

/**
 * Prints the failures, the problems and, last, the plain `N passed, N failed` line CI counts. A
 * problem outside the tests (no result, crash, hang) counts as one more failure. Returns the exit code.
 */
export function printSummary(run: {
  /** "UI tests in code-server 4.100.3": the start of the summary line. */
  what: string;
  passed: number;
  failed: number;
  /** Added to the counts, e.g. ", 2 skipped". */
  more: string;
  failures: Array<{ title: string; message: string }>;
  problems: string[];
  wallMs: number;
  /** The run's hang guard: a run that took over a third of it says so. */
  limitMs?: number;
}): number {
  console.log('');
  if (run.limitMs !== undefined && nearLimit(run.wallMs, run.limitMs)) console.log(nearLimitWarning(run.what, run.wallMs, run.limitMs));
  if (run.failures.length > 0) {
    console.log('Failures:');
    run.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}\n     ${f.message.split('\n').join('\n     ')}`));
  }
  for (const problem of run.problems) console.log(`Problem: ${problem}`);
  const failed = run.failed + (run.problems.length > 0 ? 1 : 0);
  console.log(`${run.what}: ${run.passed} passing, ${failed} failing${run.more}; wall time ${seconds(run.wallMs)}`);
  console.log(`${run.passed} passed, ${failed} failed`);
  return failed > 0 || run.passed === 0 ? 1 : 0;
}

/** Exits with the code `main` resolves with; if it throws, prints the error and cleans up first. */
export function exitWith(main: Promise<number>, cleanups?: Cleanups): void {
  main.then(
    (code) => process.exit(code),
    async (error: unknown) => {
      console.error(error);
      await cleanups?.runAll();
      process.exit(1);
    },
  );
}

/** The JSON file a suite wrote its result to, if it did. */
export function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
