// Activation comes once the window has finished starting (onStartupFinished), for the providers
// of references and TODO comments, or earlier when a Helpdesk view is shown or a command runs.
// It registers those providers, the two views, every command and the two document schemes, and
// starts the session (the status bar, the context keys of menus and the walkthrough, the news of
// a sign-out in another window, forgetting an account's news at each sign-out). The code behind the rest is in ./helpdesk.ts, built into
// dist/helpdesk.js, and loads the first time a view asks for rows, a command runs, a post
// document opens, a reference is hovered or completed, or drafts are left from before.
import vscode = require('vscode');
import { AccountList } from './auth/accountList';
import { accountNowOf } from './auth/accountNow';
import { registerAccountsProvider } from './auth/accountsProvider';
import { Session } from './auth/session';
import { SignOutSignal } from './auth/signOutSignal';
import { AccountStatusBar } from './auth/statusBar';
import { DraftFileSystem } from './drafts/draftFileSystem';
import { DraftStore } from './drafts/drafts';
import { draftFolder, presenceFolder } from './drafts/sharedFolders';
import { DRAFT_SCHEME, draftIdOf } from './drafts/draftUri';
import type { Helpdesk, TestApi } from './helpdesk';
import { registerInCode } from './inCode/register';
import { registerTools } from './tools/registerTools';
import { DeferredContentProvider, DeferredTreeDataProvider } from './views/deferred';
import { Log } from './log';
import { readSettings, SETTINGS } from './settings';
import type { HelpdeskNode } from './views/nodes';
import { POST_SCHEME } from './views/postUri';
import { forgetNews } from './watch/newsFileNames';

export type { TestApi } from './helpdesk';

/** `extension.exports` in test mode. */
export interface TestExports {
  /** Loads the rest of the extension, as a first use would, and returns its test API. */
  load(): TestApi;
}

/** After the window started, before the news watcher (and the code it needs) loads. */
const NEWS_START_DELAY_MS = 5000;

export function activate(context: vscode.ExtensionContext): TestExports | undefined {
  const drafts = new DraftStore(context.globalState, draftFolder(context.globalStorageUri), presenceFolder(context.globalStorageUri));
  const log = new Log();
  const signOutSignal = new SignOutSignal(context.globalStorageUri);
  const accountList = new AccountList(context.globalStorageUri);
  const session = new Session(context.secrets, log, signOutSignal, accountList, context.workspaceState);
  const accountNow = accountNowOf(session);
  let helpdesk: Helpdesk | undefined;
  let failure: { error: unknown } | undefined;
  const couldNotStart = () => void vscode.window.showErrorMessage(vscode.l10n.t('Helpdesk Bridge could not start. The Helpdesk output has the details; reloading the window may help.'));
  const load = (): Helpdesk => {
    if (helpdesk) return helpdesk;
    // A failed start is a defect; trying again would make its listeners twice.
    if (failure) throw failure.error;
    try {
      // A plain require of the file beside this one, on first use: esbuild leaves it alone (see
      // esbuild.mjs's helpdeskAtRuntime), so the rest of the extension loads only when needed.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would bundle it into dist/extension.js
      const { start } = require('./helpdesk.js') as typeof import('./helpdesk');
      helpdesk = start({ context, drafts, log, session, accountNow, postsView, clientsView, referenceAccounts });
      return helpdesk;
    } catch (error) {
      failure = { error };
      log.error('Helpdesk Bridge could not start', error);
      throw error;
    }
  };
  /** A command asked for: when the rest cannot start, said in words each time, never VS Code's raw message. */
  const loadForCommand = (): Helpdesk | undefined => {
    try {
      return load();
    } catch {
      couldNotStart();
      return undefined;
    }
  };

  const referenceAccounts = () => ({ window: accountNow.current?.url, all: accountList.known });
  context.subscriptions.push(registerInCode(drafts, () => load().inCode, referenceAccounts), registerTools(() => load().tools), tellOpenDrafts(drafts));
  const posts = new DeferredTreeDataProvider<HelpdeskNode>(() => load().posts);
  const clients = new DeferredTreeDataProvider<HelpdeskNode>(() => load().clients);
  const postDocuments = new DeferredContentProvider(() => load().postDocuments);
  const postsView = vscode.window.createTreeView('helpdesk.posts', { treeDataProvider: posts });
  const clientsView = vscode.window.createTreeView('helpdesk.clients', { treeDataProvider: clients, showCollapseAll: true });
  context.subscriptions.push(
    drafts,
    log,
    signOutSignal,
    session,
    // Every sign-out, of any account, here or in another window (whose watcher may have written
    // since): the next sign-in to it starts the news from a silent baseline.
    session.onDidSignOut((accountUrl) => void forgetNews(context.globalStorageUri, accountUrl)),
    accountList,
    new AccountStatusBar(session, accountList.onDidChange),
    registerAccountsProvider(session, accountList.onDidChange),
    posts,
    clients,
    postDocuments,
    postsView,
    clientsView,
    vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, new DraftFileSystem(drafts), { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(POST_SCHEME, postDocuments),
  );
  const contributed = (context.extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands;
  for (const { command } of contributed) {
    context.subscriptions.push(vscode.commands.registerCommand(command, (...args: unknown[]) => loadForCommand()?.run(command, args)));
  }
  // The posts view sets this once it is made; until then the setting says (for Show/Hide Closed Posts in the palette).
  const publishShowClosed = () => void (helpdesk || vscode.commands.executeCommand('setContext', 'helpdesk.showClosed', readSettings().showClosedPosts));
  publishShowClosed();
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.showClosedPosts) && publishShowClosed()));
  // News, and the post the branch is about, come without a view opened: signed in (restored, or
  // signing in), the rest loads (its watcher, and what follows Git's branches) a few seconds
  // after the window has started.
  const watchNews = () => {
    if (helpdesk || failure || !accountNow.current) return;
    if (readSettings().watchIntervalMinutes === 0 && !vscode.workspace.workspaceFolders?.length) return;
    try {
      load();
    } catch {
      // said when a command or a view asks for it
    }
  };
  let newsStart: ReturnType<typeof setTimeout> | undefined;
  void accountNow.now().then(() => (newsStart = setTimeout(watchNews, NEWS_START_DELAY_MS)));
  context.subscriptions.push(
    new vscode.Disposable(() => clearTimeout(newsStart)),
    accountNow.onDidChange(() => newsStart === undefined || watchNews()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.watchIntervalMinutes) && newsStart !== undefined && watchNews()),
  );
  // Drafts the service never confirmed are offered again as soon as the window opens (and the drafts are read).
  void drafts.ready.then(() => {
    if (drafts.all().length === 0) return;
    try {
      load();
    } catch {
      couldNotStart(); // the drafts still open as files, and each command says the same
    }
  });
  return context.extensionMode === vscode.ExtensionMode.Test ? { load: () => load().testApi } : undefined;
}

export function deactivate(): void {}

/** Tells the other windows which drafts this one has open in an editor, as tabs open and close. */
function tellOpenDrafts(drafts: DraftStore): vscode.Disposable {
  const tell = () => {
    const open = vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [draftIdOf(tab.input.uri)] : [])));
    void drafts.presence.setEditing([...new Set(open.filter((id): id is string => id !== undefined))]);
  };
  tell();
  return vscode.window.tabGroups.onDidChangeTabs(tell);
}
