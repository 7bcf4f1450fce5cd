import * as vscode from 'vscode';
import { Session } from './auth/session';
import { AccountStatusBar, showAccountMenu } from './auth/statusBar';
import { filterPosts } from './commands/filterPosts';
import { copyLink, openInBrowser } from './commands/navigation';
import { signIn } from './commands/signIn';
import { Log } from './log';
import { readSettings, SETTINGS } from './settings';
import { HelpdeskStore } from './store/helpdeskStore';
import { ClientsTreeProvider } from './views/clientsTree';
import { PostsTreeProvider } from './views/postsTree';

/**
 * What the integration tests reach through `extension.exports`. Only in test mode: exports are
 * readable by every other extension, and these objects hold the token.
 */
export interface TestApi {
  readonly session: Session;
  readonly store: HelpdeskStore;
  readonly posts: PostsTreeProvider;
  readonly clients: ClientsTreeProvider;
  readonly context: vscode.ExtensionContext;
}

export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const log = new Log();
  const session = new Session(context.secrets, log);
  const store = new HelpdeskStore(session);
  const posts = new PostsTreeProvider(store, session);
  const clients = new ClientsTreeProvider(store, session);
  posts.view = vscode.window.createTreeView('helpdesk.posts', { treeDataProvider: posts, showCollapseAll: false });
  const clientsView = vscode.window.createTreeView('helpdesk.clients', { treeDataProvider: clients, showCollapseAll: true });

  const command = (id: string, run: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, run);
  context.subscriptions.push(
    log,
    session,
    { dispose: () => store.dispose() },
    posts,
    clients,
    posts.view,
    clientsView,
    new AccountStatusBar(session),
    command('helpdesk.signIn', (args?: { accountUrl: string; token: string }) => signIn(session, context.globalState, args)),
    command('helpdesk.signOut', () => session.signOut()),
    command('helpdesk.refresh', async () => {
      await session.restore();
      if (session.client) await store.refreshAll();
    }),
    command('helpdesk.loadMore', (list?: 'posts' | 'clients') => (list === 'clients' ? store.clients : store.posts).loadMore()),
    command('helpdesk.openInBrowser', (node: unknown) => openInBrowser(session, node)),
    command('helpdesk.copyLink', (node: unknown) => copyLink(session, node)),
    command('helpdesk.filterPosts', (filter?: unknown) => filterPosts(posts, filter as never)),
    command('helpdesk.clearFilter', () => posts.setFilter({})),
    command('helpdesk.showClosedPosts', () => posts.setShowClosed(true)),
    command('helpdesk.hideClosedPosts', () => posts.setShowClosed(false)),
    command('helpdesk.accountMenu', () => showAccountMenu(session)),
    autoRefresh(store),
  );
  await session.restore();
  return context.extensionMode === vscode.ExtensionMode.Test ? { session, store, posts, clients, context } : undefined;
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
