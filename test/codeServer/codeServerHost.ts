// A real VS Code for machines that cannot download one: code-server (VS Code's workbench and
// extension host, from the npm registry) is the editor, and a headless Chromium driven by
// playwright-core is its window. Used by the integration-test launcher
// (test/integration/codeServer.ts), the UI tests (test/ui/run.ts), the bench (test/bench/) and
// the demo (`npm start`), mostly through editor.ts.
//
//   ensureSystemPackages()  chromium, and ripgrep + libkrb5-dev to build code-server (codeServerInstall.ts)
//   ensureCodeServer(root)  install code-server (a version of it) once under <root>/.cache/, then reuse it (codeServerInstall.ts)
//   startCodeServer(...)    a server on a free loopback port, in its own process group
//   workbenchUrl(...)       the page to open: a folder and, optionally, a test payload
//   launchChromium(...)     a headless Chromium with a fresh profile
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runCommand, signalGroup, type Log } from './commands';
import { chromiumPath, type CodeServerInstall } from './codeServerInstall';
import { limitMs } from '../limits';
import { registerLanguagePacks } from './languagePacks';

export * from './commands';
export * from './codeServerInstall';

/** A free TCP port on 127.0.0.1 (free when asked; used right away). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** User settings that keep the workbench quiet and offline. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  // VS Code 1.139 opens a Chat panel beside the editor on a fresh workbench, which can take the
  // keyboard focus: no AI features, and the secondary side bar closed (as 1.100's default has it).
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export interface CodeServerOptions {
  /** Which code-server, and the Node that runs it (from ensureCodeServer). */
  codeServer: CodeServerInstall;
  /**
   * An empty folder of the caller's (e.g. under a mkdtemp folder): user data, extensions, config
   * and the server's TMPDIR go below it. Keep its path short: Unix socket paths in it must stay
   * under 108 bytes.
   */
  dataDir: string;
  /** A fixed port on 127.0.0.1; default: a free one. */
  port?: number;
  /** Folder to open; the URL from `folderUrl` opens it too. */
  workspace?: string;
  /** Added to the server's environment, which the extension host inherits. */
  env?: Record<string, string>;
  /** Merged over QUIET_SETTINGS into the user settings.json. */
  settings?: Record<string, unknown>;
  /**
   * The page will run extension tests from its URL's payload (workbenchUrl with `tests`). VS Code
   * 1.139 honours such a payload only with --enable-smoke-test-driver, which code-server 4.139
   * takes from VSCODE_OPTIONS; 4.100 and older need nothing and ignore the variable.
   */
  extensionTests?: boolean;
  /** .vsix files (or extension ids) installed with --install-extension before the server starts. */
  installExtensions?: string[];
  /** Every line the server prints. */
  onOutput?: Log;
  /** Workspace trust as VS Code has it by default (a folder opens in Restricted Mode until trusted); default: off. */
  workspaceTrust?: boolean;
  /**
   * VS Code's display language (code-server's --locale), e.g. 'pl'; default English. Needs a
   * language pack for it among `installExtensions` (see languagePacks.ts).
   */
  locale?: string;
}

export interface CodeServer {
  port: number;
  pid: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  userDataDir: string;
  extensionsDir: string;
  /** Resolves with the exit code (or signal name) when the server process ends. */
  exited: Promise<number | string>;
  /** The last lines it printed (at most 300, or the last `lines`). */
  output(lines?: number): string;
  /** Stops the whole process group (server, extension host, pty host). Safe to call twice. */
  stop(): Promise<void>;
}

function serverEnv(extra: Record<string, string>, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Variables of an outer VS Code (when run from its terminal) would confuse this one.
    if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$)/.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    // No gallery: neither server nor page tries to reach the marketplace.
    EXTENSIONS_GALLERY: '{}',
    // code-server keeps state (heartbeat, last opened folder) under the XDG folders, and VS Code
    // its sockets (extension host IPC, git askpass) and scratch files in TMPDIR: keep all in dataDir.
    TMPDIR: join(dataDir, 'tmp'),
    XDG_DATA_HOME: join(dataDir, 'xdg-data'),
    XDG_CONFIG_HOME: join(dataDir, 'xdg-config'),
    XDG_CACHE_HOME: join(dataDir, 'xdg-cache'),
    ...extra,
  };
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const port = options.port ?? (await freePort());
  const userDataDir = join(options.dataDir, 'user-data');
  const extensionsDir = join(options.dataDir, 'extensions');
  const config = join(options.dataDir, 'config.yaml');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(join(options.dataDir, 'tmp'), { recursive: true });
  const trust = options.workspaceTrust
    ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
    : {};
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...options.settings }, null, 2));
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const env = serverEnv(
    { ...(options.extensionTests ? { VSCODE_OPTIONS: 'enable-smoke-test-driver' } : {}), ...options.env },
    options.dataDir,
  );
  const common = [
    options.codeServer.entry,
    '--auth',
    'none',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--config',
    config,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
  ];
  for (const extension of options.installExtensions ?? []) {
    await runCommand(options.codeServer.node, [...common, '--install-extension', extension], { env });
  }

  const locale = options.locale ? ['--locale', options.locale] : [];
  if (options.locale && !registerLanguagePacks(userDataDir, extensionsDir).includes(options.locale)) {
    throw new Error(`No language pack for ${options.locale} among the extensions installed: VS Code would show English.`);
  }
  const args = [...common, ...locale, '--bind-addr', `127.0.0.1:${port}`, ...(options.workspace ? [options.workspace] : [])];
  const child = spawn(options.codeServer.node, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start');
  const killOnExit = () => signalGroup(pid, 'SIGKILL');
  process.on('exit', killOnExit);

  const lines: string[] = [];
  let ready: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (ready = resolve));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > 300) lines.shift();
        options.onOutput?.(line);
        if (line.includes('HTTP server listening')) ready();
      }
    });
  }

  let stopping: Promise<void> | undefined;
  const server: CodeServer = {
    port,
    pid,
    origin: `http://127.0.0.1:${port}`,
    userDataDir,
    extensionsDir,
    exited,
    output: (last = lines.length) => lines.slice(-last).join('\n'),
    stop: () =>
      (stopping ??= (async () => {
        signalGroup(pid, 'SIGTERM');
        await Promise.race([exited, delay(limitMs('processStop'))]);
        // Whatever ignored SIGTERM (or outlived the server) in its group.
        signalGroup(pid, 'SIGKILL');
        await Promise.race([exited, delay(limitMs('processStop'))]);
        process.off('exit', killOnExit);
      })()),
  };

  const timeoutMs = limitMs('serverListening');
  const outcome = await Promise.race([
    listening.then(() => 'ready' as const),
    exited.then((code) => `exited (${code}) before listening` as const),
    delay(timeoutMs).then(() => `not listening after ${timeoutMs / 1000} s` as const),
  ]);
  if (outcome !== 'ready') {
    await server.stop();
    throw new Error(`code-server ${outcome}:\n${server.output(30)}`);
  }
  return server;
}

/**
 * The workbench URL that opens `folder` and, with `tests`, runs an extension's test suite in the
 * extension host (as `--extensionDevelopmentPath`/`--extensionTestsPath` do for desktop VS Code).
 * The vscode-remote:// URIs must name the same host as the page.
 */
export function workbenchUrl(
  server: CodeServer,
  folder: string | undefined,
  tests?: { extensionDevelopmentPath: string; extensionTestsPath: string },
): string {
  const params = new URLSearchParams();
  if (folder) params.set('folder', folder);
  if (tests) {
    const remote = (path: string) => `vscode-remote://127.0.0.1:${server.port}${path}`;
    params.set(
      'payload',
      JSON.stringify([
        ['extensionDevelopmentPath', remote(tests.extensionDevelopmentPath)],
        ['extensionTestsPath', remote(tests.extensionTestsPath)],
      ]),
    );
  }
  return `${server.origin}/?${params.toString()}`;
}

// ---------------------------------------------------------------------------------------------
// Chromium

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  // Nothing but loopback resolves: the page cannot reach out even by accident.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export interface Chromium {
  context: BrowserContext;
  page: Page;
  /** Closes the browser (and every process it started). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * A headless Chromium with a fresh profile. `dataDir` is an empty folder of the caller's: the
 * profile, and what Chromium would otherwise keep in ~/.config and ~/.cache, go below it.
 */
export async function launchChromium(options: {
  dataDir: string;
  headless?: boolean;
  executablePath?: string;
  viewport?: { width: number; height: number };
}): Promise<Chromium> {
  const context = await chromium.launchPersistentContext(join(options.dataDir, 'profile'), {
    executablePath: options.executablePath ?? chromiumPath(),
    headless: options.headless ?? true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, XDG_CONFIG_HOME: join(options.dataDir, 'xdg-config'), XDG_CACHE_HOME: join(options.dataDir, 'xdg-cache') },
    viewport: options.viewport ?? { width: 1280, height: 800 },
    // The caller stops the browser on signals, after its own cleanup.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let closing: Promise<void> | undefined;
  return { context, page, close: () => (closing ??= context.close().catch(() => undefined)) };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
