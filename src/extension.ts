// Activation: everything is made in ./helpdesk.ts. It runs on first use only: package.json
// declares no activation event of its own, so VS Code activates on a Helpdesk view shown or a
// contributed command run.
import vscode = require('vscode');
import { start, type TestApi } from './helpdesk';

export type { TestApi } from './helpdesk';

/** `extension.exports` in test mode. */
export interface TestExports {
  /** The test API: what the integration tests and the bench reach. */
  load(): TestApi;
}

export function activate(context: vscode.ExtensionContext): TestExports | undefined {
  const testApi = start(context);
  return context.extensionMode === vscode.ExtensionMode.Test ? { load: () => testApi } : undefined;
}

export function deactivate(): void {}
