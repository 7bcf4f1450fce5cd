// Activation registers what package.json contributes (the two views, every command, the draft
// and post document schemes) and nothing more, so it holds the extension host only briefly.
// The code behind them is in ./helpdesk.ts, built into dist/helpdesk.js, and loads the first
// time a view asks for rows, a command runs or a post document opens.
import vscode = require('vscode');
import { DRAFT_SCHEME } from './drafts/draftUri';
import { DraftFileSystem } from './drafts/draftFileSystem';
import { DraftStore } from './drafts/drafts';
import type { Helpdesk, TestApi } from './helpdesk';
import { DeferredTreeDataProvider } from './views/deferredTree';
import type { HelpdeskNode } from './views/nodes';
import { POST_SCHEME } from './views/postUri';

export type { TestApi } from './helpdesk';

/** `extension.exports` in test mode. */
export interface TestExports {
  /** Loads the rest of the extension, as a first use would, and returns its test API. */
  load(): TestApi;
}

export function activate(context: vscode.ExtensionContext): TestExports | undefined {
  const drafts = new DraftStore(context.globalState);
  let helpdesk: Helpdesk | undefined;
  const load = (): Helpdesk => {
    if (!helpdesk) {
      // A plain require of the file next to this one: esbuild leaves it alone (see esbuild.mjs).
      const { start } = require('./helpdesk.js') as typeof import('./helpdesk');
      helpdesk = start({ context, drafts, postsView });
    }
    return helpdesk;
  };

  const posts = new DeferredTreeDataProvider<HelpdeskNode>(() => load().posts);
  const clients = new DeferredTreeDataProvider<HelpdeskNode>(() => load().clients);
  const postsView = vscode.window.createTreeView('helpdesk.posts', { treeDataProvider: posts });
  context.subscriptions.push(
    drafts,
    posts,
    clients,
    postsView,
    vscode.window.createTreeView('helpdesk.clients', { treeDataProvider: clients, showCollapseAll: true }),
    vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, new DraftFileSystem(drafts), { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(POST_SCHEME, {
      provideTextDocumentContent: (uri, token) => load().postDocuments.provideTextDocumentContent(uri, token),
    }),
  );
  const contributed = (context.extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands;
  for (const { command } of contributed) {
    context.subscriptions.push(vscode.commands.registerCommand(command, (...args: unknown[]) => load().run(command, args)));
  }
  // Drafts the service never confirmed are offered again as soon as the window opens.
  if (drafts.all().length > 0) load();
  return context.extensionMode === vscode.ExtensionMode.Test ? { load: () => load().testApi } : undefined;
}

export function deactivate(): void {}
