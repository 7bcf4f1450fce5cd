// The result file the suite writes (path in HELPDESK_TEST_RESULT), and the launchers' summary.
import { printSummary, readJson } from '../codeServer/run';

/** Rewritten after every test, so a run that hangs or crashes still says how far it got. */
export interface SuiteResult {
  finished: boolean;
  /** The test (or hook) running when the file was written, if any. */
  running?: string;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  failures: Array<{ title: string; message: string }>;
}

export function readResult(file: string): SuiteResult | undefined {
  return readJson<SuiteResult>(file);
}

/**
 * Prints the summary (see printSummary). A run that went wrong outside the tests (no result, no
 * tests, crash, hang) counts as one more failure. Returns the process exit code.
 */
export function reportRun(run: {
  editor: string;
  result: SuiteResult | undefined;
  problems: string[];
  wallMs: number;
  limitMs?: number;
}): number {
  const { result } = run;
  const problems = [...run.problems];
  if (!result) {
    if (problems.length === 0) problems.push('The suite wrote no result file (it did not run, or did not finish).');
  } else if (!result.finished) problems.push(`The suite did not finish${result.running ? `; it was running "${result.running}"` : ''}.`);
  else if (result.passed + result.failed === 0) problems.push('No tests ran.');

  return printSummary({
    what: `Integration suite in ${run.editor}`,
    passed: result?.passed ?? 0,
    failed: result?.failed ?? 0,
    more: result?.pending ? `, ${result.pending} pending` : '',
    failures: result?.failures ?? [],
    problems,
    wallMs: run.wallMs,
    limitMs: run.limitMs,
  });
}
