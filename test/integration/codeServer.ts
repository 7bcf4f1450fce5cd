// Runs the integration suite (out/integration/suite/index.js) inside a real VS Code extension host:
// code-server serves the workbench, headless Chromium opens it with a test payload, and the
// workbench reports the suite's end through window.codeAutomationExit.
//
//   npm run test:integration [-- --workspace DIR] [--timeout SECONDS] [--verbose]
//
// Environment: INTEGRATION_TIMEOUT (seconds, default 300), CHROMIUM_PATH (default
// /usr/bin/chromium), HELPDESK_* (passed to the extension host; HELPDESK_TEST_RESULT, if set, is
// where the result file goes, otherwise a temp file).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CODE_SERVER_VERSION,
  ensureCodeServer,
  ensureSystemPackages,
  isCodeServerInstalled,
  launchChromium,
  startCodeServer,
  workbenchUrl,
  type CodeServer,
} from '../codeServer/codeServerHost';
import { startStandIn } from '../server';
import { readResult, reportRun } from './results';
import { createWorkspace, findRepoRoot, standInEnv } from '../codeServer/workspace';

const say = (line: string) => console.log(`[integration] ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Undone in reverse order when the run ends, however it ends. */
const cleanups: Array<() => unknown> = [];
async function cleanUp(): Promise<void> {
  for (let undo = cleanups.pop(); undo; undo = cleanups.pop()) {
    try {
      await undo();
    } catch (error) {
      console.error(`[integration] cleanup: ${(error as Error).message}`);
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

/**
 * The workbench's log in automation mode: a level and the logged values. In test mode the extension
 * host's console output comes the same way (as info), mixed with the workbench's own messages;
 * these routine ones of code-server 4.100 are left out unless --verbose.
 */
const WORKBENCH_CHATTER = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket/,
  /^Ignoring fetching additional builtin extensions/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
];

function logPrinter(verbose: boolean): (level: unknown, message: unknown) => void {
  return (level, message) => {
    const parts = Array.isArray(message) ? message : [message];
    const text = parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');
    if (!verbose && level !== 'error' && WORKBENCH_CHATTER.some((pattern) => pattern.test(text))) return;
    if (level === 'error' || level === 'warn') console.error(text);
    else console.log(text);
  };
}

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({
    options: {
      workspace: { type: 'string' },
      timeout: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const timeoutSeconds = Number(values.timeout ?? process.env.INTEGRATION_TIMEOUT ?? 300);
  if (!(timeoutSeconds > 0)) throw new Error(`The timeout must be a number of seconds, not ${values.timeout ?? process.env.INTEGRATION_TIMEOUT}.`);
  const { stopped, signal } = onSignal();
  const problems: string[] = [];
  let server: CodeServer | undefined;

  const root = findRepoRoot();
  const suite = join(root, 'out', 'integration', 'suite', 'index.js');
  let resultFile = process.env.HELPDESK_TEST_RESULT ? resolve(process.env.HELPDESK_TEST_RESULT) : undefined;
  try {
    if (!existsSync(suite)) throw new Error(`${suite} is missing; build it with: node esbuild.mjs --extension --integration`);

    const installStart = Date.now();
    await Promise.race([ensureSystemPackages({ chromium: true, codeServerBuild: !isCodeServerInstalled(root) }, say), stopped]);
    const { entry } = await Promise.race([ensureCodeServer(root, say), stopped]);
    if (Date.now() - installStart > 2000) say(`Packages and code-server ready (${seconds(Date.now() - installStart)}).`);

    const temp = mkdtempSync(join(tmpdir(), 'helpdesk-it-'));
    cleanups.push(() => rmSync(temp, { recursive: true, force: true }));
    const workspace = values.workspace ? resolve(values.workspace) : createWorkspace(join(temp, 'workspace'));
    const result = (resultFile ??= join(temp, 'result.json'));
    rmSync(result, { force: true });

    const deadline = rejectAfter(timeoutSeconds * 1000, `The run did not finish within ${timeoutSeconds} s (--timeout / INTEGRATION_TIMEOUT).`);
    const standIn = await startStandIn({ seed: 'demo' });
    cleanups.push(() => standIn.close());
    const editorRun = async (): Promise<number> => {
      const serverStart = Date.now();
      const started = await startCodeServer({
        entry,
        dataDir: join(temp, 'server'),
        workspace,
        env: { HELPDESK_TEST_RESULT: result, ...standInEnv(standIn) },
        onOutput: values.verbose ? (line) => console.log(`[code-server] ${line}`) : undefined,
      });
      server = started;
      cleanups.push(() => started.stop());
      say(`code-server ${CODE_SERVER_VERSION} listening on ${started.origin} (${seconds(Date.now() - serverStart)}); running the suite in headless Chromium…`);

      const browser = await launchChromium({ dataDir: join(temp, 'chromium') });
      cleanups.push(() => browser.close());
      let exit: (code: number) => void = () => undefined;
      const exitCode = new Promise<number>((resolve) => (exit = resolve));
      // Both before goto: the workbench looks for them when the suite starts and ends.
      await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
      await browser.page.exposeFunction('codeAutomationLog', logPrinter(values.verbose));
      if (values.verbose) browser.page.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`));
      const broken = new Promise<never>((_, reject) => {
        browser.page.on('crash', () => reject(new Error('The workbench page crashed.')));
        browser.context.on('close', () => reject(new Error('Chromium closed before the suite ended.')));
        void started.exited.then((code) => reject(new Error(`code-server exited (${code}) before the suite ended.`)));
      });
      broken.catch(() => undefined);
      await browser.page.goto(workbenchUrl(started, workspace, { extensionDevelopmentPath: root, extensionTestsPath: suite }));
      return Promise.race([exitCode, broken]);
    };

    const running = editorRun();
    running.catch(() => undefined); // if it loses the race, cleanup makes it fail later: not an unhandled rejection
    const code = await Promise.race([running, deadline, stopped]);
    const summary = readResult(result);
    if (code !== 0 && !(summary && summary.failed > 0)) problems.push(`The extension host ended the suite with exit code ${code}.`);
    await cleanUp();
    return reportRun({ editor: `code-server ${CODE_SERVER_VERSION}`, result: summary, problems, wallMs: Date.now() - wallStart });
  } catch (error) {
    problems.push((error as Error).message);
    if (server && !values.verbose) console.log(`[integration] code-server's last output:\n${server.output().split('\n').slice(-30).join('\n')}`);
    const summary = resultFile ? readResult(resultFile) : undefined; // before cleanUp removes it
    await cleanUp();
    const code = reportRun({ editor: `code-server ${CODE_SERVER_VERSION}`, result: summary, problems, wallMs: Date.now() - wallStart });
    return signal() ? 130 : code;
  }
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
