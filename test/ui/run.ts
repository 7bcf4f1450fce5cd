// UI tests: the packaged extension (.vsix) installed in code-server, its workbench in headless
// Chromium, driven like a person would (clicks, keys, menus) with playwright-core, against the
// stand-in server with demo data. No test payload: nothing runs inside the extension host.
//
//   npm run test:ui [-- --screenshots] [--timeout SECONDS] [--verbose] [--skip-package] [--polish]
//
// --polish        VS Code's display language is Polish, and the steps are those of polishSteps.ts (npm run test:ui:pl)
// --screenshots   also saves the README's PNGs into media/screenshots/ (with --polish, docs/screenshots/pl-*.png)
// --skip-package  installs the existing helpdesk-bridge-<version>.vsix instead of packaging
// --timeout      the whole run's limit, for one run by hand (otherwise its hang guard in test/limits.ts)
// Environment: HELPDESK_TEST_PATIENCE (multiplies every limit, see test/limits.ts), CHROMIUM_PATH.
// On a failure the page's screenshot is kept in a helpdesk-ui-failure-* folder under the temp dir.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, workbenchUrl, type Chromium, type CodeServer } from '../codeServer/codeServerHost';
import { openEditor, packageVsix, prepareEditor, printLastOutput, vsixPath } from '../codeServer/editor';
import { Cleanups, exitWith, onSignal, printSummary, seconds, timeLimit, until } from '../codeServer/run';
import { createWorkspace, findRepoRoot } from '../codeServer/workspace';
import { CONNECTION_FOLDER } from '../../src/agent/mcp/protocol';
import { startStandIn } from '../server';
import { limitMs } from '../limits';
import { packLanguagePack } from '../codeServer/languagePacks';
import { agentStandIn } from './agentStandIn';
import { polishTests } from './polishSteps';
import { runTests, type RunSummary } from './runner';
import { expectedRows, uiTests } from './steps';
import { Workbench } from './workbench';

const say = (line: string) => console.log(`[ui] ${line}`);
const cleanups = new Cleanups('ui');

async function main(): Promise<number> {
  const wallStart = Date.now();
  const { values } = parseArgs({
    options: {
      screenshots: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      'skip-package': { type: 'boolean', default: false },
      polish: { type: 'boolean', default: false },
    },
  });
  const runLimit = timeLimit(values.timeout, 'uiRun', cleanups);
  const { stopped, signal } = onSignal();
  const deadline = runLimit.start();
  const problems: string[] = [];
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, failures: [] };
  let server: CodeServer | undefined;
  let browser: Chromium | undefined;
  const root = findRepoRoot();
  const { polish } = values;
  const screenshotDir = values.screenshots ? (polish ? join(root, 'docs', 'screenshots') : join(root, 'media', 'screenshots')) : undefined;
  let failureDir: string | undefined;

  const run = async (): Promise<void> => {
    const codeServer = await prepareEditor(root, say, { chromium: true });

    let vsix = vsixPath(root);
    if (!values['skip-package']) {
      const packageStart = Date.now();
      vsix = await packageVsix(root, cleanups);
      say(`Packaged ${vsix.slice(root.length + 1)} (${seconds(Date.now() - packageStart)}).`);
    }

    const temp = mkdtempSync(join(tmpdir(), 'helpdesk-ui-'));
    cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
    const workspace = createWorkspace(join(temp, 'workspace'));
    const agent = agentStandIn(root, temp);
    const polishPack = polish ? packLanguagePack(root, temp, 'pl', { english: 'Polish', own: 'polski' }) : undefined;

    const standIn = await startStandIn({ seed: 'demo' });
    cleanups.add(() => standIn.close());
    const expected = await expectedRows(standIn);
    // A second account at another address, for the step that signs in to two.
    const secondAccount = await startStandIn({ prefix: 'beta' });
    cleanups.add(() => secondAccount.close());

    const editor = await openEditor({
      codeServer,
      dir: temp,
      workspace,
      settings: {
        'helpdesk.accountUrl': standIn.url,
        // Create Task from Comment writes `TODO(HD-<id>)`; an address otherwise.
        'helpdesk.referencePrefix': 'HD-',
        // Steady screenshots: VS Code's default theme (Chromium would pick the light one), no
        // blinking cursor, no hover popups (the TODO step turns them on for its own), no light
        // bulb, no minimap; the views' title buttons always showing.
        'workbench.colorTheme': 'Default Dark Modern',
        'editor.cursorBlinking': 'solid',
        'editor.minimap.enabled': false,
        'editor.hover.enabled': false,
        'editor.lightbulb.enabled': 'off',
        'workbench.view.alwaysShowHeaderActions': true,
        'workbench.tips.enabled': false,
        // As on the desktop (the web workbench saves after a second): the TODO step's edits stay
        // unsaved, so reverting the file leaves it as it was for the steps after it.
        'files.autoSave': 'off',
      },
      // The agent stand-in calls our tools as VS Code's agent does (see agentStandIn.ts).
      installExtensions: polishPack ? [vsix, polishPack] : [vsix, agent.vsix],
      locale: polish ? 'pl' : undefined,
      verbose: values.verbose,
      cleanups,
      purpose: 'the tests',
      onListening: (started, ms) => {
        server = started;
        say(`code-server ${CODE_SERVER_VERSION} with the .vsix listening on ${started.origin} (${seconds(ms)}).`);
      },
    });
    browser = editor.browser;
    const { page } = editor;
    page.setDefaultTimeout(limitMs('uiReaction'));

    const pageStart = Date.now();
    await page.goto(workbenchUrl(editor.server, workspace));
    await new Workbench(page).ready();
    say(
      `Workbench ready (${seconds(Date.now() - pageStart)}); driving it in headless Chromium${screenshotDir ? ', saving screenshots' : ''}…`,
    );
    if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });

    const mcpFolder = join(editor.server.userDataDir, 'User', 'globalStorage', 'helpdesk-bridge.helpdesk-bridge', CONNECTION_FOLDER);
    const tests = polish
      ? polishTests({ page, standIn, screenshotDir }, expected)
      : uiTests({ page, standIn, secondAccount, screenshotDir, workspace, agentAnswers: agent.answers, mcpFolder }, expected);
    const onFailure = async (_test: unknown, index: number): Promise<string[]> => {
      failureDir ??= mkdtempSync(join(tmpdir(), 'helpdesk-ui-failure-'));
      const file = join(failureDir, `step-${index + 1}.png`);
      await page.screenshot({ path: file, timeout: limitMs('uiReaction') });
      return [`Screenshot: ${file}`, ...(await new Workbench(page).recover())];
    };
    await until(runTests(tests, onFailure, summary), editor.broken);
    if (summary.failed > 0) printLastOutput(server, values.verbose, say);
  };

  try {
    await until(run(), deadline, stopped);
  } catch (error) {
    problems.push((error as Error).message);
    if (browser && !signal()) {
      failureDir ??= mkdtempSync(join(tmpdir(), 'helpdesk-ui-failure-'));
      const file = join(failureDir, 'page.png');
      await browser.page.screenshot({ path: file, timeout: limitMs('uiReaction') }).then(
        () => say(`Screenshot of the page: ${file}`),
        () => undefined,
      );
    }
    printLastOutput(server, values.verbose, say);
  }
  await cleanups.runAll();
  const code = printSummary({
    what: `UI tests${polish ? ' in Polish' : ''} in code-server ${CODE_SERVER_VERSION}`,
    passed: summary.passed,
    failed: summary.failed,
    more: summary.skipped ? `, ${summary.skipped} skipped` : '',
    failures: summary.failures.map(({ name, message }) => ({ title: name, message })),
    problems,
    wallMs: Date.now() - wallStart,
    limitMs: runLimit.ms,
  });
  return signal() ? 130 : code;
}

exitWith(main(), cleanups);
