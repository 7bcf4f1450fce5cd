// Running the commands the installs and launchers need: npm, apt-get, node, sh, each to completion
// or in its own process group, with npm's variables of the script that runs us left out.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Cleanups } from './run';

export type Log = (line: string) => void;

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Where `command` is on the PATH, if it is. */
export function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

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

/** What a short command prints on stdout; what it prints on stderr goes into the error if it fails. */
export function captureOutput(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')}: exit code ${code}\n${err.trimEnd()}`)),
    );
  });
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
