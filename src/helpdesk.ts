// Everything behind the views and commands: the session, the API client, the store, the tree
// providers and the command handlers. Built into dist/helpdesk.js, which ./extension.ts loads
// the first time a view asks for rows, a command runs or a post document opens.
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
import type { DraftStore } from './drafts/drafts';
import { DraftSender } from './drafts/sendDraft';
import { Log } from './log';
import { readSettings, SETTINGS } from './settings';
import { HelpdeskStore } from './store/helpdeskStore';
import { ClientsTreeProvider } from './views/clientsTree';
import type { HelpdeskNode } from './views/nodes';
import { openPost, PostDocumentProvider } from './views/postDocument';
import { PostsTreeProvider } from './views/postsTree';
import { notify, notifyThrough } from './notify';

/** What activation made, and hands over. */
export interface Shell {
  readonly context: vscode.ExtensionContext;
  readonly drafts: DraftStore;
  readonly postsView: vscode.TreeView<HelpdeskNode>;
}

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
  /** The commands this module handles. */
  readonly commandIds: readonly string[];
}

export interface Helpdesk {
  readonly posts: PostsTreeProvider;
  readonly clients: ClientsTreeProvider;
  readonly postDocuments: PostDocumentProvider;
  /** Runs a contributed command; a failure is logged and shown in words, never as a stack trace. */
  run(id: string, args: unknown[]): Promise<unknown>;
  readonly testApi: TestApi;
}

type Handler = (...args: never[]) => unknown;

export function start({ context, drafts, postsView }: Shell): Helpdesk {
  const log = new Log();
  notifyThrough(log);
  const signOutSignal = new SignOutSignal(context.globalStorageUri);
  const session = new Session(context.secrets, log, signOutSignal);
  const store = new HelpdeskStore(session);
  const sender = new DraftSender(session, store, drafts, log);
  const posts = new PostsTreeProvider(store, session, postsView);
  const clients = new ClientsTreeProvider(store, session);
  const postDocuments = new PostDocumentProvider(session, store);
  const writeDeps = { session, store, drafts, sender };

  const handlers: Record<string, Handler> = {
    'helpdesk.signIn': (args?: { accountUrl: string; token: string }) => signIn(session, context.globalState, args),
    'helpdesk.signOut': () => session.signOut(),
    'helpdesk.refresh': () => session.client && store.refreshAll(),
    'helpdesk.refreshPosts': () => session.client && store.posts.refresh(),
    'helpdesk.refreshClients': () => session.client && store.refreshClients(),
    'helpdesk.loadMore': (list?: 'posts' | 'clients') => (list === 'clients' ? store.clients : store.posts).loadMore(),
    'helpdesk.openPost': (target: unknown) => openPost(target),
    'helpdesk.openInBrowser': (node: unknown) => openInBrowser(session, node),
    'helpdesk.copyLink': (node: unknown) => copyLink(session, node),
    'helpdesk.filterPosts': (filter?: unknown) => filterPosts(posts, filter as never),
    'helpdesk.clearFilter': () => posts.setFilter({}),
    'helpdesk.showClosedPosts': () => posts.setShowClosed(true),
    'helpdesk.hideClosedPosts': () => posts.setShowClosed(false),
    'helpdesk.accountMenu': () => showAccountMenu(session),
    'helpdesk.commentOnTask': (target?: unknown) => commentOnTask(writeDeps, target),
    'helpdesk.createTask': (target?: unknown) => createTask(writeDeps, target),
    'helpdesk.linkDeal': (target?: unknown) => linkDeal({ session, store, repository: () => workspaceRepository() }, target),
    'helpdesk.reportBug': (args?: unknown) => reportBug({ ...writeDeps, log }, args),
    'helpdesk.reportBugFromEditor': () => reportBug({ ...writeDeps, log }),
    'helpdesk.sendDraft': (uri?: vscode.Uri) => sendDraft(drafts, sender, uri),
    'helpdesk.discardDraft': (uri?: vscode.Uri) => discardDraft(drafts, uri),
  };

  context.subscriptions.push(
    log,
    signOutSignal,
    session,
    { dispose: () => store.dispose() },
    posts,
    clients,
    new AccountStatusBar(session),
    autoRefresh(store),
  );
  void session.whenRestored();
  void offerUnsentDrafts(drafts, sender, () => session.whenRestored());

  return {
    posts,
    clients,
    postDocuments,
    async run(id, args) {
      try {
        const handler = handlers[id];
        if (!handler) throw new Error(vscode.l10n.t('The command {0} has no handler.', id));
        await session.whenRestored();
        return await handler(...(args as never[]));
      } catch (error) {
        log.error(`${id} failed`, error);
        void notify.error(error instanceof Error ? error.message : String(error));
        return undefined;
      }
    },
    testApi: { session, store, posts, clients, drafts, context, commandIds: Object.keys(handlers) },
  };
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
