// How the MCP entry is started, apart from the agents' configurations (agentConfigs.ts): VS
// Code's registration names it at activation, and that need not load the configurations' JSON
// parser. No vscode import.

/** How the entry is started: the program (VS Code's own Node, or `node`), its arguments and environment. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * VS Code's own Node where the extension host runs on it (Electron needs ELECTRON_RUN_AS_NODE to
 * act as Node; the entry needs Node 20 or later), else the Node running it.
 */
export function launchOf(entryPath: string, execPath: string, electron: boolean): Launch {
  return { command: execPath, args: [entryPath], env: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}
