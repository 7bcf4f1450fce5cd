// `npm start`: the extension in a real VS Code (code-server) against the stand-in server with
// demo data. Builds and installs the .vsix, pre-fills the account address, prints one URL to
// open and the token to paste at "Sign In". Ctrl+C stops everything it started.
//
//   npm start [-- --port N] [--workspace DIR]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startStandIn } from '../server';
import { ensureCodeServer, ensureSystemPackages, isCodeServerInstalled, startCodeServer, workbenchUrl } from '../codeServer/codeServerHost';
import { findRepoRoot } from '../codeServer/workspace';

const say = (line: string) => console.log(`[demo] ${line}`);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, workspace: { type: 'string' } } });
  const root = findRepoRoot();
  const stops: Array<() => unknown> = [];
  const stop = async (code: number) => {
    for (let undo = stops.pop(); undo; undo = stops.pop()) await Promise.resolve(undo()).catch(() => undefined);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop(0));

  await ensureSystemPackages({ codeServerBuild: !isCodeServerInstalled(root) }, say);
  const { entry } = await ensureCodeServer(root, say);

  say('Packaging the extension…');
  const version = (require(join(root, 'package.json')) as { version: string }).version;
  const vsix = join(root, `helpdesk-bridge-${version}.vsix`);
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

  const standIn = await startStandIn({ seed: 'demo' });
  stops.push(() => standIn.close());

  const temp = mkdtempSync(join(tmpdir(), 'helpdesk-demo-'));
  stops.push(() => rmSync(temp, { recursive: true, force: true }));
  const workspace = values.workspace ? resolve(values.workspace) : root;
  const server = await startCodeServer({
    entry,
    dataDir: join(temp, 'cs'),
    workspace,
    port: values.port ? Number(values.port) : undefined,
    settings: { 'helpdesk.accountUrl': standIn.url },
    installExtensions: [vsix],
  });
  stops.push(() => server.stop());
  void server.exited.then((code) => {
    say(`code-server exited (${code}).`);
    void stop(code === 0 ? 0 : 1);
  });

  console.log(`
  Helpdesk Bridge demo

  Open:            ${workbenchUrl(server, workspace)}
  Stand-in server: ${standIn.url} (demo data)
  Sign in:         click the Helpdesk icon in the activity bar, then "Sign In".
                   The address is pre-filled; paste this API token:
                   ${standIn.token}

  Ctrl+C stops the demo.
`);
}

main().catch((error: unknown) => {
  console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
