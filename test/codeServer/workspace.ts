// Folders of the launchers' runs: the repo root, and the workspace the editor opens.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROFILES, startStandIn, type ProfileName } from '../server';

/** The nearest folder at or above `start` that holds a package.json (the repo, from out/…). */
export function findRepoRoot(start = __dirname): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}

/**
 * What a cloned repository's .vscode/settings.json could say to make the extension misbehave: a
 * value for every setting the manifest restricts (the Restricted Mode run writes them).
 */
export const HOSTILE_WORKSPACE_SETTINGS: Record<string, unknown> = {
  'helpdesk.workspaceAccount': 'https://attacker.example',
  'helpdesk.referencePrefix': 'a'.repeat(10_000),
  'helpdesk.todoActions.triggerWords': Array.from({ length: 1000 }, (_, i) => `W${'.*'.repeat(50)}${i}`),
  'helpdesk.watch.intervalMinutes': 1,
  'helpdesk.watch.notify': 'all',
  'helpdesk.autoRefreshMinutes': 1,
  'helpdesk.requestTimeoutSeconds': 1,
  'helpdesk.branchNameTemplate': `a${'.-'.repeat(50_000)}x{id}`,
  'helpdesk.commitMessageTemplate': ' '.repeat(100),
};

/** A setting the manifest does not restrict, beside them: it applies, which shows the file is read. */
export const HOSTILE_WORKSPACE_PAGE_SIZE = 7;

/** Writes the repository's hostile settings into the workspace (see HOSTILE_WORKSPACE_SETTINGS). */
export function writeHostileSettings(workspace: string): void {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const settings = { ...HOSTILE_WORKSPACE_SETTINGS, 'helpdesk.pageSize': HOSTILE_WORKSPACE_PAGE_SIZE };
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** The remote the test workspace's repository names; Report Bug's permalinks point there. */
export const WORKSPACE_REMOTE = 'https://github.com/example/sample.git';

/**
 * Creates a small workspace in `dir` (a README and one source file) and returns `dir`. It is a
 * git repository whose commit is on a remote branch (`origin/main`, made locally: no network),
 * so Report Bug can build a permalink.
 */
export function createWorkspace(dir: string): string {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# Sample workspace\n\nOpened by the integration tests of Helpdesk Bridge.\n');
  writeFileSync(
    join(dir, 'src', 'greeting.ts'),
    [
      'export function greeting(name: string): string {',
      '  if (!name) throw new Error("name is required");',
      '  return `Hello, ${name}!`;',
      '}',
      '',
    ].join('\n'),
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'Sample workspace');
  git('remote', 'add', 'origin', WORKSPACE_REMOTE);
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  return dir;
}

/** The variable that names a profile's stand-in: `HELPDESK_STANDIN_URL` for `likely`, `HELPDESK_STANDIN_SPARSE_URL`… */
export function standInVariable(profile: ProfileName, what: 'URL' | 'TOKEN'): string {
  return `HELPDESK_STANDIN_${profile === 'likely' ? '' : `${profile.toUpperCase()}_`}${what}`;
}

/**
 * One stand-in per profile, the same demo data behind each (see test/server/profile.ts), and the
 * variables through which the suite inside the extension host finds them (the host inherits
 * them). Test-only: the tokens are the stand-ins' throwaway ones.
 */
export async function startProfileStandIns(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const servers = await Promise.all(
    (Object.keys(PROFILES) as ProfileName[]).map(async (profile) => ({ profile, server: await startStandIn({ seed: 'demo', profile }) })),
  );
  return {
    env: Object.fromEntries(
      servers.flatMap(({ profile, server }) => [
        [standInVariable(profile, 'URL'), server.url],
        [standInVariable(profile, 'TOKEN'), server.token],
      ]),
    ),
    close: async () => void (await Promise.all(servers.map(({ server }) => server.close()))),
  };
}
