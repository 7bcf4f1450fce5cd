import vscode = require('vscode');
import { readSettings, SETTINGS } from '../settings';
import type { DraftStore } from '../drafts/drafts';
import { DRAFT_SCHEME } from '../drafts/draftUri';
import { ReferenceCompletionProvider, SCM_INPUT_SCHEME, type LoadedPosts } from './referenceCompletion';
import { ReferenceHoverProvider, type PostHovers } from './referenceHover';
import { ReferenceLinkProvider } from './referenceLinks';
import type { ReferenceAccounts } from './referenceOptions';
import { TodoActionProvider } from './todoActions';

/** What the providers need of the rest of the extension. */
export interface InCodeSources {
  readonly hovers: PostHovers;
  readonly posts: LoadedPosts;
}

/** Code in files, unsaved editors and remote folders: where TODO comments are. */
const CODE: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: 'vscode-remote' }, { scheme: 'vscode-vfs' }];
/** Where references are read: code, Markdown and plain text, the commit message box, and drafts (not post documents: server text never becomes a link). */
const TEXT: vscode.DocumentSelector = [...(CODE as vscode.DocumentFilter[]), { scheme: SCM_INPUT_SCHEME }, { scheme: DRAFT_SCHEME }];

/**
 * The helpdesk in the code: reference links and hovers (of every account signed in to, `accounts`), the TODO light bulb, and references in
 * the commit message box. They are registered at startup and cost little: each reads the
 * settings and the line; only a reference hovered, or completion in the commit message box,
 * reads from the helpdesk (`sources`).
 */
export function registerInCode(drafts: DraftStore, sources: InCodeSources, accounts: () => ReferenceAccounts): vscode.Disposable {
  const pendingTask = (uri: string, lineText: string) => drafts.taskFromComment(uri, lineText)?.id;
  const providers = [
    vscode.languages.registerDocumentLinkProvider(TEXT, new ReferenceLinkProvider(accounts)),
    vscode.languages.registerHoverProvider(TEXT, new ReferenceHoverProvider(() => sources.hovers, accounts)),
    vscode.languages.registerCodeActionsProvider(CODE, new TodoActionProvider(pendingTask, accounts), TodoActionProvider.metadata),
  ];
  // Completion's trigger character is the prefix's last one, so it follows the setting.
  let completion: vscode.Disposable | undefined;
  const registerCompletion = () => {
    completion?.dispose();
    const trigger = (readSettings().referencePrefix || '#').slice(-1);
    completion = vscode.languages.registerCompletionItemProvider(
      { scheme: SCM_INPUT_SCHEME },
      new ReferenceCompletionProvider(() => sources.posts),
      trigger,
    );
  };
  registerCompletion();
  const listener = vscode.workspace.onDidChangeConfiguration(
    (e) => e.affectsConfiguration(SETTINGS.referencePrefix) && registerCompletion(),
  );
  return new vscode.Disposable(() => {
    for (const provider of providers) provider.dispose();
    completion?.dispose();
    listener.dispose();
  });
}
