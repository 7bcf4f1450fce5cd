// The composition root. Activation comes once the window has finished starting
// (onStartupFinished), for the providers of references and TODO comments, or earlier when a
// Helpdesk view is shown or a command runs. It makes every part and wires them together: the
// session, the window's account (the gateway) and its store, the views, the post documents, the
// commands, the tools for VS Code's agent, the drafts and the news watcher. What stays lazy is
// the work, not the code: no request is made until a view or a command asks, and the news
// watcher and what follows Git's branches start a few seconds after the window has, or at the
// first command.
import { join } from 'node:path';
import vscode = require('vscode');
import type { Post } from './api';
import type { Account } from './api/account';
import { AccountList } from './accounts/accountList';
import { registerAccountsProvider } from './accounts/accountsProvider';
import { Session } from './accounts/session';
import { SignOutSignal } from './accounts/signOutSignal';
import { AccountStatusBar } from './accounts/statusBar';
import { gitApi } from './code/gitLocation';
import type { CommandId } from './commandIds';
import { showAccountMenu } from './commands/accountMenu';
import { stopUsingAccountForWorkspace, switchAccount, useAccountForWorkspace } from './commands/accounts';
import { filterPosts } from './commands/filterPosts';
import { goToCode } from './commands/goToCode';
import { copyLink, openInBrowser } from './commands/navigation';
import { markAllNewsSeen, markPostSeen, showNews } from './commands/news';
import { setWhoIAm } from './commands/setWhoIAm';
import { showClientPosts } from './commands/showClientPosts';
import { targetPost, targetUri } from './commands/targets';
import { discardDraft, sendDraft, UnsentDraftsOffer } from './drafts/draftCommands';
import { DraftFileSystem } from './drafts/draftFileSystem';
import { draftFolder, filedFolder, presenceFolder } from './drafts/draftFolders';
import { DraftStore } from './drafts/drafts';
import { DRAFT_SCHEME, draftIdOf } from './drafts/draftUri';
import { FiledIntents } from './drafts/filedIntents';
import { DraftSender } from './drafts/sendDraft';
import { commentOnTaskFeature } from './commands/commentOnTask';
import { createTaskFeature } from './commands/createTask';
import { createTaskFromCommentFeature, writeTodoReference } from './commands/createTaskFromComment';
import { anyAccount, commandHandlers, onlySignedIn, type Command } from './commands/feature';
import { linkDealFeature } from './commands/linkDeal';
import { reportBugFeature } from './commands/reportBug';
import { signInFeature } from './commands/signIn';
import { startWorkFeature } from './commands/startWork';
import { publishPostUpdatesRefused, updatePostFeature } from './commands/updatePost';
import { Gateway } from './accounts/gateway';
import { withSignedIn, withSignedInNow, type SignedIn } from './accounts/signedIn';
import { Identity } from './accounts/identity';
import { postHovers } from './editor/postHover';
import { registerInCode } from './editor/register';
import { Log } from './log';
import { registerMcp, type McpDoor } from './agent/mcp/register';
import type { Services } from './services';
import { SETTINGS } from './settings';
import { SerialState } from './globalStorage/serialState';
import { autoRefresh } from './store/autoRefresh';
import { HelpdeskStore } from './store/helpdeskStore';
import { forgetRows, rowsFolder } from './store/rowSnapshots';
import { postTools } from './agent/tools/postTools';
import { registerTools, type HelpdeskTools } from './agent/tools/registerTools';
import { updatePostTool } from './agent/tools/updatePost';
import { writeTools } from './agent/tools/writeTools';
import { Notifier } from './ui/notifier';
import { ClientsTreeProvider } from './views/clientsTree';
import type { HelpdeskNode } from './views/nodes';
import { PostDocumentProvider } from './views/postDocument';
import { PostsTreeProvider } from './views/postsTree';
import { POST_SCHEME } from './views/postUri';
import { RowDecorations } from './views/rowDecorations';
import { forgetNews } from './watch/newsFileNames';
import { NewsFolder } from './watch/newsFiles';
import { showNewsCount } from './watch/newsStatus';
import { NewsWatcher } from './watch/watcher';
import { BranchPosts } from './branch/branchPosts';
import { CommitMessages } from './branch/commitMessages';
import { CurrentPostStatus } from './branch/currentPostStatus';
import { ConversationPanels } from './conversation/panels';
import { EMAIL_CODE_CACHE, keepEmailCodeCache } from './email/load';
import { isPageUri } from './conversation/panel';
import type { UpdateShown } from './commands/updatePost';

/**
 * What the integration tests reach through `extension.exports`. Only in test mode: exports are
 * readable by every other extension, and these objects hold the token.
 */
export interface TestApi {
  readonly session: Session;
  readonly gateway: Gateway;
  readonly store: HelpdeskStore;
  readonly posts: PostsTreeProvider;
  readonly postsView: vscode.TreeView<HelpdeskNode>;
  readonly clients: ClientsTreeProvider;
  readonly clientsView: vscode.TreeView<HelpdeskNode>;
  readonly drafts: DraftStore;
  /** Who the person is in each account, and the posts filed from here. */
  readonly identity: Identity;
  readonly context: vscode.ExtensionContext;
  readonly watcher: NewsWatcher;
  readonly rowDecorations: RowDecorations;
  readonly branchPosts: BranchPosts;
  readonly currentPost: CurrentPostStatus;
  readonly postDocuments: PostDocumentProvider;
  /** The conversation pages, one per post of an account. */
  readonly conversations: ConversationPanels;
  readonly sender: DraftSender;
  /** Modal dialogs throw in test mode: `ui.answerNextQuestion` answers the next one. */
  readonly ui: Notifier;
  /** The commands contributed, each with its handler. */
  readonly commandIds: readonly string[];
  /** What each feature's commands end in, without their prompts, on the window's account. */
  readonly actions: FeatureActions;
  /** What the language model tools do: what a write asks before VS Code calls it, for one. */
  readonly tools: HelpdeskTools;
  /** The MCP door: its endpoint's host and Connect an Agent…. */
  readonly mcp: McpDoor;
}

/** What some features need beyond the services: who the person is, and where posts are shown (documents and pages). */
interface FeatureParts {
  readonly identity: Identity;
  readonly postDocuments: UpdateShown;
}

/** The features that write or sign in: each says its commands and its typed action once. */
function features(services: Services, { identity, postDocuments }: FeatureParts) {
  return {
    signIn: signInFeature(services),
    commentOnTask: commentOnTaskFeature(services),
    createTask: createTaskFeature(services),
    createTaskFromComment: createTaskFromCommentFeature(services),
    linkDeal: linkDealFeature(services),
    reportBug: reportBugFeature(services),
    startWork: startWorkFeature(services, identity),
    updatePost: updatePostFeature(services, identity, postDocuments),
  };
}

type Features = ReturnType<typeof features>;
export type FeatureActions = { readonly [name in keyof Features]: Features[name]['action'] };

function actionsOf(made: Features): FeatureActions {
  return Object.fromEntries(Object.entries(made).map(([name, feature]) => [name, feature.action])) as FeatureActions;
}

/** After the window started: the news watcher, the MCP endpoint and what follows Git's branches begin then (Git's also at the first command). */
const BACKGROUND_START_DELAY_MS = 5000;

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const log = new Log();
  // The e-mail bundle's compiled code, as start.ts keeps the extension's: a window's first e-mail then does not compile its parsers.
  if (context.globalStorageUri.scheme === 'file')
    context.subscriptions.push(keepEmailCodeCache(join(context.globalStorageUri.fsPath, EMAIL_CODE_CACHE)));
  // One update at a time: VS Code's answer to an earlier write must not undo a later one (see serialState.ts).
  const globalState = new SerialState(context.globalState);
  const drafts = new DraftStore(globalState, draftFolder(context.globalStorageUri), presenceFolder(context.globalStorageUri));
  const signOutSignal = new SignOutSignal(context.globalStorageUri);
  const accountList = new AccountList(context.globalStorageUri);
  const session = new Session(context.secrets, log, signOutSignal, accountList, context.workspaceState);
  const rows = rowsFolder(context.globalStorageUri);
  const store = new HelpdeskStore(log, rows);
  const gateway = new Gateway(session, log, globalState, store);
  const ui = new Notifier(log);
  const identity = new Identity(globalState);
  /** This window's account now, for what follows it without waiting (the references, the branch's post, the news). */
  const windowUrl = withSignedInNow(
    gateway,
    ({ url }) => url,
    () => undefined,
  );
  const referenceAccounts = () => ({ window: windowUrl(), all: accountList.known });

  // Git's branches are followed from the background start on (activating the Git extension is no
  // part of a first paint).
  let startGit: (() => void) | undefined;
  const git = new Promise<void>((resolve) => (startGit = resolve)).then(() => gitApi());
  const branchPosts = new BranchPosts(git, {
    state: globalState,
    account: windowUrl,
    onDidChangeAccount: gateway.onDidChange,
  });
  const sender = new DraftSender(
    gateway,
    drafts,
    ui,
    log,
    async (draft, post, account) => {
      await noteOwnPost(identity, log, account, post);
      if (draft.todo) await writeTodoReference(ui, account, draft.todo, post, referenceAccounts());
    },
    new FiledIntents(filedFolder(context.globalStorageUri)),
  );
  const services: Services = { session, gateway, drafts, sender, ui, log, referenceAccounts, branchPosts, state: globalState };

  const newsFolder = new NewsFolder(context.globalStorageUri);
  const me = (accountUrl: string) => identity.whoIAm(accountUrl);
  const windowAccount = withSignedInNow(
    gateway,
    ({ account }) => account,
    () => undefined,
  );
  const watcher = new NewsWatcher(windowAccount, gateway.onDidChange, me, newsFolder, drafts.window, ui, log);
  const posts = new PostsTreeProvider(store, gateway, identity, watcher);
  const postsView = vscode.window.createTreeView('helpdesk.posts', { treeDataProvider: posts });
  posts.showIn(postsView);
  const clients = new ClientsTreeProvider(store, gateway);
  const clientsView = vscode.window.createTreeView('helpdesk.clients', { treeDataProvider: clients, showCollapseAll: true });
  clients.showIn(clientsView);
  const rowDecorations = new RowDecorations(watcher);
  const postDocuments = new PostDocumentProvider(gateway);
  const conversations = new ConversationPanels({ gateway, store, drafts, sender, ui, log, extensionUri: context.extensionUri });
  /** Where a post is shown: its documents and its page, each told of an update, each asked what it showed. */
  const shownPosts: UpdateShown = {
    showUpdated: (accountUrl, post) => {
      postDocuments.showUpdated(accountUrl, post);
      conversations.showUpdated(accountUrl, post);
    },
    shownIn: (uri) => (isPageUri(uri) ? conversations.shownIn(uri) : postDocuments.shownIn(uri)),
  };

  const made = features(services, { identity, postDocuments: shownPosts });
  /** The person's Refresh: the post updates a refusal stopped are offered again (the next one will tell). */
  const refreshed = ({ account }: SignedIn) =>
    void account.forgetPostUpdatesRefused().catch((error: unknown) => log.error('Could not forget the refused post updates', error));
  /** Open Post: its page, of the account its argument names (a document's or a page's), else of the window's. */
  const openPost = async (arg: unknown, windowUrl: string | undefined) => {
    const post = targetPost(arg);
    if (post) await conversations.open(post.id, post.accountUrl ?? windowUrl);
  };
  /** Open as Text: the post's read-only document, as Open Post opened before the page. */
  const openPostAsText = (arg: unknown, windowUrl: string | undefined) => {
    const post = targetPost(arg);
    return post && postDocuments.open(post.id, post.accountUrl ?? windowUrl);
  };
  // Each takes what VS Code passes: a tree node, a document URI, or nothing (see commands/targets.ts),
  // and, signed in, the window's account (see commands/feature.ts).
  // One for each command of the manifest, no more: tsc checks it (see CommandId).
  const commands: Record<CommandId, Command> = {
    ...made.signIn.commands,
    ...made.commentOnTask.commands,
    ...made.createTask.commands,
    ...made.createTaskFromComment.commands,
    ...made.linkDeal.commands,
    ...made.reportBug.commands,
    ...made.startWork.commands,
    ...made.updatePost.commands,
    'helpdesk.signOut': anyAccount((arg) => session.signOut(typeof arg === 'string' ? arg : undefined)),
    'helpdesk.switchAccount': anyAccount((arg) =>
      typeof arg === 'string' ? switchAccount(session, ui, arg) : showAccountMenu(session, identity),
    ),
    'helpdesk.useAccountForWorkspace': anyAccount(() => useAccountForWorkspace(session, ui)),
    'helpdesk.stopUsingAccountForWorkspace': anyAccount(() => stopUsingAccountForWorkspace(session)),
    'helpdesk.refresh': onlySignedIn((signedIn) => (refreshed(signedIn), signedIn.store.refreshAll())),
    'helpdesk.refreshPosts': onlySignedIn((signedIn) => (refreshed(signedIn), signedIn.store.posts.refresh())),
    'helpdesk.refreshClients': onlySignedIn(({ store }) => store.refreshClients()),
    'helpdesk.loadMore': anyAccount((list, clientId) =>
      list === 'deals' ? store.retryDeals(Number(clientId)) : list === 'clients' ? store.clients.loadMore() : posts.loadMore(),
    ),
    'helpdesk.openPost': {
      signedIn: ({ url }, arg) => openPost(arg, url),
      signedOut: (arg) => openPost(arg, undefined),
    },
    'helpdesk.openPostAsText': {
      signedIn: ({ url }, arg) => openPostAsText(arg, url),
      signedOut: (arg) => openPostAsText(arg, undefined),
    },
    'helpdesk.openInBrowser': {
      signedIn: (signedIn, arg) => openInBrowser(signedIn, session, arg),
      signedOut: (arg) => openInBrowser(undefined, session, arg),
    },
    'helpdesk.copyLink': {
      signedIn: (signedIn, arg) => copyLink(signedIn, session, arg),
      signedOut: (arg) => copyLink(undefined, session, arg),
    },
    'helpdesk.filterPosts': anyAccount(() => filterPosts(posts)),
    'helpdesk.clearFilter': anyAccount(() => posts.setFilter({})),
    'helpdesk.showClientPosts': anyAccount((arg) => showClientPosts(posts, store, arg)),
    'helpdesk.showClosedPosts': anyAccount(() => posts.setShowClosed(true)),
    'helpdesk.hideClosedPosts': anyAccount(() => posts.setShowClosed(false)),
    'helpdesk.showAssignedToMe': anyAccount(() => posts.setScope('assignedToMe')),
    'helpdesk.showFiledByMe': anyAccount(() => posts.setScope('filedByMe')),
    'helpdesk.showEverything': anyAccount(() => posts.setScope('everything')),
    'helpdesk.setWhoIAm': anyAccount((arg) => setWhoIAm(services, identity, arg)),
    'helpdesk.accountMenu': anyAccount(() => showAccountMenu(session, identity)),
    'helpdesk.goToCode': {
      signedIn: (signedIn, arg) => goToCode(services, signedIn, arg),
      signedOut: (arg) => goToCode(services, undefined, arg),
    },
    'helpdesk.sendDraft': anyAccount((arg) => sendDraft(services, targetUri(arg))),
    'helpdesk.discardDraft': anyAccount((arg) => discardDraft(services, targetUri(arg))),
    // The view on the person's work: what the news counts.
    'helpdesk.showNews': anyAccount((arg) => showNews(posts, arg)),
    'helpdesk.showChangedOnly': anyAccount(() => posts.setChangedOnly(true)),
    'helpdesk.showAllPosts': anyAccount(() => posts.setChangedOnly(false)),
    'helpdesk.checkNews': onlySignedIn(() => watcher.pollNow({ takeOver: true })),
    'helpdesk.markNewsSeen': anyAccount(() => markAllNewsSeen(watcher, ui)),
    'helpdesk.markPostSeen': anyAccount((arg) => markPostSeen(watcher, arg, true)),
    'helpdesk.markPostUnseen': anyAccount((arg) => markPostSeen(watcher, arg, false)),
    'helpdesk.connectAgent': anyAccount(() => mcp.connectAgent()),
  };
  /** What VS Code calls: every command through the one door (see commands/feature.ts). */
  const handlers = commandHandlers(gateway, commands);
  const tools: HelpdeskTools = {
    ...postTools(gateway, identity),
    ...writeTools(services),
    ...updatePostTool(services, identity, shownPosts),
  };
  // The same tools for agents outside VS Code (MCP): asked in this window, through an endpoint only this user's agents can open.
  const mcp = registerMcp(context, tools, gateway, ui, log);

  // News, and the post the branch is about, come without a view opened: a few seconds after the
  // window has started (signed in, restored or signing in); Git's branches also at the first command.
  let background: ReturnType<typeof setTimeout> | undefined;
  let backgroundStarted = false;
  const startBackground = () => {
    if (backgroundStarted) return;
    backgroundStarted = true;
    clearTimeout(background);
    startGit?.();
    watcher.start();
    mcp.start();
  };
  const startBackgroundSoon = withSignedInNow(
    gateway,
    () => {
      if (backgroundStarted || background !== undefined) return;
      background = setTimeout(startBackground, BACKGROUND_START_DELAY_MS);
    },
    () => undefined,
  );
  void withSignedIn(gateway, startBackgroundSoon, () => undefined)();

  /** Runs a contributed command; a failure is logged and shown in words, never as a stack trace. */
  const run = async (id: string, args: unknown[]): Promise<unknown> => {
    try {
      // Git's branches, which some commands read; the news and the MCP endpoint keep to their time
      // (a poll's requests and files are no part of the person's command).
      startGit?.();
      const handler = Object.hasOwn(handlers, id) ? handlers[id as CommandId] : undefined;
      if (!handler) throw new Error(vscode.l10n.t('The command {0} has no handler.', id));
      return await handler(args[0], args[1]);
    } catch (error) {
      log.error(`${id} failed`, error);
      ui.failure(error);
      return undefined;
    }
  };

  // Send waits until it is known which account this window is on.
  const unsent = new UnsentDraftsOffer(
    services,
    withSignedIn(
      gateway,
      () => undefined,
      () => undefined,
    ),
  );
  const currentPost = new CurrentPostStatus(branchPosts, gateway, (id) => gateway.peek(id));
  context.subscriptions.push(
    log,
    drafts,
    signOutSignal,
    session,
    // Every sign-out, of any account, here or in another window (whose watcher may have written
    // since): the next sign-in to it starts the news from a silent baseline, and paints no rows
    // until they are read again.
    session.onDidSignOut(
      (accountUrl) => void Promise.all([forgetNews(context.globalStorageUri, accountUrl), forgetRows(rows, accountUrl)]),
    ),
    accountList,
    new AccountStatusBar(session, accountList.onDidChange),
    registerAccountsProvider(session, accountList.onDidChange),
    gateway,
    store,
    registerInCode(
      drafts,
      {
        hovers: postHovers(gateway),
        posts: {
          posts: () => store.posts.state.items,
          accountUrl: windowUrl,
          startLoading: withSignedInNow(
            gateway,
            (signedIn) => void signedIn.store.posts.ensureStarted().catch(() => undefined),
            () => undefined,
          ),
        },
      },
      referenceAccounts,
    ),
    registerTools(tools),
    mcp,
    tellOpenDrafts(drafts),
    posts,
    postsView,
    clients,
    clientsView,
    postDocuments,
    conversations,
    vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, new DraftFileSystem(drafts), { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(POST_SCHEME, postDocuments),
    branchPosts,
    currentPost,
    new CommitMessages(branchPosts),
    unsent,
    newsFolder,
    watcher,
    rowDecorations,
    vscode.window.registerFileDecorationProvider(rowDecorations),
    showNewsCount(watcher, postsView),
    publishPostUpdatesRefused(services),
    autoRefresh(
      withSignedInNow(
        gateway,
        () => true,
        () => false,
      ),
      () => store.refreshStarted(),
    ),
    new vscode.Disposable(() => clearTimeout(background)),
    gateway.onDidChange(startBackgroundSoon),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS.watchIntervalMinutes) && startBackgroundSoon()),
  );
  const contributed = (context.extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands;
  for (const { command } of contributed)
    context.subscriptions.push(vscode.commands.registerCommand(command, (...args: unknown[]) => run(command, args)));
  // Drafts the service never confirmed are offered again as soon as the window opens (and the drafts are read).
  void drafts.ready.then(() => (drafts.all().length > 0 ? unsent.offer() : undefined));
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    session,
    gateway,
    store,
    posts,
    postsView,
    clients,
    clientsView,
    drafts,
    identity,
    context,
    watcher,
    rowDecorations,
    branchPosts,
    currentPost,
    postDocuments,
    conversations,
    sender,
    ui,
    commandIds: Object.keys(handlers),
    actions: actionsOf(made),
    tools,
    mcp,
  };
}

export function deactivate(): void {}

/**
 * A post this extension filed (the answer to its create, or the post found by its marker after a
 * lost answer): its id is kept for Filed by Me, and it tells who the person is while not known.
 */
async function noteOwnPost(identity: Identity, log: Log, account: Account, post: Post): Promise<void> {
  const learned = await identity.noteFiled(account.url, post);
  if (learned) log.info(`Who you are in ${account.url}: user ${learned.id}, learned from the answer to post #${post.id}`);
}

/** Tells the other windows which drafts this one has open in an editor, as tabs open and close. */
function tellOpenDrafts(drafts: DraftStore): vscode.Disposable {
  const tell = () => {
    const open = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [draftIdOf(tab.input.uri)] : [])),
    );
    void drafts.presence.setEditing([...new Set(open.filter((id): id is string => id !== undefined))]);
  };
  tell();
  return vscode.window.tabGroups.onDidChangeTabs(tell);
}
