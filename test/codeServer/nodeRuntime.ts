// The Node.js a code-server release runs on. Each release's package.json names one major version
// (4.100.3: 20; 4.139.1: 24) and its install refuses any other. The Node running us serves when
// it is that one; otherwise the npm registry's node-<platform>-<arch>@<major> (Node's own build,
// with its headers for node-gyp) is installed once into <root>/.cache/node-<major>.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { captureOutput, NPM, npmEnv, runCommand, type Log } from './commands';

export interface NodeRuntime {
  /** The node binary. */
  node: string;
  /** As `node -v` prints it: v24.21.0. */
  version: string;
  /**
   * For npm, node-gyp and scripts run under this Node: its bin folder first on PATH and its
   * headers as nodedir. Empty for the Node running us (npm's own settings stand).
   */
  env: Record<string, string>;
}

export const majorOf = (version: string): number => Number(/^v?(\d+)/.exec(version)?.[1]);

const packageName = `node-${process.platform}-${process.arch}`;

function runtimePaths(root: string, major: number) {
  const dir = join(root, '.cache', `node-${major}`);
  const packageDir = join(dir, 'node_modules', packageName);
  return { dir, packageDir, node: join(packageDir, 'bin', 'node'), marker: join(dir, 'installed') };
}

/** Node `major`, if it is the one running us or is installed in the cache. */
export function installedNode(root: string, major: number): NodeRuntime | undefined {
  if (major === majorOf(process.version)) return { node: process.execPath, version: process.version, env: {} };
  const { packageDir, node, marker } = runtimePaths(root, major);
  if (!existsSync(marker) || !existsSync(node)) return undefined;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return {
    node,
    version: `v${version}`,
    env: { PATH: `${join(packageDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: packageDir },
  };
}

/** Node `major` (see installedNode), installed from the npm registry first if need be. */
export async function ensureNode(root: string, major: number, log: Log): Promise<NodeRuntime> {
  const found = installedNode(root, major);
  if (found) return found;
  const { dir, node, marker } = runtimePaths(root, major);
  log(`Installing Node.js ${major} (${packageName}@${major} from the npm registry) into ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `node-${major}-cache`, private: true }, null, 2) + '\n');
  const logFile = join(dir, 'install.log');
  writeFileSync(logFile, '');
  try {
    await runCommand(NPM, ['install', '--prefix', dir, '--no-audit', '--no-fund', `${packageName}@${major}`], {
      cwd: dir,
      env: npmEnv({}),
      logFile,
    });
    const version = (await captureOutput(node, ['-v'], process.env)).trim();
    if (majorOf(version) !== major) throw new Error(`${node} is ${version}, not Node.js ${major}.`);
  } catch (error) {
    throw new Error(`Installing Node.js ${major} failed; full log in ${logFile}.\n${(error as Error).message}`, { cause: error });
  }
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return installedNode(root, major)!;
}
