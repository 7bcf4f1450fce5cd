// The bench's slow mode (--slow): this machine made into a slower one of its kind. Everything the
// bench starts from here on (code-server, the extension hosts, Chromium, git) runs on one CPU, and
// a process of its own keeps that CPU busy beside them: the state of a 2-vCPU machine a third as
// fast, or of a developer's laptop with a build running. Linux only (taskset, from util-linux).
import { execFileSync, spawn } from 'node:child_process';
import type { Cleanups } from '../codeServer/run';

/** What the report says of the machine in slow mode. */
export const SLOW_MODE = 'slow mode: the bench and all it starts on CPU 0, beside a process that keeps it busy';

/**
 * Pins this process (and so whatever it starts after) to CPU 0 and starts the competitor there;
 * the cleanup stops it. Throws, saying why, where it cannot.
 */
export function becomeSlowMachine(cleanups: Cleanups): void {
  if (process.platform !== 'linux') throw new Error('--slow needs Linux (taskset).');
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(`--slow could not pin the bench to CPU 0 with taskset: ${(error as Error).message}`, { cause: error });
  }
  // Started after the pinning, so on CPU 0 too; at the lowest priority that still competes.
  const competitor = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  cleanups.add(() => competitor.kill('SIGKILL'));
  process.on('exit', () => competitor.kill('SIGKILL'));
}
