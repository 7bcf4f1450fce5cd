// What each agent needs to start the helpdesk's MCP server: one command or one entry of its JSON
// configuration. Only a program, the entry's path and, for VS Code's own Node, one environment
// variable: never a token or a secret (the token stays in VS Code; the entry reads the secret of
// the run from a file only the user can read). No vscode import.
import { homedir } from 'node:os';
import { join } from 'node:path';

export type AgentId = 'claudeCode' | 'cursor' | 'copilotCli' | 'windsurf' | 'generic';

/** How the entry is started: the program (VS Code's own Node, or `node`), its arguments and environment. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface AgentConfig {
  readonly label: string;
  /** A command to run in a terminal, where the agent adds servers by command. */
  readonly shellCommand?: string;
  /** A JSON configuration file the agent reads, its usual place, and the entry to put under its `mcpServers`. */
  readonly file?: { readonly path: string; readonly entry: Readonly<Record<string, unknown>> };
}

/** The server's name in every configuration. */
export const SERVER_NAME = 'helpdesk';

/**
 * VS Code's own Node where the extension host runs on it (Electron needs ELECTRON_RUN_AS_NODE to
 * act as Node; the entry needs Node 20 or later), else the Node running it.
 */
export function launchOf(entryPath: string, execPath: string, electron: boolean): Launch {
  return { command: execPath, args: [entryPath], env: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/** A word for the shell: quoted unless it is plainly safe (POSIX quotes; double quotes on Windows, where a path holds no `"`). */
function shellWord(word: string, windows = process.platform === 'win32'): string {
  if (/^[A-Za-z0-9_./:=@-]+$/.test(word)) return word;
  return windows ? `"${word}"` : `'${word.replace(/'/g, `'\\''`)}'`;
}

function commandLine(launch: Launch): string {
  return [launch.command, ...launch.args].map((word) => shellWord(word)).join(' ');
}

/** Each agent's way in. */
export function agentConfigs(launch: Launch, home = homedir()): Readonly<Record<AgentId, AgentConfig>> {
  const plain = { command: launch.command, args: [...launch.args], env: { ...launch.env } };
  const envFlags = Object.entries(launch.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  return {
    claudeCode: {
      label: 'Claude Code',
      // The name before -e: Claude Code's `-e, --env <env...>` takes every word up to the next
      // option, so a name after it was read as a variable ("Invalid environment variable format").
      shellCommand: ['claude', 'mcp', 'add', SERVER_NAME, '--scope', 'user', ...envFlags, '--', launch.command, ...launch.args]
        .map((word) => shellWord(word))
        .join(' '),
    },
    cursor: { label: 'Cursor', file: { path: join(home, '.cursor', 'mcp.json'), entry: plain } },
    copilotCli: {
      label: 'Copilot CLI',
      file: { path: join(home, '.copilot', 'mcp-config.json'), entry: { type: 'local', ...plain, tools: ['*'] } },
    },
    windsurf: { label: 'Windsurf', file: { path: join(home, '.codeium', 'windsurf', 'mcp_config.json'), entry: plain } },
    generic: {
      label: 'Another MCP client',
      shellCommand: `${Object.entries(launch.env)
        .map(([name, value]) => `${name}=${shellWord(value)} `)
        .join('')}${commandLine(launch)}`,
      file: { path: join(home, 'mcp.json'), entry: plain },
    },
  };
}

/** The JSON an agent's file holds for this server alone. */
export function configText(entry: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2);
}

/**
 * `existing` (a file's text, or undefined for none) with this server's entry put under
 * `mcpServers`, everything else as it was; or why it cannot be written (never a file overwritten
 * that could not be read).
 */
export function mergedConfig(existing: string | undefined, entry: Readonly<Record<string, unknown>>): string | { problem: string } {
  if (existing === undefined || existing.trim() === '') return `${configText(entry)}\n`;
  if (existing.length > 1_000_000) return { problem: 'The file is over 1 MB: it was left as it was.' };
  let value: unknown;
  try {
    value = JSON.parse(existing);
  } catch {
    return { problem: 'The file is not plain JSON (comments, or a syntax error): it was left as it was. Add the entry by hand.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'The file does not hold a JSON object: it was left as it was.' };
  const config = value as Record<string, unknown>;
  const servers = config.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers)))
    return { problem: 'Its "mcpServers" is not an object: the file was left as it was.' };
  return `${JSON.stringify({ ...config, mcpServers: { ...(servers as Record<string, unknown> | undefined), [SERVER_NAME]: entry } }, null, 2)}\n`;
}
