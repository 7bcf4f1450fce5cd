// `npm run bench`: sizes, activation, the tree's first page and heap growth, measured on this
// machine in one run, each beside its baseline and target (see report.ts for what is timed).
// Exit code 0 whatever the figures; non-zero only when the bench itself could not run.
//
//   npm run bench [-- --runs N] [--reps N] [--verbose]
//     --runs   fresh extension hosts per extension for activation (default 9, at least 5)
//     --reps   timed repetitions per tree case (default 25)
//
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_TIMEOUT (seconds, default 600).
import { cpus } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION } from '../codeServer/codeServerHost';
import { prepareEditor } from '../codeServer/editor';
import { Cleanups, exitWith, onSignal, rejectAfter, until } from '../codeServer/run';
import { findRepoRoot } from '../codeServer/workspace';
import { startStandIn } from '../server';
import { runInEditor, type EditorRun } from './editor';
import { packageExtension } from './packaging';
import { printReport } from './report';
import { BENCH_ENV, type ActivationSample, type BenchAccount, type BenchOutput } from './results';

const say = (line: string) => console.log(`[bench] ${line}`);
const cleanups = new Cleanups('bench');
const ACCOUNT_SIZES = [100, 1_000, 10_000];
const EMPTY_ID = 'helpdesk-bench.empty-extension';

function whole(value: string | undefined, fallback: number, min: number, what: string): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number ≥ ${min}, not ${value}.`);
  return n;
}

async function bench(): Promise<void> {
  const wallStart = Date.now();
  const { values } = parseArgs({ options: { runs: { type: 'string' }, reps: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
  const runs = whole(values.runs, 9, 5, '--runs');
  const reps = whole(values.reps, 25, 3, '--reps');
  const verbose = values.verbose ?? false;
  const root = findRepoRoot();

  const entry = await prepareEditor(root, say, { chromium: true });
  const temp = mkdtempSync(join(tmpdir(), 'hd-bench-'));
  cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
  const workspace = join(temp, 'workspace');
  mkdirSync(workspace);

  say('Packaging (npm run package: node esbuild.mjs --production, then vsce)…');
  const packaged = await packageExtension(root, temp, cleanups);
  say(`${packaged.vsixName}: ${packaged.vsixBytes} B; dist/extension.js: ${packaged.bundles.extension} B; dist/helpdesk.js: ${packaged.bundles.helpdesk} B.`);

  let started = 0;
  const editor = async (extensionDevelopmentPath: string, env: Record<string, string>, timeoutMs: number): Promise<BenchOutput> => {
    const dir = join(temp, `e${++started}`);
    mkdirSync(dir);
    const run: EditorRun = {
      entry,
      dir,
      workspace,
      extensionDevelopmentPath,
      extensionTestsPath: join(root, 'out', 'bench', 'suite', 'index.js'),
      env,
      timeoutMs,
      verbose,
    };
    try {
      return await runInEditor(run, cleanups);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  // Activation: one fresh editor per sample, the two extensions in alternating order.
  const extensions = { helpdesk: { id: packaged.id, path: packaged.extensionDir }, empty: { id: EMPTY_ID, path: join(root, 'test', 'bench', 'fixture', 'empty') } };
  const activation: Record<'helpdesk' | 'empty', ActivationSample[]> = { helpdesk: [], empty: [] };
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? (['helpdesk', 'empty'] as const) : (['empty', 'helpdesk'] as const);
    for (const which of order) {
      const { id, path } = extensions[which];
      const output = await editor(path, { [BENCH_ENV.mode]: 'activation', [BENCH_ENV.extension]: id }, 60_000);
      if (!output.activation) throw new Error('The activation run returned no figure.');
      activation[which].push(output.activation);
    }
    say(`Activation ${i + 1}/${runs}: Helpdesk Bridge ${activation.helpdesk.at(-1)!.ms.toFixed(1)} ms, empty extension ${activation.empty.at(-1)!.ms.toFixed(1)} ms.`);
  }

  // Tree and heap: one editor, three stand-in accounts.
  say(`Tree first page (${ACCOUNT_SIZES.join(', ')} posts; 0 and 50 ms added latency; ${reps} repetitions) and heap…`);
  const accounts: BenchAccount[] = [];
  for (const posts of ACCOUNT_SIZES) {
    const standIn = await startStandIn({ seed: { posts } });
    cleanups.add(() => standIn.close());
    accounts.push({ posts, url: standIn.url, token: standIn.token });
  }
  const env = { [BENCH_ENV.mode]: 'tree', [BENCH_ENV.extension]: packaged.id, [BENCH_ENV.accounts]: JSON.stringify(accounts), [BENCH_ENV.reps]: String(reps) };
  const tree = await editor(packaged.extensionDir, env, 180_000);
  if (!tree.tree || !tree.heap) throw new Error('The tree run returned no figures.');

  const cpu = cpus();
  printReport({
    environment: `code-server ${CODE_SERVER_VERSION}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${new Date().toISOString().slice(0, 16)}Z`,
    sizes: { bundles: packaged.bundles, vsixName: packaged.vsixName, vsixBytes: packaged.vsixBytes },
    activation,
    tree: tree.tree,
    heap: tree.heap,
    wallMs: Date.now() - wallStart,
  });
}

async function main(): Promise<number> {
  const timeoutMs = whole(process.env.BENCH_TIMEOUT, 600, 1, 'BENCH_TIMEOUT') * 1000;
  try {
    await until(bench(), onSignal().stopped, rejectAfter(timeoutMs, `The bench did not finish within ${timeoutMs / 1000} s (BENCH_TIMEOUT).`, cleanups));
    return 0;
  } catch (error) {
    console.error(`[bench] The bench could not run: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await cleanups.runAll();
  }
}

exitWith(main(), cleanups);
