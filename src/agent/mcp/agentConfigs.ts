// What each agent needs to start the helpdesk's MCP server: one command or one entry of its JSON
// configuration. Only a program, the entry's path and, for VS Code's own Node, one environment
// variable: never a token or a secret (the token stays in VS Code; the entry reads the secret of
// the run from a file only the user can read). No vscode import.
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  applyEdits,
  format,
  getNodeValue,
  modify,
  parseTree,
  type FormattingOptions,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { Launch } from './launch';

export { launchOf, type Launch } from './launch';

export type AgentId = 'claudeCode' | 'cursor' | 'copilotCli' | 'windsurf' | 'generic';

export interface AgentConfig {
  readonly label: string;
  /** A command to run in a terminal, where the agent adds servers by command. */
  readonly shellCommand?: string;
  /** A JSON configuration file the agent reads, its usual place, and the entry to put under its `mcpServers`. */
  readonly file?: { readonly path: string; readonly entry: Readonly<Record<string, unknown>> };
}

/** The server's name in every configuration. */
export const SERVER_NAME = 'helpdesk';

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

/** The most of a configuration file that is merged into (its text, in UTF-16 units). */
export const MAX_CONFIG_CHARS = 1_000_000;

/** Why a file's text was left as it was. */
export type ConfigProblem = 'tooLarge' | 'notJson' | 'notObject' | 'serversNotObject' | 'serversTwice';

/**
 * A file's text with this server's entry in it, and the name it has there. `taken`: the name the
 * entry would have had, which a server of the person's own holds (the entry gets the next free
 * name, and the person is asked first); `unchanged`: the entry was there as it is.
 */
export type MergedConfig =
  | {
      readonly text: string;
      readonly name: string;
      readonly taken?: { readonly name: string; readonly command: string };
      readonly unchanged: boolean;
    }
  | { readonly problem: ConfigProblem };

/**
 * `existing` (a file's text, or undefined for none) with this server's entry under `mcpServers`,
 * as text edits (jsonc-parser's, as VS Code edits its own settings.json): everything else stays as
 * the person wrote it, a BOM, comments, trailing commas, line ends, duplicate keys and numbers
 * past 2^53 included. A server of the person's own is never replaced: an entry that starts the
 * same program with the same arguments is ours, and is updated where it is (under whatever name);
 * else the entry goes in as "helpdesk", or "helpdesk-2", … where that is taken. A name given twice
 * is taken, whatever either says (an agent reads the last; an edit would find the first). Two
 * `mcpServers` are left alone, as anything that is not a JSON object. Linear in the text.
 */
export function mergedConfig(existing: string | undefined, entry: Readonly<Record<string, unknown>>): MergedConfig {
  const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = existing?.slice(bom.length) ?? '';
  if (body.trim() === '') return { text: `${bom}${configText(entry)}\n`, name: SERVER_NAME, unchanged: false };
  if (body.length > MAX_CONFIG_CHARS) return { problem: 'tooLarge' };
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0 || !root) return { problem: 'notJson' };
  if (root.type !== 'object') return { problem: 'notObject' };
  const serversNodes = propertiesOf(root).filter(([key]) => key === 'mcpServers');
  if (serversNodes.length > 1) return { problem: 'serversTwice' };
  const servers = serversNodes[0]?.[1];
  if (servers && servers.type !== 'object') return { problem: 'serversNotObject' };
  const named = new Map<string, Node[]>();
  for (const [key, value] of servers ? propertiesOf(servers) : []) named.set(key, [...(named.get(key) ?? []), value]);
  const isOurs = (nodes: Node[] | undefined) => nodes?.length === 1 && startsTheSame(getNodeValue(nodes[0]!), entry);
  const oursAs = [...named].find(([, nodes]) => isOurs(nodes))?.[0];
  let name = oursAs;
  for (let n = 1; name === undefined; n++) {
    const candidate = n === 1 ? SERVER_NAME : `${SERVER_NAME}-${n}`;
    if (!named.has(candidate)) name = candidate;
  }
  if (oursAs !== undefined) {
    const text = updatedInPlace(body, oursAs, getNodeValue(named.get(oursAs)![0]!) as Record<string, unknown>, entry);
    return { text: `${bom}${text}`, name: oursAs, unchanged: text === body };
  }
  const theirs = named.get(SERVER_NAME);
  const taken = theirs && { name: SERVER_NAME, command: commandOf(theirs.map(getNodeValue).at(-1)) };
  return { text: `${bom}${withEntry(body, ['mcpServers', name], entry)}`, name, ...(taken ? { taken } : {}), unchanged: false };
}

/**
 * Our entry at `name` completed with `entry`: a value it lacks is added, and our variables are set
 * in its `env`; what it has otherwise stays as the person (or their agent) made it — the tools
 * they allowed, `disabled`, a variable of their own.
 */
function updatedInPlace(text: string, name: string, current: Record<string, unknown>, entry: Readonly<Record<string, unknown>>): string {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  let updated = text;
  for (const [key, value] of Object.entries(entry)) {
    const now = current[key];
    if (key === 'env' && isObject(now) && isObject(value)) {
      for (const [variable, set] of Object.entries(value))
        if (now[variable] !== set) updated = withEntry(updated, ['mcpServers', name, key, variable], set);
    } else if (now === undefined) updated = withEntry(updated, ['mcpServers', name, key], value);
  }
  return updated;
}

/**
 * `text` with `value` at `path`, laid out as the file is (its indentation, its line ends). Only
 * what was put in is laid out: modify's own layout formats the whole of the lines it touches, in
 * time quadratic in their length (a file on one line of 1 MB).
 */
function withEntry(text: string, path: JSONPath, value: unknown): string {
  const edits = modify(text, path, value, {});
  const edited = applyEdits(text, edits);
  let start = edited.length;
  let end = 0;
  for (const edit of edits) [start, end] = [Math.min(start, edit.offset), Math.max(end, edit.offset + edit.content.length)];
  if (end <= start) return edited;
  // And the space between it and what stands on either side (the braces of an empty object, a comment).
  while (start > 0 && /\s/.test(edited[start - 1]!)) start--;
  while (end < edited.length && /\s/.test(edited[end]!)) end++;
  [start, end] = [Math.max(0, start - 1), Math.min(edited.length, end + 1)];
  return applyEdits(edited, format(edited, { offset: start, length: end - start }, formattingOf(text)));
}

/** An object node's properties, in order, as [key, value node]. */
function propertiesOf(object: Node): [string, Node][] {
  const found: [string, Node][] = [];
  for (const property of object.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key && value && typeof key.value === 'string') found.push([key.value, value]);
  }
  return found;
}

/** Whether a server entry starts the same program with the same arguments as `entry`. */
function startsTheSame(value: unknown, entry: Readonly<Record<string, unknown>>): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const server = value as Record<string, unknown>;
  return server.command === entry.command && sameJson(server.args ?? [], entry.args ?? []);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The program a server entry of the person's starts, in words (for the question). */
function commandOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { command, args, url } = value as Record<string, unknown>;
  if (typeof url === 'string') return url;
  const words: unknown[] = [command, ...(Array.isArray(args) ? (args as unknown[]) : [])];
  return words.filter((word) => typeof word === 'string').join(' ');
}

/** The file's own indentation and line ends, for what is inserted. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: Math.min(indent.length, 8), eol };
}
