// Helpdesk: Connect an Agent… — for Claude Code, Cursor, Copilot CLI, Windsurf or any MCP client,
// the exact command or configuration that starts the helpdesk's MCP server, shown whole; it is
// copied, pasted into a terminal (not run), or written into the file the person picks (this
// server's entry merged into what the file holds). What is written names a program and a path,
// never a token or a secret. In Cursor, where its API is there, the server can be added directly.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import vscode = require('vscode');
import type { Notifier } from '../../ui/notifier';
import { agentConfigs, configText, launchOf, mergedConfig, SERVER_NAME, type AgentConfig, type AgentId, type Launch } from './agentConfigs';
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
  // The connection folder holds the run's secret: nothing is written into it.
  if (resolve(dirname(path)) === resolve(folder)) return void ui.warn(l10n.t("Pick a file outside the extension's own folder."));
  const existing = existsSync(path) ? await readFile(path, 'utf8').catch(() => null) : undefined;
  if (existing === null) return void ui.warn(l10n.t('{0} could not be read: nothing was written.', path));
  const merged = mergedConfig(existing, file.entry);
  if (typeof merged !== 'string') return void ui.warn(`${path}: ${merged.problem}`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, merged, 'utf8');
  void ui.info(l10n.t('The helpdesk was added to {0} (as "{1}"). Restart the agent, or reload its MCP servers.', path, SERVER_NAME));
}
