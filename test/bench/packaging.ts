// `npm run package` (its vscode:prepublish builds dist/extension.js with
// `node esbuild.mjs --production`, then vsce packs the .vsix), and the .vsix unpacked: the bench
// measures and loads exactly what ships.
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Cleanups } from './cleanups';

export interface Packaged {
  /** publisher.name */
  id: string;
  vsixName: string;
  vsixBytes: number;
  /** The .vsix's bundles: what activation loads, and what loads on first use. */
  bundles: { extension: number; helpdesk: number };
  /** The .vsix's extension/ folder, unpacked: loaded as the development extension. */
  extensionDir: string;
}

export async function packageExtension(root: string, temp: string, cleanups: Cleanups): Promise<Packaged> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const vsixName = `${manifest.name}-${manifest.version}.vsix`;
  await run('npm', ['run', '--silent', 'package'], root, cleanups);
  // A copy, so that another run packaging in the repo meanwhile cannot change what is measured.
  const vsix = join(temp, vsixName);
  copyFileSync(join(root, vsixName), vsix);
  const unpacked = join(temp, 'vsix');
  try {
    await run('unzip', ['-q', '-o', vsix, 'extension/*', '-d', unpacked], temp, cleanups);
  } catch {
    await run('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', vsix, unpacked], temp, cleanups);
  }
  const extensionDir = join(unpacked, 'extension');
  return {
    id: `${manifest.publisher}.${manifest.name}`,
    vsixName,
    vsixBytes: statSync(vsix).size,
    bundles: { extension: statSync(join(extensionDir, 'dist', 'extension.js')).size, helpdesk: statSync(join(extensionDir, 'dist', 'helpdesk.js')).size },
    extensionDir,
  };
}

/** Runs a command in its own process group (stopped by cleanups if the bench is stopped). */
function run(command: string, args: string[], cwd: string, cleanups: Cleanups): Promise<void> {
  return new Promise((resolve, reject) => {
    // npm's variables for the script that runs us must not leak into the npm we start.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|INIT_CWD$)/.test(key)));
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = cleanups.add(() => {
      try {
        if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    let tail = '';
    const collect = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-3000));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => void stop().then(() => reject(error)));
    child.on('close', (code, signal) => {
      void stop();
      if (code === 0) resolve();
      else reject(new Error(`\`${[command, ...args].join(' ')}\` failed (${signal ?? `exit code ${code}`}):\n${tail.trimEnd()}`));
    });
  });
}
