// One fresh editor: a code-server (hence a fresh extension host) and a headless Chromium with a
// fresh profile, opened with a payload that loads one development extension and runs the bench
// suite in the extension host. Everything it starts is stopped before it returns.
import { join } from 'node:path';
import type { CodeServerInstall } from '../codeServer/codeServerHost';
import { openEditor, runSuite } from '../codeServer/editor';
import { Cleanups, readJson, rejectAfter, until } from '../codeServer/run';
import { BENCH_ENV, type BenchOutput } from './results';

export interface EditorRun {
  /** Which code-server, and the Node that runs it. */
  codeServer: CodeServerInstall;
  /** An empty folder of the caller's, with a short path (Unix sockets go below it). */
  dir: string;
  /** The folder the window opens. */
  workspace: string;
  extensionDevelopmentPath: string;
  /** The bench suite's bundle (exports run()). */
  extensionTestsPath: string;
  /** For the extension host (BENCH_ENV names). */
  env: Record<string, string>;
  timeoutMs: number;
  verbose: boolean;
}

export async function runInEditor(run: EditorRun, cleanups: Cleanups): Promise<BenchOutput> {
  // This editor's own cleanup, run when it returns, or with the bench's if the bench stops first.
  const own = new Cleanups('bench');
  const stop = cleanups.add(() => own.runAll());
  try {
    const resultFile = join(run.dir, 'result.json');
    const editor = await openEditor({
      codeServer: run.codeServer,
      dir: run.dir,
      workspace: run.workspace,
      env: { ...run.env, [BENCH_ENV.result]: resultFile },
      extensionTests: true,
      verbose: run.verbose,
      cleanups: own,
      purpose: 'the bench suite',
    });
    const timedOut = rejectAfter(run.timeoutMs, `The bench suite did not end within ${run.timeoutMs / 1000} s.`, own);
    const log = (_level: unknown, text: string) => {
      if (run.verbose || text.startsWith('bench:')) console.log(`  ${text}`);
    };
    const code = await until(runSuite(editor, run.workspace, run, log), timedOut);
    const output = readJson<BenchOutput>(resultFile);
    if (!output) throw new Error(`The bench suite wrote no result (exit code ${code}).\n${editor.server.output(15)}`);
    if (!output.ok) throw new Error(`The bench suite failed in the extension host: ${output.error}`);
    return output;
  } finally {
    await stop();
  }
}
