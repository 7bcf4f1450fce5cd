// `npm start`: the extension in a real VS Code (code-server) against the stand-in server with
// demo data. Builds and installs the .vsix, pre-fills the account address, prints one URL to
// open and the token to paste at "Sign In". Ctrl+C stops everything it started.
//
//   npm start [-- --port N] [--workspace DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startCodeServer, workbenchUrl } from '../codeServer/codeServerHost';
import { packageVsix, prepareEditor } from '../codeServer/editor';
import { Cleanups, onSignal } from '../codeServer/run';
import { findRepoRoot } from '../codeServer/workspace';
import { startStandIn } from '../server';

const say = (line: string) => console.log(`[demo] ${line}`);
const cleanups = new Cleanups('demo');

async function stop(code: number): Promise<never> {
  await cleanups.runAll();
  process.exit(code);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, workspace: { type: 'string' } } });
  const root = findRepoRoot();
  void onSignal().stopped.catch(() => stop(0));

  const codeServer = await prepareEditor(root, say, { chromium: false });

  say('Packaging the extension…');
  const vsix = await packageVsix(root, cleanups);

  const standIn = await startStandIn({ seed: 'demo' });
  cleanups.add(() => standIn.close());

  const temp = mkdtempSync(join(tmpdir(), 'helpdesk-demo-'));
  cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
  const workspace = values.workspace ? resolve(values.workspace) : root;
  const server = await startCodeServer({
    codeServer,
    dataDir: join(temp, 'cs'),
    workspace,
    port: values.port ? Number(values.port) : undefined,
    settings: { 'helpdesk.accountUrl': standIn.url },
    installExtensions: [vsix],
  });
  cleanups.add(() => server.stop());
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
  void stop(1);
});
