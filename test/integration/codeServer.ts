// Runs the integration suite (out/integration/suite/index.js) inside a real VS Code extension host:
// code-server serves the workbench, headless Chromium opens it with a test payload, and the
// workbench reports the suite's end through window.codeAutomationExit.
//
//   npm run test:integration [-- --workspace DIR] [--timeout SECONDS] [--file NAME] [--grep TEXT]
//                               [--verbose] [--code-server VERSION] [--restricted]
//     --file         only this file of test/integration/suite/ (reportBug, or reportBug.test.ts;
//                    repeat it for more): a partial run, it says so
//     --grep         only the tests whose full title contains TEXT (a partial run: it says so)
//     --restricted   the Restricted Mode run: workspace trust on, the folder not trusted, a
//                    repository's hostile settings in it, and only the suite's restricted.test.ts
//     --code-server  another code-server release than CODE_SERVER_VERSION (installed once under
//                    .cache/, with the Node it runs on); npm run test:versions uses it
//     --timeout      the run's limit, for one run by hand (otherwise its hang guard in test/limits.ts)
//
// Environment: HELPDESK_TEST_PATIENCE (multiplies every limit, see test/limits.ts), CHROMIUM_PATH (default
// /usr/bin/chromium), HELPDESK_* (passed to the extension host; HELPDESK_TEST_RESULT, if set, is
// where the result file goes, otherwise a temp file).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, type CodeServer } from '../codeServer/codeServerHost';
import { openEditor, prepareEditor, printLastOutput, runSuite } from '../codeServer/editor';
import { Cleanups, exitWith, onSignal, seconds, timeLimit, until } from '../codeServer/run';
import { createWorkspace, findRepoRoot, startProfileStandIns, writeHostileSettings } from '../codeServer/workspace';
import { readResult, reportRun } from './results';

const say = (line: string) => console.log(`[integration] ${line}`);

/**
 * The suite drives the extension through its API, not the screen: a workbench that paints less
 * (no animations, no minimap, a smaller page) leaves the two CPUs to the extension host.
 */
const QUIET_WORKBENCH = {
  'workbench.reduceMotion': 'on',
  'editor.minimap.enabled': false,
  'editor.smoothScrolling': false,
  'workbench.list.smoothScrolling': false,
  'editor.cursorBlinking': 'solid',
};

const cleanups = new Cleanups('integration');

/**
 * The workbench's log in automation mode: a level and the logged values. In test mode the extension
 * host's console output comes the same way (as info), mixed with the workbench's own messages;
 * these routine ones of code-server 4.100 (and 4.139, the last five) are left out unless --verbose.
 */
const WORKBENCH_CHATTER = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket/,
  /^Ignoring fetching additional builtin extensions/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /^\[reconnection-grace-time\]/,
  /^\[AgentHost/,
  /^\[AccountPolicyGate\]/,
  /^Creation of workbench contribution/,
  /^DialogService: Dialog requested during smoke test/,
];

function logPrinter(verbose: boolean): (level: unknown, text: string) => void {
  return (level, text) => {
    if (!verbose && level !== 'error' && WORKBENCH_CHATTER.some((pattern) => pattern.test(text))) return;
    if (level === 'error' || level === 'warn') console.error(text);
    else console.log(text);
  };
}

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({
    options: {
      workspace: { type: 'string' },
      timeout: { type: 'string' },
      grep: { type: 'string' },
      file: { type: 'string', multiple: true },
      'code-server': { type: 'string', default: CODE_SERVER_VERSION },
      verbose: { type: 'boolean', default: false },
      restricted: { type: 'boolean', default: false },
    },
  });
  const runLimit = timeLimit(values.timeout, 'integrationSuite', cleanups);
  const { stopped, signal } = onSignal();
  const problems: string[] = [];
  let server: CodeServer | undefined;

  const root = findRepoRoot();
  const suite = join(root, 'out', 'integration', 'suite', 'index.js');
  let resultFile = process.env.HELPDESK_TEST_RESULT ? resolve(process.env.HELPDESK_TEST_RESULT) : undefined;
  const version = values['code-server'];
  let editorName = `code-server ${version}`;
  try {
    if (!existsSync(suite)) throw new Error(`${suite} is missing; build it with: node esbuild.mjs --extension --integration`);

    const codeServer = await until(prepareEditor(root, say, { chromium: true, version }), stopped);
    editorName = `code-server ${version} (Node ${codeServer.nodeVersion})`;

    const temp = mkdtempSync(join(tmpdir(), 'helpdesk-it-'));
    cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
    const workspace = values.workspace ? resolve(values.workspace) : createWorkspace(join(temp, 'workspace'));
    // The Restricted Mode run: workspace trust on (the folder not trusted), a repository's hostile settings in it.
    if (values.restricted) writeHostileSettings(workspace);
    const result = (resultFile ??= join(temp, 'result.json'));
    rmSync(result, { force: true });

    const deadline = runLimit.start();
    const standIns = await startProfileStandIns();
    cleanups.add(() => standIns.close());
    const editorRun = async (): Promise<number> => {
      const editor = await openEditor({
        codeServer,
        dir: temp,
        workspace,
        env: {
          HELPDESK_TEST_RESULT: result,
          ...(values.grep ? { HELPDESK_TEST_GREP: values.grep } : {}),
          ...(values.file ? { HELPDESK_TEST_FILES: values.file.join(',') } : {}),
          ...(values.restricted ? { HELPDESK_RESTRICTED: '1' } : {}),
          ...standIns.env,
        },
        extensionTests: true,
        settings: QUIET_WORKBENCH,
        viewport: { width: 1024, height: 640 },
        workspaceTrust: values.restricted,
        verbose: values.verbose,
        cleanups,
        purpose: 'the suite',
        onListening: (started, ms) => {
          server = started;
          say(`${editorName} listening on ${started.origin} (${seconds(ms)}); running the suite in headless Chromium…`);
        },
      });
      return runSuite(editor, workspace, { extensionDevelopmentPath: root, extensionTestsPath: suite }, logPrinter(values.verbose));
    };

    const code = await until(editorRun(), deadline, stopped);
    const summary = readResult(result);
    if (code !== 0 && !(summary && summary.failed > 0)) problems.push(`The extension host ended the suite with exit code ${code}.`);
    await cleanups.runAll();
    return reportRun({ editor: editorName, result: summary, problems, wallMs: Date.now() - wallStart, limitMs: runLimit.ms });
  } catch (error) {
    problems.push((error as Error).message);
    printLastOutput(server, values.verbose, say);
    const summary = resultFile ? readResult(resultFile) : undefined; // before the cleanup removes it
    await cleanups.runAll();
    const code = reportRun({ editor: editorName, result: summary, problems, wallMs: Date.now() - wallStart, limitMs: runLimit.ms });
    return signal() ? 130 : code;
  }
}

exitWith(main(), cleanups);
