// UI tests: the packaged extension (.vsix) installed in code-server, its workbench in headless
// Chromium, driven like a person would (clicks, keys, menus) with playwright-core, against the
// stand-in server with demo data. No test payload: nothing runs inside the extension host.
//
//   npm run test:ui [-- --screenshots] [--timeout SECONDS] [--verbose] [--skip-package]
//
// --screenshots   also saves the README's PNGs into media/screenshots/
// --skip-package  installs the existing helpdesk-bridge-<version>.vsix instead of packaging
// Environment: UI_TIMEOUT (seconds for the whole run, default 180), CHROMIUM_PATH.
// On a failure the page's screenshot is kept in a helpdesk-ui-failure-* folder under the temp dir.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startStandIn } from '../server';
import {
  CODE_SERVER_VERSION,
  ensureCodeServer,
  ensureSystemPackages,
  isCodeServerInstalled,
  launchChromium,
  runCommand,
  startCodeServer,
  workbenchUrl,
  type Chromium,
  type CodeServer,
} from '../codeServer/codeServerHost';
import { createWorkspace, findRepoRoot } from '../codeServer/workspace';
import { runTests, type RunSummary } from './runner';
import { expectedRows, uiTests } from './steps';
import { Workbench } from './workbench';

const say = (line: string) => console.log(`[ui] ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Undone in reverse order when the run ends, however it ends. */
const cleanups: Array<() => unknown> = [];
async function cleanUp(): Promise<void> {
  for (let undo = cleanups.pop(); undo; undo = cleanups.pop()) {
    try {
      await undo();
    } catch (error) {
      console.error(`[ui] cleanup: ${(error as Error).message}`);
    }
  }
}

/** Rejects on SIGINT/SIGTERM/SIGHUP, so the run stops and cleans up. */
function onSignal(): { stopped: Promise<never>; signal: () => string | undefined } {
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

function rejectAfter(ms: number, message: string): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    cleanups.push(() => clearTimeout(timer));
  });
  failed.catch(() => undefined);
  return failed;
}

/** Prints the summary and, last, the plain `N passed, N failed` line. Returns the exit code. */
function report(summary: RunSummary, problems: string[], wallMs: number): number {
  console.log('');
  if (summary.failures.length > 0) {
    console.log('Failures:');
    summary.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.name}\n     ${f.message.split('\n').join('\n     ')}`));
  }
  for (const problem of problems) console.log(`Problem: ${problem}`);
  const passed = summary.passed;
  const failed = summary.failed + (problems.length > 0 ? 1 : 0);
  const skipped = summary.skipped ? `, ${summary.skipped} skipped` : '';
  console.log(`UI tests in code-server ${CODE_SERVER_VERSION}: ${passed} passing, ${failed} failing${skipped}; wall time ${seconds(wallMs)}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({
    options: {
      screenshots: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      'skip-package': { type: 'boolean', default: false },
    },
  });
  const timeoutSeconds = Number(values.timeout ?? process.env.UI_TIMEOUT ?? 180);
  if (!(timeoutSeconds > 0)) throw new Error(`The timeout must be a number of seconds, not ${values.timeout ?? process.env.UI_TIMEOUT}.`);
  const { stopped, signal } = onSignal();
  const deadline = rejectAfter(timeoutSeconds * 1000, `The run did not finish within ${timeoutSeconds} s (--timeout / UI_TIMEOUT).`);
  const problems: string[] = [];
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, failures: [] };
  let server: CodeServer | undefined;
  let browser: Chromium | undefined;
  const root = findRepoRoot();
  const screenshotDir = values.screenshots ? join(root, 'media', 'screenshots') : undefined;
  let failureDir: string | undefined;

  const printServerOutput = () => {
    if (server && !values.verbose) console.log(`[ui] code-server's last output:\n${server.output().split('\n').slice(-30).join('\n')}`);
  };

  const run = async (): Promise<void> => {
    const installStart = Date.now();
    await ensureSystemPackages({ chromium: true, codeServerBuild: !isCodeServerInstalled(root) }, say);
    const { entry } = await ensureCodeServer(root, say);
    if (Date.now() - installStart > 2000) say(`Packages and code-server ready (${seconds(Date.now() - installStart)}).`);

    const version = (require(join(root, 'package.json')) as { version: string }).version;
    const vsix = join(root, `helpdesk-bridge-${version}.vsix`);
    if (!values['skip-package']) {
      const packageStart = Date.now();
      await runCommand('npm', ['run', '--silent', 'package'], { cwd: root });
      say(`Packaged ${vsix.slice(root.length + 1)} (${seconds(Date.now() - packageStart)}).`);
    }

    const temp = mkdtempSync(join(tmpdir(), 'helpdesk-ui-'));
    cleanups.push(() => rmSync(temp, { recursive: true, force: true }));
    const workspace = createWorkspace(join(temp, 'workspace'));

    const standIn = await startStandIn({ seed: 'demo' });
    cleanups.push(() => standIn.close());
    const expected = await expectedRows(standIn);

    const serverStart = Date.now();
    const started = await startCodeServer({
      entry,
      dataDir: join(temp, 'server'),
      workspace,
      settings: {
        'helpdesk.accountUrl': standIn.url,
        // Steady screenshots: VS Code's default theme (Chromium would pick the light one), no
        // blinking cursor, no hover popups, no light bulb, no minimap; the views' title buttons
        // always showing.
        'workbench.colorTheme': 'Default Dark Modern',
        'editor.cursorBlinking': 'solid',
        'editor.minimap.enabled': false,
        'editor.hover.enabled': false,
        'editor.lightbulb.enabled': 'off',
        'workbench.view.alwaysShowHeaderActions': true,
        'workbench.tips.enabled': false,
      },
      installExtensions: [vsix],
      onOutput: values.verbose ? (line) => console.log(`[code-server] ${line}`) : undefined,
    });
    server = started;
    cleanups.push(() => started.stop());
    say(`code-server ${CODE_SERVER_VERSION} with the .vsix listening on ${started.origin} (${seconds(Date.now() - serverStart)}).`);

    const opened = await launchChromium({ dataDir: join(temp, 'chromium') });
    browser = opened;
    cleanups.push(() => opened.close());
    const { page } = opened;
    page.setDefaultTimeout(15_000);
    if (values.verbose) page.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`));
    const broken = new Promise<never>((_, reject) => {
      page.on('crash', () => reject(new Error('The workbench page crashed.')));
      opened.context.on('close', () => reject(new Error('Chromium closed before the tests ended.')));
      void started.exited.then((code) => reject(new Error(`code-server exited (${code}) before the tests ended.`)));
    });
    broken.catch(() => undefined);

    const pageStart = Date.now();
    await page.goto(workbenchUrl(started, workspace));
    await new Workbench(page).ready();
    say(`Workbench ready (${seconds(Date.now() - pageStart)}); driving it in headless Chromium${screenshotDir ? ', saving screenshots' : ''}…`);
    if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });

    const tests = uiTests({ page, standIn, screenshotDir }, expected);
    const onFailure = async (_test: unknown, index: number): Promise<string[]> => {
      failureDir ??= mkdtempSync(join(tmpdir(), 'helpdesk-ui-failure-'));
      const file = join(failureDir, `step-${index + 1}.png`);
      await page.screenshot({ path: file, timeout: 10_000 });
      return [`Screenshot: ${file}`];
    };
    await Promise.race([runTests(tests, onFailure, summary), broken]);
    if (summary.failed > 0) printServerOutput();
  };

  try {
    const running = run();
    running.catch(() => undefined); // if it loses the race, cleanup makes it fail later: not an unhandled rejection
    await Promise.race([running, deadline, stopped]);
  } catch (error) {
    problems.push((error as Error).message);
    if (browser && !signal()) {
      failureDir ??= mkdtempSync(join(tmpdir(), 'helpdesk-ui-failure-'));
      const file = join(failureDir, 'page.png');
      await browser.page.screenshot({ path: file, timeout: 5_000 }).then(
        () => say(`Screenshot of the page: ${file}`),
        () => undefined,
      );
    }
    printServerOutput();
  }
  await cleanUp();
  const code = report(summary, problems, Date.now() - wallStart);
  return signal() ? 130 : code;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
