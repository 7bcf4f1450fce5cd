// The integration suite's entry point, run inside a VS Code extension host by either launcher
// (code-server + Chromium, or @vscode/test-electron): the host loads this bundle and awaits run().
//
// esbuild bundles the test files into this one file, so mocha cannot find them on disk. Instead,
// for each file, mocha's 'pre-require' puts describe/it/before… on globalThis and then the file's
// module is evaluated: a dynamic import() of a bundled module is evaluated when called, not when
// the bundle loads. To add a test file, add a line to TEST_FILES (the run fails if one is left out).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { limitMs, nearLimit, nearLimitWarning } from '../../limits';
import type { SuiteResult } from '../results';
import { setWatchInterval, slowWaits, versionsScope, waited, waitingFor } from './helpers';

const TEST_FILES: Record<string, () => Promise<unknown>> = {
  'activation.test.ts': () => import('./activation.test'),
  'faults.test.ts': () => import('./faults.test'),
  'signIn.test.ts': () => import('./signIn.test'),
  'trees.test.ts': () => import('./trees.test'),
  'groups.test.ts': () => import('./groups.test'),
  'writes.test.ts': () => import('./writes.test'),
  'reportBug.test.ts': () => import('./reportBug.test'),
  'hostile.test.ts': () => import('./hostile.test'),
  'emails.test.ts': () => import('./emails.test'),
  'inCode.test.ts': () => import('./inCode.test'),
  'news.test.ts': () => import('./news.test'),
  'newsLifecycle.test.ts': () => import('./newsLifecycle.test'),
  'who.test.ts': () => import('./who.test'),
  'accounts.test.ts': () => import('./accounts.test'),
  'startWork.test.ts': () => import('./startWork.test'),
  'updatePost.test.ts': () => import('./updatePost.test'),
  'conversation.test.ts': () => import('./conversation.test'),
  'pickPost.test.ts': () => import('./pickPost.test'),
  'tools.test.ts': () => import('./tools.test'),
  'mcp.test.ts': () => import('./mcp.test'),
  'leaks.test.ts': () => import('./leaks.test'),
};

/**
 * The run on the oldest and the newest VS Code (npm run test:versions, HELPDESK_TEST_SCOPE=versions).
 * What differs between versions is VS Code's side: each API the extension calls, met once. So each
 * group runs once, on the likely service (see forEachProfile), and these files, which test only the
 * extension's own handling of what the service answers, run on CODE_SERVER_VERSION alone.
 */
const ONE_VERSION_FILES = new Set(['faults.test.ts', 'groups.test.ts']);

/** The Restricted Mode run's files: a workspace not trusted, with a repository's hostile settings (see codeServer.ts --restricted). */
const RESTRICTED_FILES: Record<string, () => Promise<unknown>> = {
  'restricted.test.ts': () => import('./restricted.test'),
};

export async function run(): Promise<void> {
  const result: SuiteResult = { finished: false, passed: 0, failed: 0, pending: 0, durationMs: 0, failures: [] };
  writeResult(result);
  const started = Date.now();
  try {
    const grep = process.env.HELPDESK_TEST_GREP;
    const mocha = new Mocha({ ui: 'bdd', timeout: limitMs('integrationTest'), color: false, ...(grep ? { grep } : {}) });
    if (grep) console.log(`  A partial run: only the tests whose title contains "${grep}".`);
    mocha.reporter(lineReporter(result));
    // The news watcher reads the account on its own after each sign-in; only the news tests, which
    // turn it on, should see those requests among the ones they count.
    mocha.suite.beforeAll('the news watcher off', () => setWatchInterval(0));
    // A headless page never has the focus that lets a toast time out: each test's notifications
    // would stay, and the workbench lays out every toast again for each new one (a quarter of the
    // page's CPU time over the suite, growing with every test).
    mocha.suite.afterEach('notifications cleared', () => vscode.commands.executeCommand('notifications.clearAll'));
    const files = process.env.HELPDESK_RESTRICTED === '1' ? RESTRICTED_FILES : TEST_FILES;
    if (files === RESTRICTED_FILES) console.log('  The Restricted Mode run: the workspace is not trusted.');
    if (versionsScope())
      console.log(`  The versions' run: each group once, on the likely service; not ${[...ONE_VERSION_FILES].join(', ')}.`);
    const only = chosenFiles(files);
    if (only) console.log(`  A partial run: only ${[...only].join(', ')}.`);
    for (const [file, load] of Object.entries(files)) {
      if ((versionsScope() && ONE_VERSION_FILES.has(file)) || (only && !only.has(file))) continue;
      mocha.suite.emit('pre-require', globalThis, file, mocha);
      await load();
      mocha.suite.emit('post-require', globalThis, file, mocha);
    }
    const forgotten = unlistedTestFiles();
    if (forgotten.length > 0) throw new Error(`Test files not listed in TEST_FILES of suite/index.ts: ${forgotten.join(', ')}`);
    await new Promise<void>((resolve) => mocha.run(() => resolve()));
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`  ✘ loading the suite\n      ${message}`);
    result.failed += 1;
    result.failures.push({ title: 'loading the suite', message });
  }
  result.durationMs = Date.now() - started;
  result.finished = true;
  delete result.running;
  console.log(
    `\n  ${result.passed} passing, ${result.failed} failing${result.pending ? `, ${result.pending} pending` : ''} (${result.durationMs} ms)`,
  );
  writeResult(result);
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed.`);
}

/** The files --file named (HELPDESK_TEST_FILES: `reportBug` or `reportBug.test.ts`, comma-separated), or undefined for all. */
function chosenFiles(files: Record<string, unknown>): Set<string> | undefined {
  const given = process.env.HELPDESK_TEST_FILES;
  if (!given) return undefined;
  const names = given.split(',').map((name) => (name.endsWith('.test.ts') ? name : `${name}.test.ts`));
  const unknown = names.filter((name) => !(name in files));
  if (unknown.length > 0) throw new Error(`No test file ${unknown.join(', ')}; there are ${Object.keys(files).join(', ')}.`);
  return new Set(names);
}

/** How long each test and hook took: the run's end prints the slowest, and those near their limit. */
interface Timing {
  title: string;
  ms: number;
  /** For a hook: where it was declared ("before each" in trees, say), to add up the hooks declared once and run often. */
  hook?: string;
}

/** A reporter that prints one line per test with console.log (which both launchers show) and counts. */
function lineReporter(result: SuiteResult): Mocha.ReporterConstructor {
  const {
    EVENT_TEST_BEGIN,
    EVENT_HOOK_BEGIN,
    EVENT_HOOK_END,
    EVENT_TEST_PASS,
    EVENT_TEST_FAIL,
    EVENT_TEST_PENDING,
    EVENT_SUITE_BEGIN,
    EVENT_RUN_END,
  } = Mocha.Runner.constants;
  return class LineReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      const timings: Timing[] = [];
      const byFile = new FileClock();
      runner.on(EVENT_SUITE_BEGIN, (suite) => {
        if (suite.title) console.log(`${'  '.repeat(suite.titlePath().length)}${suite.title}`);
      });
      const running = (runnable: Mocha.Runnable) => {
        result.running = runnable.fullTitle();
        writeResult(result);
      };
      runner.on(EVENT_TEST_BEGIN, (test: Mocha.Test) => {
        byFile.enter(test.file);
        running(test);
      });
      runner.on(EVENT_HOOK_BEGIN, (hook: Mocha.Hook) => {
        // A root hook (notifications cleared after each test) counts for the file of its test.
        byFile.enter(hook.file ?? hook.ctx?.currentTest?.file);
        running(hook);
      });
      runner.on(EVENT_HOOK_END, (hook: Mocha.Hook) =>
        timings.push({
          title: hook.fullTitle(),
          ms: hook.duration ?? 0,
          hook: `${hook.originalTitle ?? hook.title} (${hookSource(hook)})`,
        }),
      );
      runner.on(EVENT_TEST_PASS, (test) => {
        result.passed += 1;
        timings.push({ title: test.fullTitle(), ms: test.duration ?? 0 });
        console.log(`${indent(test)}✔ ${test.title} (${test.duration ?? 0} ms)`);
        writeResult(result);
      });
      runner.on(EVENT_TEST_PENDING, (test) => {
        result.pending += 1;
        console.log(`${indent(test)}- ${test.title} (pending)`);
      });
      // Also fires for a failing hook (before/after…), with the hook as `test`.
      runner.on(EVENT_TEST_FAIL, (test, error: Error) => {
        result.failed += 1;
        // A limit hit says what the test was waiting for, when it was waiting for something.
        const waiting = waitingFor();
        const message = `${error.stack ?? error.message}${waiting ? `\n(It was waiting for ${waiting}.)` : ''}`;
        result.failures.push({ title: test.fullTitle(), message });
        console.log(`${indent(test)}✘ ${test.title}\n${indent(test)}    ${error.message}${waiting ? ` (waiting for ${waiting})` : ''}`);
        writeResult(result);
      });
      runner.on(EVENT_RUN_END, () => {
        printTimings(timings);
        byFile.print();
      });
    }
  };
}

/** The slowest tests and hooks, where the time goes, and any that came near the per-test limit. */
function printTimings(timings: Timing[]): void {
  const total = (list: Timing[]) => list.reduce((sum, t) => sum + t.ms, 0);
  const hooks = timings.filter((t) => t.hook);
  console.log(`\n  Time in tests ${(total(timings) - total(hooks)) / 1000} s, in hooks ${total(hooks) / 1000} s. The slowest:`);
  for (const t of [...timings].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`    ${t.ms} ms  ${t.hook ? '(hook) ' : ''}${t.title}`);
  const byHook = new Map<string, { ms: number; runs: number }>();
  for (const t of hooks) {
    const sum = byHook.get(t.hook!) ?? { ms: 0, runs: 0 };
    byHook.set(t.hook!, { ms: sum.ms + t.ms, runs: sum.runs + 1 });
  }
  console.log('  The hooks that cost the most in all:');
  for (const [hook, sum] of [...byHook].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6)) {
    console.log(`    ${sum.ms} ms in ${sum.runs} runs  ${hook}`);
  }
  const limit = limitMs('integrationTest');
  for (const t of timings.filter((t) => nearLimit(t.ms, limit))) console.log(`  ${nearLimitWarning(t.title, t.ms, limit)}`);
  console.log('  What the tests waited for longest in all:');
  for (const [what, sum] of [...waited].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6))
    console.log(`    ${sum.ms} ms in ${sum.times} waits  ${what}`);
  for (const warning of slowWaits) console.log(`  ${warning}`);
}

/** The wall time spent in each test file, its hooks included: where a faster suite is to be found. */
class FileClock {
  private readonly ms = new Map<string, number>();
  private file: string | undefined;
  private since = Date.now();

  enter(file: string | undefined): void {
    const now = Date.now();
    if (this.file) this.ms.set(this.file, (this.ms.get(this.file) ?? 0) + now - this.since);
    if (file) this.file = file;
    this.since = now;
  }

  print(): void {
    this.enter(undefined);
    console.log('  Wall time by file, hooks included:');
    for (const [file, ms] of [...this.ms].sort((a, b) => b[1] - a[1])) console.log(`    ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
  }
}

/** The group a hook was declared in (the same hooks in each profile's group add up). */
function hookSource(hook: Mocha.Hook): string {
  return hook.parent?.title || 'root';
}

function indent(test: Mocha.Runnable): string {
  return '  '.repeat(test.titlePath().length);
}

function writeResult(result: SuiteResult): void {
  const file = process.env.HELPDESK_TEST_RESULT;
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(result, null, 2));
}

/** *.test.ts files next to this one's source that TEST_FILES leaves out (the bundle is out/integration/suite/). */
function unlistedTestFiles(): string[] {
  const sources = join(__dirname, '..', '..', '..', 'test', 'integration', 'suite');
  if (!existsSync(sources)) return [];
  return readdirSync(sources).filter((f) => f.endsWith('.test.ts') && !(f in TEST_FILES) && !(f in RESTRICTED_FILES));
}
