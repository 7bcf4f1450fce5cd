// The bench's entry point inside the VS Code extension host (loaded through the payload's
// extensionTestsPath, like the integration suite): the host awaits run(). No mocha: it measures,
// writes BenchOutput to the file named by HELPDESK_BENCH_RESULT and rejects only when it could
// not measure (a missed target is the launcher's business, not a failure).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BENCH_ENV, type BenchAccount, type BenchMode, type BenchOutput } from '../results';
import { measureActivation } from './activation';
import { measureHeap } from './heap';
import { measureTree } from './tree';

export async function run(): Promise<void> {
  const mode = process.env[BENCH_ENV.mode] as BenchMode;
  const output: BenchOutput = { mode, ok: false };
  try {
    if (mode === 'activation') {
      output.activation = await measureActivation(required(BENCH_ENV.extension));
    } else if (mode === 'tree') {
      const accounts = JSON.parse(required(BENCH_ENV.accounts)) as BenchAccount[];
      const reps = Number(process.env[BENCH_ENV.reps] ?? 9);
      output.tree = await measureTree(accounts, reps);
      const largest = accounts.reduce((a, b) => (b.posts > a.posts ? b : a));
      output.heap = await measureHeap(largest);
    } else {
      throw new Error(`${BENCH_ENV.mode} is ${String(mode)}; expected activation or tree.`);
    }
    output.ok = true;
  } catch (error) {
    output.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`bench: ${output.error}`);
  }
  const file = required(BENCH_ENV.result);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(output, null, 2));
  if (!output.ok) throw new Error(output.error);
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the bench launcher sets it).`);
  return value;
}
