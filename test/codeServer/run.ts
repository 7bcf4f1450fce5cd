// What every launcher run needs, however it ends: a cleanup stack, the signals and the deadline
// that stop it, the summary and an exit code once everything it started is stopped. No editor in
// here: the desktop VS Code launcher (test/integration/electron.ts) uses it too.
import { existsSync, readFileSync } from 'node:fs';

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

/**
 * The run's time limit in seconds: --timeout (`flag`), else the environment variable `variable`,
 * else `fallback`. Checked at once; the returned function starts the deadline.
 */
export function timeLimit(flag: string | undefined, variable: string, fallback: number, cleanups: Cleanups): () => Promise<never> {
  const given = flag ?? process.env[variable];
  const limit = Number(given ?? fallback);
  if (!(limit > 0)) throw new Error(`The timeout must be a number of seconds, not ${given}.`);
  return () => rejectAfter(limit * 1000, `The run did not finish within ${limit} s (--timeout / ${variable}).`, cleanups);
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
}): number {
  console.log('');
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
