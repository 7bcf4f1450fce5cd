// Runs the integration suite (out/integration/suite/index.js) in desktop VS Code, downloaded by
// @vscode/test-electron into .vscode-test/ (needs internet; on Linux without a display, run it
// under xvfb-run). The same suite runs in code-server with `npm run test:integration`.
//
//   npm run test:electron [-- --workspace DIR]
//
// Environment: VSCODE_TEST_VERSION (default: stable), HELPDESK_* (the extension host inherits them).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { exitWith } from '../codeServer/run';
import { createWorkspace, findRepoRoot, startProfileStandIns } from '../codeServer/workspace';
import { readResult, reportRun } from './results';

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({ options: { workspace: { type: 'string' } } });
  const root = findRepoRoot();
  const suite = join(root, 'out', 'integration', 'suite', 'index.js');
  const version = process.env.VSCODE_TEST_VERSION || 'stable';
  const problems: string[] = [];
  const temp = mkdtempSync(join(tmpdir(), 'helpdesk-it-'));
  const resultFile = process.env.HELPDESK_TEST_RESULT ? resolve(process.env.HELPDESK_TEST_RESULT) : join(temp, 'result.json');
  rmSync(resultFile, { force: true });
  const standIns = await startProfileStandIns();
  try {
    if (!existsSync(suite)) throw new Error(`${suite} is missing; build it with: node esbuild.mjs --extension --integration`);
    const workspace = values.workspace ? resolve(values.workspace) : createWorkspace(join(temp, 'workspace'));
    const code = await runTests({
      version,
      extensionDevelopmentPath: root,
      extensionTestsPath: suite,
      extensionTestsEnv: { HELPDESK_TEST_RESULT: resultFile, ...standIns.env },
      launchArgs: [workspace, '--disable-extensions'],
    });
    if (code !== 0) problems.push(`VS Code exited with code ${code}.`);
  } catch (error) {
    // runTests rejects when VS Code cannot be downloaded or exits non-zero (e.g. a failing test).
    const message = error instanceof Error ? error.message : String(error);
    problems.push(`VS Code (${version}) did not run the suite to success: ${message}`);
  }
  await standIns.close();
  const result = readResult(resultFile);
  if (result && result.failed > 0) problems.length = 0; // the failures say it all
  rmSync(temp, { recursive: true, force: true });
  return reportRun({ editor: `VS Code ${version}`, result, problems, wallMs: Date.now() - wallStart });
}

exitWith(main());
