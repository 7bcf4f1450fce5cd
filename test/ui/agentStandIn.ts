// A stand-in for VS Code's agent in the UI tests: a tiny extension whose one command calls the
// helpdesk_createTask tool through vscode.lm.invokeTool, as the agent does, and shows how the call
// ended. No model is needed, and outside the extension test host VS Code shows the tool's real
// confirmation (the test host answers it itself), so a step can refuse it as a person would. Each
// answer is appended as a line to a file of the run's (toasts may queue behind others).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const AGENT_COMMAND = 'Agent Stand-in: Create a Task through the Helpdesk Tool';
/** What the stand-in asks the tool to file. */
export const AGENT_TASK = {
  title: 'Retry the export after a timeout',
  description: 'The export gives up after one timeout; retry it twice, then say so.',
};

const MANIFEST = {
  name: 'helpdesk-ui-agent',
  displayName: 'Helpdesk UI tests: agent stand-in',
  publisher: 'helpdesk-bridge-tests',
  version: '0.0.1',
  engines: { vscode: '^1.95.0' },
  main: './extension.js',
  activationEvents: ['onCommand:helpdeskUiAgent.createTask'],
  contributes: { commands: [{ command: 'helpdeskUiAgent.createTask', title: AGENT_COMMAND }] },
};

const extension = (answers: string) => `const vscode = require('vscode');
const { appendFileSync } = require('fs');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('helpdeskUiAgent.createTask', async () => {
    let said;
    try {
      const result = await vscode.lm.invokeTool('helpdesk_createTask', { input: ${JSON.stringify(AGENT_TASK)}, toolInvocationToken: undefined });
      said = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('').split('\\n')[0];
    } catch (error) {
      said = 'the call ended: ' + (error && error.name);
    }
    appendFileSync(${JSON.stringify(answers)}, said + '\\n');
  }));
};
`;

/** Writes the stand-in into `dir` and packs it; returns its .vsix, and the file its answers go to. */
export function agentStandIn(root: string, dir: string): { vsix: string; answers: string } {
  const folder = join(dir, 'agent-stand-in');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify(MANIFEST, null, 2));
  const answers = join(dir, 'agent-answers.txt');
  writeFileSync(join(folder, 'extension.js'), extension(answers));
  writeFileSync(join(folder, 'README.md'), 'Calls the Helpdesk Bridge tools as the agent does, for its UI tests.\n');
  const vsix = join(dir, 'agent-stand-in.vsix');
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: folder,
    stdio: 'pipe',
  });
  return { vsix, answers };
}
