// The result file the suite writes (path in HELPDESK_TEST_RESULT), and the launchers' summary.
import { existsSync, readFileSync } from 'node:fs';

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
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SuiteResult;
  } catch {
    return undefined;
  }
}

/**
 * Prints the summary and, last, the plain `N passed, N failed` line CI counts. A run that went
 * wrong outside the tests (no result, no tests, crash, hang) counts as one more failure.
 * Returns the process exit code.
 */
export function reportRun(run: { editor: string; result: SuiteResult | undefined; problems: string[]; wallMs: number }): number {
  const { result } = run;
  const problems = [...run.problems];
  if (!result) {
    if (problems.length === 0) problems.push('The suite wrote no result file (it did not run, or did not finish).');
  } else if (!result.finished) problems.push(`The suite did not finish${result.running ? `; it was running "${result.running}"` : ''}.`);
  else if (result.passed + result.failed === 0) problems.push('No tests ran.');

  console.log('');
  if (result && result.failures.length > 0) {
    console.log('Failures:');
    result.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}\n     ${f.message.split('\n').join('\n     ')}`));
  }
  for (const problem of problems) console.log(`Problem: ${problem}`);
  const passed = result?.passed ?? 0;
  const failed = (result?.failed ?? 0) + (problems.length > 0 ? 1 : 0);
  const pending = result?.pending ? `, ${result.pending} pending` : '';
  console.log(`Integration suite in ${run.editor}: ${passed} passing, ${failed} failing${pending}; wall time ${(run.wallMs / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}
