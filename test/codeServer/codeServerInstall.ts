// Installs what the real-editor runs need: Debian's chromium (and, to build code-server, ripgrep
// and libkrb5-dev), and code-server itself, each version once into its own folder under
// <repo>/.cache/ (git ignores it), with the Node.js that version runs on (nodeRuntime.ts).
// Offline-safe: only the npm registry and Debian's packages are used. See codeServerHost.ts.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureOutput, NPM, npmEnv, onPath, runCommand, type Log } from './commands';
import { ensureNode, installedNode, majorOf, type NodeRuntime } from './nodeRuntime';

/** The code-server (VS Code 1.100.3) that npm start, the UI tests, the bench and test:integration use. */
export const CODE_SERVER_VERSION = '4.100.3';

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
// code-server, each version installed once into a cache folder git ignores

export interface CodeServerInstall {
  version: string;
  /** The VS Code it is built on: 1.96.4 for 4.96.4. */
  vscodeVersion: string;
  dir: string;
  /** `<node> <entry>` starts the server. */
  entry: string;
  /** The Node.js it runs on: the one its package.json asks for. */
  node: string;
  /** That Node's version, as `node -v` prints it. */
  nodeVersion: string;
}

function codeServerPaths(root: string, version: string) {
  // The default version keeps the folder it had before other versions were installed beside it.
  const dir = join(root, '.cache', version === CODE_SERVER_VERSION ? 'code-server' : `code-server-${version}`);
  const packageDir = join(dir, 'node_modules', 'code-server');
  return {
    dir,
    packageDir,
    vscodeDir: join(packageDir, 'lib', 'vscode'),
    entry: join(packageDir, 'out', 'node', 'entry.js'),
    marker: join(dir, `installed-${version}`),
  };
}

/** The Node.js major version code-server's package.json asks for (`engines.node`: "20", "24"). */
function requiredNodeMajor(packageDir: string): number {
  const { engines } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const major = majorOf(engines?.node ?? '');
  return Number.isInteger(major) ? major : majorOf(process.version);
}

/** The completed install of code-server `version` in <root>/.cache/, with the Node it runs on, if both are there. */
export function installedCodeServer(root: string, version = CODE_SERVER_VERSION): CodeServerInstall | undefined {
  const { packageDir, entry, marker } = codeServerPaths(root, version);
  if (!existsSync(marker) || !existsSync(entry)) return undefined;
  const runtime = installedNode(root, requiredNodeMajor(packageDir));
  return runtime && described(root, version, runtime);
}

function described(root: string, version: string, runtime: NodeRuntime): CodeServerInstall {
  const { dir, vscodeDir, entry } = codeServerPaths(root, version);
  const vscode = JSON.parse(readFileSync(join(vscodeDir, 'package.json'), 'utf8')) as { version: string };
  return { version, vscodeVersion: vscode.version, dir, entry, node: runtime.node, nodeVersion: runtime.version };
}

/**
 * Installs code-server `version` into its folder under <root>/.cache/ unless a completed install
 * is there (the marker file is written last), and the Node.js it needs if that is not the one
 * running us. Offline-safe: skips the scripts that would download (ripgrep), uses the system's rg,
 * takes Git-hosted dependencies from the npm registry, and builds the native modules locally,
 * with and for the Node that will run them. Two or three minutes with a warm npm cache.
 */
export async function ensureCodeServer(root: string, log: Log, version = CODE_SERVER_VERSION): Promise<CodeServerInstall> {
  const found = installedCodeServer(root, version);
  if (found) return found;
  const { dir, packageDir, vscodeDir, entry, marker } = codeServerPaths(root, version);

  await ensureSystemPackages({ codeServerBuild: true }, log);
  log(`Installing code-server ${version} into ${dir} (once; two or three minutes)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n');
  const logFile = join(dir, 'install.log');
  writeFileSync(logFile, '');

  let runtime: NodeRuntime;
  try {
    // The package's files only; nothing in it runs yet, so the Node running us will do.
    await runCommand(NPM, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', `code-server@${version}`], {
      cwd: dir,
      env: npmEnv({}),
      logFile,
    });
    runtime = await ensureNode(root, requiredNodeMajor(packageDir), log);
    const env = npmEnv(runtime.env);
    for (const lockfile of [join(vscodeDir, 'npm-shrinkwrap.json'), join(vscodeDir, 'extensions', 'npm-shrinkwrap.json')]) {
      await gitDependenciesFromRegistry(lockfile, env, logFile);
    }
    // Its postinstall installs lib/vscode's dependencies; their scripts are skipped so that
    // @vscode/ripgrep does not try to download from GitHub. As root it needs unsafe_perm. It
    // checks the Node version in the user agent.
    const npmVersion = (await captureOutput(NPM, ['-v'], env)).trim();
    await runCommand('sh', ['./postinstall.sh'], {
      cwd: packageDir,
      env: npmEnv({
        ...runtime.env,
        npm_config_ignore_scripts: 'true',
        npm_config_unsafe_perm: 'true',
        npm_config_user_agent: `npm/${npmVersion} node/${runtime.version} ${process.platform} ${process.arch}`,
      }),
      logFile,
    });
    // After the postinstall (which would remove it), the system's rg stands in for @vscode/ripgrep's.
    const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgDir, { recursive: true });
    copyFileSync(realpathSync(onPath('rg') ?? 'rg'), join(rgDir, 'rg'));
    // Native modules; npm_config_yes lets node-pty's step run `npx node-gyp`.
    const natives = NATIVE_MODULES.filter((name) => existsSync(join(vscodeDir, 'node_modules', name, 'package.json')));
    await runCommand(NPM, ['rebuild', ...natives], { cwd: vscodeDir, env: npmEnv({ ...runtime.env, npm_config_yes: 'true' }), logFile });
    await runCommand(NPM, ['rebuild', '--prefix', dir, 'argon2'], { cwd: dir, env, logFile });
    await loadNativeModules(
      runtime,
      [...natives.map((name) => join(vscodeDir, 'node_modules', name)), join(dir, 'node_modules', 'argon2')],
      logFile,
    );
  } catch (error) {
    throw new Error(`Installing code-server ${version} failed; full log in ${logFile}.\n${(error as Error).message}`, { cause: error });
  }
  if (!existsSync(entry)) throw new Error(`code-server installed, but ${entry} is missing; see ${logFile}.`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return described(root, version, runtime);
}

/** lib/vscode's native modules, built here (later releases name native-watchdog @vscode/native-watchdog). */
const NATIVE_MODULES = ['@vscode/spdlog', '@vscode/deviceid', 'kerberos', 'native-watchdog', '@vscode/native-watchdog', 'node-pty'];

/** Each native module loads in the Node that will run it: a module left unbuilt fails here, not in a test. */
async function loadNativeModules(runtime: NodeRuntime, packageDirs: string[], logFile: string): Promise<void> {
  const script = packageDirs.map((path) => `require(${JSON.stringify(path)});`).join('\n');
  await runCommand(runtime.node, ['-e', script], { env: npmEnv(runtime.env), logFile });
}

/**
 * A lockfile's dependencies resolved from a Git host (code-server 4.96.4: @vscode/proxy-agent
 * 0.27.0 from GitHub) are taken from the npm registry instead, which has the same versions: the
 * registry is all that is reachable here. The registry's integrity replaces the lockfile's.
 */
async function gitDependenciesFromRegistry(lockfile: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  if (!existsSync(lockfile)) return;
  type Entry = { name?: string; version?: string; resolved?: string; integrity?: string };
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages?: Record<string, Entry> };
  let changed = false;
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (!entry.resolved || !entry.version || !/^(git\+|git:|github:|https:\/\/(codeload\.)?github\.com\/)/.test(entry.resolved)) continue;
    const name = entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const found = (await captureOutput(NPM, ['view', `${name}@${entry.version}`, 'dist', '--json'], env)).trim();
    const dist = (found ? JSON.parse(found) : {}) as { tarball?: string; integrity?: string };
    if (!dist.tarball)
      throw new Error(`${lockfile} takes ${name}@${entry.version} from ${entry.resolved}, and the npm registry has no such version.`);
    appendFileSync(
      logFile,
      `\n${lockfile}: ${name}@${entry.version} from ${dist.tarball} instead of ${entry.resolved}` +
        `${dist.integrity === entry.integrity ? ' (same integrity)' : ` (integrity ${dist.integrity}, was ${entry.integrity})`}\n`,
    );
    entry.resolved = dist.tarball;
    entry.integrity = dist.integrity;
    changed = true;
  }
  if (changed) writeFileSync(lockfile, JSON.stringify(lock, null, 2) + '\n');
}
