// Helpdesk: Connect an Agent… — for Claude Code, Cursor, Copilot CLI, Windsurf or any MCP client,
// the exact command or configuration that starts the helpdesk's MCP server, shown whole; it is
// copied, pasted into a terminal (not run), or written into the file the person picks (this
// server's entry merged into what the file holds). What is written names a program and a path,
// never a token or a secret. In Cursor, where its API is there, the server can be added directly.
import { join } from 'node:path';
import vscode = require('vscode');
import { labelText } from '../../text/serverText';
import type { Notifier } from '../../ui/notifier';
import {
  agentConfigs,
  configText,
  launchOf,
  mergedConfig,
  SERVER_NAME,
  type AgentConfig,
  type AgentId,
  type ConfigProblem,
  type Launch,
} from './agentConfigs';
import { readConfigFile, writeConfigFile, type Unreadable } from './configFile';
import { ENTRY_FILE } from './protocol';

const { l10n } = vscode;

/** Cursor's API for extensions (https://cursor.com/docs/extension-api), where the editor is Cursor. */
interface CursorApi {
  readonly cursor?: {
    readonly mcp?: {
      readonly registerServer?: (config: {
        name: string;
        server: { command: string; args: string[]; env: Record<string, string> };
      }) => void;
    };
  };
}

/** How agents start the entry: its copy in the connection folder, with the Node this window runs on. */
export function entryLaunch(folder: string): Launch {
  return launchOf(join(folder, ENTRY_FILE), process.execPath, typeof process.versions.electron === 'string');
}

export async function connectAgent(folder: string | undefined, ui: Notifier): Promise<void> {
  if (!folder) {
    void ui.info(l10n.t("Agents outside VS Code need the extension to run on this machine's disk; here its storage is elsewhere."));
    return;
  }
  const launch = entryLaunch(folder);
  const configs = agentConfigs(launch);
  const items = (Object.keys(configs) as AgentId[]).map((id) => ({
    id,
    label: configs[id].label,
    description: configs[id].shellCommand && id !== 'generic' ? l10n.t('a command') : l10n.t('a JSON configuration'),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Connect an Agent'),
    placeHolder: l10n.t('Which agent should reach the helpdesk through this VS Code?'),
  });
  if (!picked) return;
  await offer(picked.id, configs[picked.id], launch, folder, ui);
}

async function offer(id: AgentId, config: AgentConfig, launch: Launch, folder: string, ui: Notifier): Promise<void> {
  const copy = l10n.t('Copy');
  const paste = l10n.t('Paste in Terminal');
  const write = l10n.t('Write to File…');
  const addToCursor = l10n.t('Add to Cursor');
  const cursorApi = (vscode as unknown as CursorApi).cursor?.mcp?.registerServer;
  const shown = [
    config.shellCommand && l10n.t('Run this command in a terminal:\n\n{0}', config.shellCommand),
    config.file && l10n.t('Or put this in {0}:\n\n{1}', config.file.path, configText(config.file.entry)),
    l10n.t(
      'The agent reaches the helpdesk through the VS Code window signed in: keep one open. Every write is asked here first. The token never leaves VS Code; nothing written here holds it.',
    ),
  ]
    .filter(Boolean)
    .join('\n\n');
  const buttons = [
    ...(id === 'cursor' && cursorApi ? [addToCursor] : []),
    copy,
    ...(config.shellCommand && id !== 'generic' ? [paste] : []),
    ...(config.file ? [write] : []),
  ];
  const choice = await ui.info(l10n.t('Connect {0} to the helpdesk', config.label), { modal: true, detail: shown }, ...buttons);
  if (choice === copy)
    await vscode.env.clipboard.writeText(
      config.shellCommand && id !== 'generic'
        ? config.shellCommand
        : config.file
          ? configText(config.file.entry)
          : (config.shellCommand ?? ''),
    );
  else if (choice === paste && config.shellCommand) {
    // Pasted, not run: the person presses Enter.
    const terminal = vscode.window.createTerminal({ name: config.label });
    terminal.show();
    terminal.sendText(config.shellCommand, false);
  } else if (choice === write && config.file) await writeConfig(config.file, folder, ui);
  else if (choice === addToCursor && cursorApi) {
    cursorApi({ name: SERVER_NAME, server: { command: launch.command, args: [...launch.args], env: { ...launch.env } } });
    void ui.info(l10n.t("The helpdesk was added to Cursor's MCP servers."));
  }
}

async function writeConfig(file: NonNullable<AgentConfig['file']>, folder: string, ui: Notifier): Promise<void> {
  const picked = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(file.path),
    filters: { JSON: ['json'] },
    title: l10n.t('The configuration file to add the helpdesk to'),
  });
  if (!picked) return;
  if (picked.scheme !== 'file') return void ui.warn(l10n.t('Pick a file on this machine.'));
  const path = picked.fsPath;
  const read = await readConfigFile(path, folder);
  if ('unreadable' in read) return void ui.warn(unreadableText(read.unreadable, path));
  const merged = mergedConfig(read.text, file.entry);
  if ('problem' in merged) return void ui.warn(problemText(merged.problem, path));
  if (merged.unchanged) return void ui.info(l10n.t('{0} has the helpdesk already (as "{1}"): nothing was changed.', path, merged.name));
  if (merged.taken) {
    // The person's own server of that name (and its key) stays: the helpdesk goes in beside it, if they say so.
    const add = l10n.t('Add as "{0}"', merged.name);
    const answer = await ui.warn(
      l10n.t('{0} has a server named "{1}" of its own. Add the helpdesk beside it, as "{2}"?', path, merged.taken.name, merged.name),
      { modal: true, detail: l10n.t('"{0}" starts: {1}. It stays as it is.', merged.taken.name, labelText(merged.taken.command, 200)) },
      add,
    );
    if (answer !== add) return;
  }
  if (!(await writeConfigFile(path, read.bytes, merged.text)))
    return void ui.warn(l10n.t('{0} changed while the helpdesk was being added: nothing was written. Try again.', path));
  void ui.info(l10n.t('The helpdesk was added to {0} (as "{1}"). Restart the agent, or reload its MCP servers.', path, merged.name));
}

/** Why a file was not read, in words. */
function unreadableText(why: Unreadable, path: string): string {
  switch (why) {
    case 'ownFolder':
      return l10n.t("Pick a file outside the extension's own folder.");
    case 'link':
      return l10n.t('{0} is a link to another file: it was left as it was. Add the entry to the file it links to by hand.', path);
    case 'notFile':
      return l10n.t('{0} is not a plain file: it was left as it was.', path);
    case 'tooLarge':
      return l10n.t('{0} is over 1 MB: it was left as it was.', path);
    case 'notText':
      return l10n.t('{0} is not UTF-8 text: it was left as it was.', path);
    case 'unreadable':
      return l10n.t('{0} could not be read: nothing was written.', path);
  }
}

/** Why a file's text was left as it was, in words. */
function problemText(problem: ConfigProblem, path: string): string {
  switch (problem) {
    case 'tooLarge':
      return l10n.t('{0} is over 1 MB: it was left as it was.', path);
    case 'notJson':
      return l10n.t('{0} is not JSON (a syntax error): it was left as it was. Add the entry by hand.', path);
    case 'notObject':
      return l10n.t('{0} does not hold a JSON object: it was left as it was.', path);
    case 'serversNotObject':
      return l10n.t('In {0}, "mcpServers" is not an object: the file was left as it was.', path);
    case 'serversTwice':
      return l10n.t(
        '{0} names "mcpServers" twice: which one the agent reads is unclear, so the file was left as it was. Add the entry by hand.',
        path,
      );
  }
}
