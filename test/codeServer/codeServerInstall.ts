// Installs what the real-editor runs need: Debian's chromium (and, to build code-server, ripgrep
// and libkrb5-dev), and code-server itself, once, into <repo>/.cache/code-server (git ignores it).
// Offline-safe: only the npm registry and Debian's packages are used. See codeServerHost.ts.
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Cleanups } from './run';

export const CODE_SERVER_VERSION = '4.100.3';

export type Log = (line: string) => void;

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Commands

/** Process group `pid` (a process started with detached: true), if any member is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/**
 * Runs a command to completion; its output goes to `logFile` (if given) and, on failure, into the
 * error. With `cleanups`, it runs in its own process group, which the run's cleanup kills if the
 * run stops first.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string; cleanups?: Cleanups } = {},
): Promise<void> {
  const shown = [command, ...args].join(' ');
  if (options.logFile) appendFileSync(options.logFile, `\n$ ${shown}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.cleanups !== undefined,
    });
    const stop = options.cleanups?.add(() => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) signalGroup(child.pid, 'SIGKILL');
    });
    let tail = '';
    const collect = (chunk: Buffer) => {
      if (options.logFile) appendFileSync(options.logFile, chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      void stop?.();
      reject(error);
    });
    child.on('close', (code, signal) => {
      void stop?.();
      if (code === 0) return resolve();
      const lines = tail.trimEnd().split('\n').slice(-25).join('\n');
      reject(new Error(`\`${shown}\` failed (${signal ?? `exit code ${code}`}):\n${lines}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// System packages (Debian names)

let aptUpdated: Promise<void> | undefined;

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/**
 * Makes sure the Debian packages are there: chromium to run the tests, ripgrep and libkrb5-dev
 * (for code-server's native `kerberos` module) to install code-server. As root, missing ones are
 * installed with apt-get; otherwise this fails saying what to install.
 */
export async function ensureSystemPackages(need: { chromium?: boolean; codeServerBuild?: boolean }, log: Log): Promise<void> {
  const missing = (): string[] => [
    ...(need.chromium && !process.env.CHROMIUM_PATH && !existsSync(chromiumPath()) ? ['chromium'] : []),
    ...(need.codeServerBuild && !onPath('rg') ? ['ripgrep'] : []),
    ...(need.codeServerBuild && !onPath('krb5-config') ? ['libkrb5-dev'] : []),
  ];
  if (need.chromium && process.env.CHROMIUM_PATH && !existsSync(chromiumPath())) {
    throw new Error(`CHROMIUM_PATH is ${chromiumPath()}, which does not exist.`);
  }
  const packages = missing();
  if (packages.length === 0) return;
  const install = `apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    throw new Error(
      `Missing system packages: ${packages.join(', ')}. Install them (Debian/Ubuntu: sudo apt-get update && sudo ${install})` +
        (packages.includes('chromium') ? ', or point CHROMIUM_PATH at a Chromium binary.' : '.'),
    );
  }
  log(`Installing ${packages.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  aptUpdated ??= runCommand('apt-get', ['update'], { env });
  await aptUpdated;
  await runCommand('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
  const still = missing();
  if (still.length > 0) throw new Error(`apt-get installed ${packages.join(', ')} but ${still.join(', ')} still missing.`);
}

// ---------------------------------------------------------------------------------------------
// code-server, installed once into a cache folder git ignores

export interface CodeServerInstall {
  dir: string;
  /** node <entry> starts the server. */
  entry: string;
}

/** Whether a completed install of CODE_SERVER_VERSION is in <root>/.cache/code-server. */
export function isCodeServerInstalled(root: string): boolean {
  const { entry, marker } = codeServerInstall(root);
  return existsSync(marker) && existsSync(entry);
}

function codeServerInstall(root: string): CodeServerInstall & { marker: string } {
  const dir = join(root, '.cache', 'code-server');
  return {
    dir,
    entry: join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    marker: join(dir, `installed-${CODE_SERVER_VERSION}`),
  };
}

/** npm's variables for the script that runs us (npm run …) must not leak into the npm we start. */
export function npmEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|INIT_CWD$)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * Installs code-server into <root>/.cache/code-server unless a completed install is there (the
 * marker file is written last). Offline-safe: skips the scripts that would download (ripgrep),
 * uses the system's rg, and builds the native modules locally. About a minute with a warm npm cache.
 */
export async function ensureCodeServer(root: string, log: Log): Promise<CodeServerInstall> {
  const { dir, entry, marker } = codeServerInstall(root);
  if (isCodeServerInstalled(root)) return { dir, entry };

  await ensureSystemPackages({ codeServerBuild: true }, log);
  log(`Installing code-server ${CODE_SERVER_VERSION} into ${dir} (once; about a minute)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n');
  const logFile = join(dir, 'install.log');
  writeFileSync(logFile, '');

  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packageDir = join(dir, 'node_modules', 'code-server');
  const vscodeDir = join(packageDir, 'lib', 'vscode');
  const env = npmEnv({});
  try {
    await runCommand(npm, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], {
      cwd: dir,
      env,
      logFile,
    });
    // Its postinstall installs lib/vscode's dependencies; their scripts are skipped so that
    // @vscode/ripgrep does not try to download from GitHub. As root it needs unsafe_perm.
    const npmVersion = (await captureOutput(npm, ['-v'], env)).trim();
    await runCommand('sh', ['./postinstall.sh'], {
      cwd: packageDir,
      env: npmEnv({
        npm_config_ignore_scripts: 'true',
        npm_config_unsafe_perm: 'true',
        npm_config_user_agent: `npm/${npmVersion} node/${process.version} ${process.platform} ${process.arch}`,
      }),
      logFile,
    });
    // After the postinstall (which would remove it), the system's rg stands in for @vscode/ripgrep's.
    const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgDir, { recursive: true });
    copyFileSync(realpathSync(onPath('rg') ?? 'rg'), join(rgDir, 'rg'));
    // Native modules; npm_config_yes lets node-pty's step run `npx node-gyp`.
    await runCommand(npm, ['rebuild', '@vscode/spdlog', '@vscode/deviceid', 'kerberos', 'native-watchdog', 'node-pty'], {
      cwd: vscodeDir,
      env: npmEnv({ npm_config_yes: 'true' }),
      logFile,
    });
    await runCommand(npm, ['rebuild', '--prefix', dir, 'argon2'], { cwd: dir, env, logFile });
  } catch (error) {
    throw new Error(`Installing code-server failed; full log in ${logFile}.\n${(error as Error).message}`);
  }
  if (!existsSync(entry)) throw new Error(`code-server installed, but ${entry} is missing; see ${logFile}.`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return { dir, entry };
}

function captureOutput(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')}: exit code ${code}`))));
  });
}
