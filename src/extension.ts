// Activation: everything is made in ./helpdesk.ts, once the window has finished starting
// (onStartupFinished), or earlier when a Helpdesk view is shown or a command runs.
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
