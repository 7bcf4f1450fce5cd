// The editor a launcher runs: code-server, and a headless Chromium as its window, started as one
// session whose `broken` promise rejects when either goes away. Also what comes before (system
// packages, code-server's install, the .vsix) and after (the server's last output).
//
//   prepareEditor(...)   packages and code-server (a given version, by default CODE_SERVER_VERSION), saying how long that took
//   packageVsix(...)     `npm run package`: the .vsix in the repo root
//   openEditor(...)      code-server, then Chromium; both stopped by the run's cleanup
//   runSuite(...)        a test payload in the extension host, until it reports its exit code
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  CODE_SERVER_VERSION,
  ensureCodeServer,
  ensureSystemPackages,
  installedCodeServer,
  launchChromium,
  npmEnv,
  runCommand,
  startCodeServer,
  workbenchUrl,
  type Chromium,
  type CodeServer,
  type CodeServerInstall,
  type CodeServerOptions,
  type Log,
} from './codeServerHost';
import { seconds, type Cleanups } from './run';

/** System packages (Chromium too, unless `chromium: false`) and code-server `version` (default CODE_SERVER_VERSION). */
export async function prepareEditor(root: string, say: Log, need: { chromium: boolean; version?: string }): Promise<CodeServerInstall> {
  const start = Date.now();
  const version = need.version ?? CODE_SERVER_VERSION;
  await ensureSystemPackages({ chromium: need.chromium, codeServerBuild: !installedCodeServer(root, version) }, say);
  const codeServer = await ensureCodeServer(root, say, version);
  if (Date.now() - start > 2000) say(`Packages and code-server ${version} ready (${seconds(Date.now() - start)}).`);
  return codeServer;
}

/** The .vsix `npm run package` writes into the repo root. */
export function vsixPath(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  return join(root, `${manifest.name}-${manifest.version}.vsix`);
}

/** `npm run package` (its vscode:prepublish builds the production bundles, then vsce packs them); returns the .vsix. */
export async function packageVsix(root: string, cleanups: Cleanups): Promise<string> {
  await runCommand('npm', ['run', '--silent', 'package'], { cwd: root, env: npmEnv({}), cleanups });
  return vsixPath(root);
}

export interface EditorOptions extends Omit<CodeServerOptions, 'dataDir' | 'onOutput'> {
  /**
   * An empty folder of the caller's, with a short path (see CodeServerOptions.dataDir): the
   * server's data goes in its server/ folder, Chromium's in chromium/.
   */
  dir: string;
  /** Prints code-server's output and the page's console as they come. */
  verbose: boolean;
  cleanups: Cleanups;
  /** What the editor is for, in the errors when it goes away: "the suite", "the tests". */
  purpose: string;
  /** The page's size (default 1280×800, as the UI tests' screenshots have it). */
  viewport?: { width: number; height: number };
  /** Called once code-server listens, before Chromium starts; `ms`: how long the server took. */
  onListening?: (server: CodeServer, ms: number) => void;
}

export interface Editor {
  server: CodeServer;
  browser: Chromium;
  page: Page;
  /** Rejects when the page crashes, Chromium closes or code-server exits. */
  broken: Promise<never>;
}

export async function openEditor(options: EditorOptions): Promise<Editor> {
  const { dir, verbose, cleanups, purpose, onListening, viewport, ...serverOptions } = options;
  const serverStart = Date.now();
  const server = await startCodeServer({
    ...serverOptions,
    dataDir: join(dir, 'server'),
    onOutput: verbose ? (line) => console.log(`[code-server] ${line}`) : undefined,
  });
  cleanups.add(() => server.stop());
  onListening?.(server, Date.now() - serverStart);

  const browser = await launchChromium({ dataDir: join(dir, 'chromium'), viewport });
  cleanups.add(() => browser.close());
  const { page } = browser;
  if (verbose) page.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`));
  const broken = new Promise<never>((_, reject) => {
    page.on('crash', () => reject(new Error('The workbench page crashed.')));
    browser.context.on('close', () => reject(new Error(`Chromium closed before ${purpose} ended.`)));
    void server.exited.then((code) => reject(new Error(`code-server exited (${code}) before ${purpose} ended.`)));
  });
  broken.catch(() => undefined);
  return { server, browser, page, broken };
}

/**
 * Opens `workspace` with a test payload, which runs `tests.extensionTestsPath` in the extension
 * host, and resolves with the exit code the workbench reports through window.codeAutomationExit.
 * The workbench's log (in automation mode, with the extension host's console output) goes to `log`.
 */
export async function runSuite(
  editor: Editor,
  workspace: string,
  tests: { extensionDevelopmentPath: string; extensionTestsPath: string },
  log: (level: unknown, text: string) => void,
): Promise<number> {
  let exit: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exit = resolve));
  // Both before goto: the workbench looks for them when the suite starts and ends.
  await editor.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
  await editor.page.exposeFunction('codeAutomationLog', (level: unknown, message: unknown) => {
    const parts = Array.isArray(message) ? message : [message];
    log(level, parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
  });
  await editor.page.goto(workbenchUrl(editor.server, workspace, tests));
  return Promise.race([exitCode, editor.broken]);
}

/** After a failure, code-server's last 30 lines (unless --verbose printed them as they came). */
export function printLastOutput(server: CodeServer | undefined, verbose: boolean, say: Log): void {
  if (server && !verbose) say(`code-server's last output:\n${server.output(30)}`);
}
