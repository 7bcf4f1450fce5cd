// VS Code's own list of MCP servers (VS Code 1.101 and later): the helpdesk's is there without any
// setup, as the manifest's `mcpServerDefinitionProviders` names it. Where this VS Code has no such
// API (1.96), nothing is registered and nothing else changes. @types/vscode is 1.96's, so the
// little of the API used here is declared here.
import vscode = require('vscode');
import type { Launch } from './launch';

/** The provider's id, as package.json's contributes.mcpServerDefinitionProviders names it. */
export const MCP_PROVIDER_ID = 'helpdesk.mcp';

interface McpServerDefinitionProvider {
  provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
}

interface McpApi {
  readonly lm?: { readonly registerMcpServerDefinitionProvider?: (id: string, provider: McpServerDefinitionProvider) => vscode.Disposable };
  readonly McpStdioServerDefinition?: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
    version?: string,
  ) => unknown;
}

export interface McpRegistration extends vscode.Disposable {
  /** Whether this VS Code has the API, and the server was registered with it. */
  readonly registered: boolean;
  /** What VS Code is given (McpStdioServerDefinition objects); none where it was not registered. */
  definitions(): unknown[];
}

/** Registers the helpdesk's MCP server with VS Code where the API exists; `launch` starts the entry (with `--dir` the connection folder). */
export function registerMcpDefinition(launch: () => Launch | undefined, version: string): McpRegistration {
  const api = vscode as unknown as McpApi;
  const Definition = api.McpStdioServerDefinition;
  if (typeof api.lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function')
    return { registered: false, definitions: () => [], dispose: () => undefined };
  const definitions = () => {
    const how = launch();
    return how ? [new Definition('Helpdesk', how.command, [...how.args], { ...how.env }, version)] : [];
  };
  let registration: vscode.Disposable;
  try {
    registration = api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, { provideMcpServerDefinitions: definitions });
  } catch {
    // VS Code 1.100 has the API in an earlier shape (its manifest key was
    // modelContextServerCollections) and throws: the feature is absent there, never the extension.
    return { registered: false, definitions: () => [], dispose: () => undefined };
  }
  return { registered: true, definitions, dispose: () => void registration.dispose() };
}
