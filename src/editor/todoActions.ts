import vscode = require('vscode');
import { draftUri } from '../drafts/draftUri';
import { openTodoAt } from './openTodo';
import type { ReferenceAccounts } from './referenceOptions';

/** Lines of a selection looked at for a trigger comment. */
const MOST_LINES = 50;

/**
 * The light bulb on a comment line that starts with a trigger word: Create Task from Comment…,
 * or, while a task made from that comment waits in a draft (its send failed), that draft.
 */
export class TodoActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(
    private readonly pendingTask: (uri: string, lineText: string) => string | undefined,
    private readonly accounts: () => ReferenceAccounts,
  ) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    for (let line = range.start.line; line <= Math.min(range.end.line, range.start.line + MOST_LINES); line++) {
      const comment = openTodoAt(document, line, this.accounts());
      if (!comment) continue;
      const pending = this.pendingTask(document.uri.toString(), document.lineAt(line).text);
      const action = new vscode.CodeAction(
        pending ? vscode.l10n.t('Open the Unsent Task of This Comment') : vscode.l10n.t('Create Task from Comment…'),
        vscode.CodeActionKind.QuickFix,
      );
      action.command = pending
        ? { command: 'vscode.open', title: action.title, arguments: [draftUri(pending)] }
        : { command: 'helpdesk.createTaskFromComment', title: action.title, arguments: [document.uri, line] };
      return [action];
    }
    return [];
  }
}
