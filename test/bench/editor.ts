// One fresh editor: a code-server (hence a fresh extension host) and a headless Chromium with a
// fresh profile, opened with a payload that loads one development extension and runs the bench
// suite in the extension host. Everything it starts is stopped before it returns.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { delay, launchChromium, startCodeServer, workbenchUrl } from '../codeServer/codeServerHost';
import type { Cleanups } from './cleanups';
import { BENCH_ENV, type BenchOutput } from './results';

export interface EditorRun {
  /** node <entry> starts code-server. */
  entry: string;
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
  const resultFile = join(run.dir, 'result.json');
  const server = await startCodeServer({
    entry: run.entry,
    dataDir: join(run.dir, 's'),
    workspace: run.workspace,
    env: { ...run.env, [BENCH_ENV.result]: resultFile },
    onOutput: run.verbose ? (line) => console.log(`[code-server] ${line}`) : undefined,
  });
  const stopServer = cleanups.add(() => server.stop());
  try {
    const browser = await launchChromium({ dataDir: join(run.dir, 'c') });
    const closeBrowser = cleanups.add(() => browser.close());
    try {
      let exit: (code: number) => void = () => undefined;
      const exited = new Promise<number>((resolve) => (exit = resolve));
      // Both before goto: the workbench looks for them when the suite starts and ends.
      await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
      await browser.page.exposeFunction('codeAutomationLog', (_level: unknown, message: unknown) => {
        const text = (Array.isArray(message) ? message : [message]).map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
        if (run.verbose || text.startsWith('bench:')) console.log(`  ${text}`);
      });
      const broken = new Promise<never>((_, reject) => {
        browser.page.on('crash', () => reject(new Error('The workbench page crashed.')));
        browser.context.on('close', () => reject(new Error('Chromium closed before the bench suite ended.')));
        void server.exited.then((code) => reject(new Error(`code-server exited (${code}) before the bench suite ended.`)));
        void delay(run.timeoutMs).then(() => reject(new Error(`The bench suite did not end within ${run.timeoutMs / 1000} s.`)));
      });
      broken.catch(() => undefined);
      await browser.page.goto(workbenchUrl(server, run.workspace, run));
      const code = await Promise.race([exited, broken]);
      const output = readOutput(resultFile);
      if (!output) throw new Error(`The bench suite wrote no result (exit code ${code}).\n${server.output().split('\n').slice(-15).join('\n')}`);
      if (!output.ok) throw new Error(`The bench suite failed in the extension host: ${output.error}`);
      return output;
    } finally {
      await closeBrowser();
    }
  } finally {
    await stopServer();
  }
}

function readOutput(file: string): BenchOutput | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BenchOutput;
  } catch {
    return undefined;
  }
}
