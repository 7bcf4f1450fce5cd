// Preloaded into the code-server processes of every bench session (NODE_OPTIONS=--require
// out/bench/activationCpuHook.js, see sessions.ts): in the extension host only, the CPU time the
// process spends while the one extension installed under HELPDESK_ACTIVATION_DIR has its main
// module loaded and its activate() runs to its return: the spans Running Extensions times by the
// clock (activation.ts), whose code loading also counts the host's own wait before the require.
// At startup, on 2 CPUs, the clock also counts the time the workbench's other processes held the
// CPU; this does not. Appended to
// HELPDESK_ACTIVATION_FILE as one JSON line (see `ActivationCpu`). Both sides of a run have it
// alike, in every session.
//
// The process's CPU, all its threads: the extension host's helper threads (the garbage
// collector's, file I/O) count too, for either extension alike.
import { appendFileSync } from 'node:fs';
import { Module } from 'node:module';
import { sep } from 'node:path';
import { isExtensionHost, preloadInExtensionHost } from './extensionHostProcess';

export interface ActivationCpu {
  /** CPU ms while the main module loaded, and while activate() ran to its return. */
  loadCpuMs: number;
  activateCpuMs: number;
  /** The same spans by the clock. */
  loadWallMs: number;
  activateWallMs: number;
}

preloadInExtensionHost(__filename);
const dir = process.env.HELPDESK_ACTIVATION_DIR;
const file = process.env.HELPDESK_ACTIVATION_FILE;

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const round = (n: number) => Math.round(n * 100) / 100;

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };

if (dir && file && isExtensionHost) {
  const load = loader._load;
  let seen = false;
  loader._load = function (this: unknown, request, parent, isMain) {
    // The extension host requires an extension's main by its absolute path: the first under `dir` is it.
    if (seen || typeof request !== 'string' || !request.startsWith(dir + sep)) return load.call(this, request, parent, isMain);
    seen = true;
    const [cpu0, wall0] = [process.cpuUsage(), performance.now()];
    const exports = load.call(this, request, parent, isMain) as { activate?: unknown } | null | undefined;
    const [loadCpuMs, loadWallMs] = [cpuMs(process.cpuUsage(cpu0)), performance.now() - wall0];
    const activate = exports?.activate;
    if (typeof activate !== 'function' || !exports) return exports;
    const timed = function (this: unknown, ...args: unknown[]): unknown {
      const [cpu1, wall1] = [process.cpuUsage(), performance.now()];
      try {
        return activate.apply(this, args) as unknown;
      } finally {
        const figures: ActivationCpu = {
          loadCpuMs: round(loadCpuMs),
          activateCpuMs: round(cpuMs(process.cpuUsage(cpu1))),
          loadWallMs: round(loadWallMs),
          activateWallMs: round(performance.now() - wall1),
        };
        // Written after the host has stopped its clock on activate().
        setImmediate(() => appendFileSync(file, JSON.stringify(figures) + '\n'));
      }
    };
    // A module's exports may be fixed (esbuild's are getters that cannot be redefined): the host reads them through this.
    return new Proxy(exports, {
      get: (target, key, receiver) => (key === 'activate' ? timed : (Reflect.get(target, key, receiver) as unknown)),
    });
  };
}
