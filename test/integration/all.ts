// `npm run test:integration [-- ARGS]`: codeServer.js's runs that integrationRuns() names, one after
// the other, stopping at the first that fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { integrationRuns } from './runs';

const runner = join(__dirname, 'codeServer.js');
let code = 0;
for (const args of integrationRuns(process.argv.slice(2))) {
  const run = spawnSync(process.execPath, ['--enable-source-maps', runner, ...args], { stdio: 'inherit' });
  code = run.status ?? (run.signal ? 130 : 1);
  if (code !== 0) break;
}
process.exit(code);
