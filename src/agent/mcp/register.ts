// The MCP door's parts, made once at activation (see src/extension.ts): the endpoint's host, VS
// Code's own registration, and the Connect an Agent… command. The stdio entry (dist/mcp.js) and
// the MCP SDK are not loaded here: only the entry's path is named.
import vscode = require('vscode');
import type { WindowAccount } from '../../accounts/signedIn';
import type { Log } from '../../log';
import type { HelpdeskTools } from '../tools/registerTools';
import type { Notifier } from '../../ui/notifier';
import { launchOf } from './launch';
import { mcpDispatch, type Ask } from './dispatch';
import { connectionFolder, McpHost } from './host';
import { IN_VSCODE_CHAT } from './protocol';
import { registerMcpDefinition, type McpRegistration } from './vscodeRegistration';

export interface McpDoor extends vscode.Disposable {
  /** Opens the endpoint while the window is signed in, from now on (see McpHost.start). */
  start(): void;
  /** Helpdesk: Connect an Agent… */
  connectAgent(): Promise<void>;
  /** The host of the endpoint (undefined where the extension's storage is not on disk). */
  readonly host: McpHost | undefined;
  /** The connection folder (connection.json, the entry's copy), where on disk. */
  readonly folder: string | undefined;
  /** VS Code's own list of MCP servers, where this VS Code has one. */
  readonly registration: McpRegistration;
}

export function registerMcp(
  context: vscode.ExtensionContext,
  tools: HelpdeskTools,
  window: Pick<WindowAccount, 'current' | 'onDidChange'>,
  ui: Notifier,
  log: Log,
): McpDoor {
  const folder = connectionFolder(context);
  const entry = vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js');
  const proceed = vscode.l10n.t('Continue');
  // The question of the language model tool, whole, in a modal dialog naming the client.
  const ask: Ask = async (question, detail) => (await ui.warn(question, { modal: true, detail }, proceed)) === proceed;
  const host = folder ? new McpHost(folder, entry, window, mcpDispatch(tools, ask), log) : undefined;
  const electron = typeof process.versions.electron === 'string';
  const given = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof given === 'string' ? given : '';
  const registration = registerMcpDefinition(() => {
    if (!folder || entry.scheme !== 'file') return undefined;
    const launch = launchOf(entry.fsPath, process.execPath, electron);
    return { ...launch, args: [...launch.args, '--dir', folder, IN_VSCODE_CHAT] };
  }, version);
  return {
    host,
    folder,
    registration,
    start: () => host?.start(),
    // Its configuration files' parser (jsonc-parser) only when the person asks.
    connectAgent: async () => (await import('./connectAgent')).connectAgent(folder, ui),
    dispose: () => {
      registration.dispose();
      host?.dispose();
    },
  };
}
