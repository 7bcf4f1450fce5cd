// The integration suite on the oldest VS Code that package.json's `engines.vscode` allows and on
// the newest code-server checked, each in its own run of the integration launcher
// (codeServer.ts --code-server VERSION); then one summary, and exit code 1 if any failed. These
// runs are the versions' part of the suite (HELPDESK_TEST_SCOPE=versions, see suite/index.ts):
// every VS Code API the extension calls, met once, since that is what differs between versions.
//
//   npm run test:versions [-- --install-only] [--timeout SECONDS] [--verbose]
//     --install-only  install every code-server npm test runs (these and CODE_SERVER_VERSION), with
//                     the Node each needs, and run nothing: .ci/run does this before npm test
//     --timeout       each version's run, by hand (otherwise its hang guard in test/limits.ts)
//
// Each version is installed once under .cache/ (code-server-<version>, and node-<major> for a
// release that needs another Node than the one running this), then reused.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, type CodeServerInstall } from '../codeServer/codeServerHost';
import { prepareEditor } from '../codeServer/editor';
import { Cleanups, exitWith, onSignal, seconds, until } from '../codeServer/run';
import { findRepoRoot } from '../codeServer/workspace';
import { readResult } from './results';

/**
 * The releases the suite must pass on. code-server 4.X.Y is VS Code 1.X.Y. The newest was the
 * newest in the npm registry when it was set (`npm view code-server versions`): raise it there.
 */
const VERSIONS = {
  oldest: '4.96.4',
  newest: '4.139.1',
};

const say = (line: string) => console.log(`[versions] ${line}`);
const cleanups = new Cleanups('versions');

/** The oldest release must be the VS Code that package.json's `engines.vscode` (^1.96.0) names. */
function checkOldest(root: string): void {
  const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { vscode: string } };
  const minor = /^\^?1\.(\d+)\./.exec(engines.vscode)?.[1];
  if (!minor || !VERSIONS.oldest.startsWith(`4.${minor}.`)) {
    throw new Error(
      `package.json's engines.vscode is ${engines.vscode}: set VERSIONS.oldest in test/integration/versions.ts to the last code-server 4.${minor ?? '?'}.x.`,
    );
  }
}

interface VersionRun {
  codeServer: CodeServerInstall;
  passed: number;
  failed: number;
  pending: number;
  /** Why the run counts one more failure than its tests: it crashed, hung or wrote no result. */
  problem?: string;
  ms: number;
}

/** One run of the integration launcher on `codeServer`, its output passed through as it comes. */
async function runVersion(root: string, codeServer: CodeServerInstall, temp: string, extra: string[]): Promise<VersionRun> {
  const start = Date.now();
  const resultFile = join(temp, `result-${codeServer.version}.json`);
  const launcher = join(root, 'out', 'integration', 'codeServer.js');
  const child = spawn(process.execPath, ['--enable-source-maps', launcher, '--code-server', codeServer.version, ...extra], {
    stdio: 'inherit',
    env: { ...process.env, HELPDESK_TEST_RESULT: resultFile, HELPDESK_TEST_SCOPE: 'versions' },
  });
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  // If this run is stopped, the launcher is told to stop what it started, and waited for.
  const stop = cleanups.add(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const code = await exited;
  await stop();
  const result = readResult(resultFile);
  const counts = { passed: result?.passed ?? 0, failed: result?.failed ?? 0, pending: result?.pending ?? 0 };
  let problem: string | undefined;
  if (!result?.finished) problem = `the suite did not finish (launcher exit code ${code})`;
  else if (code !== 0 && counts.failed === 0) problem = `the launcher exited with code ${code}`;
  else if (counts.passed + counts.failed === 0) problem = 'no tests ran';
  return { codeServer, ...counts, problem, ms: Date.now() - start };
}

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({
    options: {
      'install-only': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const { stopped } = onSignal();
  const root = findRepoRoot();
  checkOldest(root);

  const versions = [VERSIONS.oldest, VERSIONS.newest];
  const installs = values['install-only'] ? [CODE_SERVER_VERSION, ...versions] : versions;
  const ready = new Map<string, CodeServerInstall>();
  for (const version of installs) {
    const codeServer = await until(prepareEditor(root, say, { chromium: true, version }), stopped);
    say(`code-server ${version} is VS Code ${codeServer.vscodeVersion}, on Node ${codeServer.nodeVersion}.`);
    ready.set(version, codeServer);
  }
  if (values['install-only']) {
    say(`Installed ${installs.join(', ')} (${seconds(Date.now() - wallStart)}).`);
    return 0;
  }

  const temp = mkdtempSync(join(tmpdir(), 'helpdesk-versions-'));
  cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
  const extra = [...(values.timeout ? ['--timeout', values.timeout] : []), ...(values.verbose ? ['--verbose'] : [])];
  const runs: VersionRun[] = [];
  for (const version of versions) {
    say(`The integration suite in code-server ${version}…`);
    runs.push(await until(runVersion(root, ready.get(version)!, temp, extra), stopped));
  }
  await cleanups.runAll();

  console.log('');
  console.log('Integration suite on each version:');
  let passed = 0;
  let failed = 0;
  for (const run of runs) {
    const runFailed = run.failed + (run.problem ? 1 : 0);
    passed += run.passed;
    failed += runFailed;
    const { codeServer: cs } = run;
    console.log(
      `  code-server ${cs.version} (VS Code ${cs.vscodeVersion}, Node ${cs.nodeVersion}): ${run.passed} passed, ${runFailed} failed` +
        `${run.pending ? `, ${run.pending} pending` : ''}; ${seconds(run.ms)}${run.problem ? ` (${run.problem})` : ''}`,
    );
  }
  console.log(`Versions: wall time ${seconds(Date.now() - wallStart)}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

exitWith(main(), cleanups);
