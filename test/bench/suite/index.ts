// The bench's entry point inside the VS Code extension host (loaded through the payload's
// extensionTestsPath, like the integration suite): the host awaits run(). No mocha: it measures,
// writes BenchOutput to the file named by HELPDESK_BENCH_RESULT and rejects only when it could
// not measure (a missed target is the launcher's business, not a failure).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BENCH_ENV, type BenchAccount, type BenchOutput } from '../results';
import { measureDepth } from './depth';
import { measureMcp } from './mcp';

export async function run(): Promise<void> {
  const output: BenchOutput = { ok: false };
  try {
    const account = JSON.parse(required(BENCH_ENV.account)) as BenchAccount;
    if (process.env[BENCH_ENV.job] === 'mcp') output.mcp = await measureMcp(account, Number(required(BENCH_ENV.pairs)));
    else output.depth = await measureDepth(account, Number(required(BENCH_ENV.pageSize)));
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
