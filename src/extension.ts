import vscode = require('vscode');
import { Session } from './auth/session';
import { SignOutSignal } from './auth/signOutSignal';
import { AccountStatusBar, showAccountMenu } from './auth/statusBar';
import { commentOnTask } from './commands/commentOnTask';
import { createTask } from './commands/createTask';
import { filterPosts } from './commands/filterPosts';
import { linkDeal } from './commands/linkDeal';
import { reportBug } from './commands/reportBug';
import { workspaceRepository } from './code/gitLocation';
import { copyLink, openInBrowser } from './commands/navigation';
import { signIn } from './commands/signIn';
import { discardDraft, offerUnsentDrafts, sendDraft } from './drafts/draftCommands';
import { DRAFT_SCHEME, DraftFileSystem } from './drafts/draftFileSystem';
import { DraftStore } from './drafts/drafts';
import { DraftSender } from './drafts/sendDraft';
import { Log } from './log';
import { readSettings, SETTINGS } from './settings';
import { HelpdeskStore } from './store/helpdeskStore';
import { ClientsTreeProvider } from './views/clientsTree';
import { openPost, POST_SCHEME, PostDocumentProvider } from './views/postDocument';
import { PostsTreeProvider } from './views/postsTree';
import { notify, notifyThrough } from './notify';

/**
 * What the integration tests reach through `extension.exports`. Only in test mode: exports are
 * readable by every other extension, and these objects hold the token.
 */
export interface TestApi {
  readonly session: Session;
  readonly store: HelpdeskStore;
  readonly posts: PostsTreeProvider;
  readonly clients: ClientsTreeProvider;
  readonly drafts: DraftStore;
  readonly context: vscode.ExtensionContext;
}

export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const log = new Log();
  notifyThrough(log);
  const signOutSignal = new SignOutSignal(context.globalStorageUri);
  const session = new Session(context.secrets, log, signOutSignal);
  const store = new HelpdeskStore(session);
  const drafts = new DraftStore(context.globalState);
  const sender = new DraftSender(session, store, drafts, log);
  const posts = new PostsTreeProvider(store, session);
  const clients = new ClientsTreeProvider(store, session);
  posts.view = vscode.window.createTreeView('helpdesk.posts', { treeDataProvider: posts });
  const clientsView = vscode.window.createTreeView('helpdesk.clients', { treeDataProvider: clients, showCollapseAll: true });
  const writeDeps = { session, store, drafts, sender };

  /** Registers a command whose failures are logged and shown in words, never as a stack trace. */
  const command = (id: string, run: (...args: never[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: never[]) => {
      try {
        await session.whenRestored();
        return await run(...args);
      } catch (error) {
        log.error(`${id} failed`, error);
        void notify.error(error instanceof Error ? error.message : String(error));
        return undefined;
      }
    });

  context.subscriptions.push(
    log,
    signOutSignal,
    session,
    { dispose: () => store.dispose() },
    drafts,
    posts,
    clients,
    posts.view,
    clientsView,
    new AccountStatusBar(session),
    vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, new DraftFileSystem(drafts), { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(POST_SCHEME, new PostDocumentProvider(session, store)),
    command('helpdesk.signIn', (args?: { accountUrl: string; token: string }) => signIn(session, context.globalState, args)),
    command('helpdesk.signOut', () => session.signOut()),
    command('helpdesk.refresh', () => session.client && store.refreshAll()),
    command('helpdesk.refreshPosts', () => session.client && store.posts.refresh()),
    command('helpdesk.refreshClients', () => session.client && store.refreshClients()),
    command('helpdesk.loadMore', (list?: 'posts' | 'clients') => (list === 'clients' ? store.clients : store.posts).loadMore()),
    command('helpdesk.openPost', (target: unknown) => openPost(target)),
    command('helpdesk.openInBrowser', (node: unknown) => openInBrowser(session, node)),
    command('helpdesk.copyLink', (node: unknown) => copyLink(session, node)),
    command('helpdesk.filterPosts', (filter?: unknown) => filterPosts(posts, filter as never)),
    command('helpdesk.clearFilter', () => posts.setFilter({})),
    command('helpdesk.showClosedPosts', () => posts.setShowClosed(true)),
    command('helpdesk.hideClosedPosts', () => posts.setShowClosed(false)),
    command('helpdesk.accountMenu', () => showAccountMenu(session)),
    command('helpdesk.commentOnTask', (target?: unknown) => commentOnTask(writeDeps, target)),
    command('helpdesk.createTask', (target?: unknown) => createTask(writeDeps, target)),
    command('helpdesk.linkDeal', (target?: unknown) => linkDeal({ session, store, repository: () => workspaceRepository() }, target)),
    command('helpdesk.reportBug', (args?: unknown) => reportBug({ ...writeDeps, log }, args)),
    command('helpdesk.reportBugFromEditor', () => reportBug({ ...writeDeps, log })),
    command('helpdesk.sendDraft', (uri?: vscode.Uri) => sendDraft(drafts, sender, uri)),
    command('helpdesk.discardDraft', (uri?: vscode.Uri) => discardDraft(drafts, uri)),
    autoRefresh(store),
  );
  void session.whenRestored();
  void offerUnsentDrafts(drafts, sender, () => session.whenRestored());
  return context.extensionMode === vscode.ExtensionMode.Test ? { session, store, posts, clients, drafts, context } : undefined;
}

/** Refreshes every `helpdesk.autoRefreshMinutes` minutes while signed in; off by default. */
function autoRefresh(store: HelpdeskStore): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer) clearInterval(timer);
    const minutes = readSettings().autoRefreshMinutes;
    timer = minutes > 0 ? setInterval(() => void store.refreshAll(), minutes * 60_000) : undefined;
  };
  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.autoRefreshMinutes) && schedule());
  return { dispose: () => (listener.dispose(), timer && clearInterval(timer)) };
}

export function deactivate(): void {}
