// Everything behind the views, commands and references: the gateway and its store, the tree
// providers, the post documents and the command handlers (the session comes from activation).
// Built into dist/helpdesk.js, which ./extension.ts loads the first time a view asks for rows,
// a command runs, a post document opens, a reference is hovered or completed, or drafts are
// left from before.
import vscode = require('vscode');
import type { Post } from './api';
import type { AccountNow } from './auth/accountNow';
import type { Session } from './auth/session';
import { showAccountMenu } from './commands/accountMenu';
import { commentOnTaskFeature } from './features/commentOnTask';
import { createTaskFeature } from './features/createTask';
import { createTaskFromCommentFeature, writeTodoReference } from './features/createTaskFromComment';
import type { CommandHandler } from './features/feature';
import { filterPosts } from './commands/filterPosts';
import { goToCode } from './commands/goToCode';
import { linkDealFeature } from './features/linkDeal';
import { copyLink, openInBrowser } from './commands/navigation';
import { reportBugFeature } from './features/reportBug';
import { setWhoIAm } from './commands/setWhoIAm';
import { signInFeature } from './features/signIn';
import { startWorkFeature } from './features/startWork';
import { publishPostUpdatesRefused, updatePostFeature } from './features/updatePost';
import { gitApi } from './code/gitLocation';
import { BranchPosts } from './work/branchPosts';
import { CommitMessages } from './work/commitMessages';
import { CurrentPostStatus } from './work/currentPostStatus';
import { postTools } from './tools/postTools';
import type { HelpdeskTools } from './tools/registerTools';
import { updatePostTool } from './tools/updatePostTool';
import { writeTools } from './tools/writeTools';
import { targetPost, targetUri } from './commands/targets';
import { discardDraft, sendDraft, UnsentDraftsOffer } from './drafts/draftCommands';
import type { DraftStore } from './drafts/drafts';
import { FiledIntents } from './drafts/filedIntents';
import { filedFolder } from './drafts/sharedFolders';
import { DraftSender } from './drafts/sendDraft';
import type { Account } from './account/account';
import { Gateway } from './gateway/gateway';
import { Identity } from './identity/identity';
import { postHovers } from './inCode/postHover';
import type { InCodeSources } from './inCode/register';
import type { ReferenceAccounts } from './inCode/referenceOptions';
import type { Log } from './log';
import type { Services } from './services';
import { NewsFolder } from './watch/newsFiles';
import { stopUsingAccountForWorkspace, switchAccount, useAccountForWorkspace } from './commands/accounts';
import { markAllNewsSeen, markPostSeen, showNews } from './commands/news';
import { showNewsCount } from './watch/newsStatus';
import { NewsWatcher } from './watch/watcher';
import { autoRefresh } from './store/autoRefresh';
import type { HelpdeskStore } from './store/helpdeskStore';
import { Notifier } from './ui/notifier';
import type { CommandId } from './commandIds';
import { ClientsTreeProvider } from './views/clientsTree';
import type { HelpdeskNode } from './views/nodes';
import { PostDocumentProvider } from './views/postDocument';
import { PostsTreeProvider } from './views/postsTree';
import { RowDecorations } from './views/rowDecorations';

/**
 * What the integration tests reach through `extension.exports`. Only in test mode: exports are
 * readable by every other extension, and these objects hold the token.
 */
export interface TestApi {
  readonly session: Session;
  readonly gateway: Gateway;
  readonly store: HelpdeskStore;
  readonly posts: PostsTreeProvider;
  readonly clients: ClientsTreeProvider;
  readonly drafts: DraftStore;
  /** Who the person is in each account, and the posts filed from here. */
  readonly identity: Identity;
  readonly context: vscode.ExtensionContext;
  readonly watcher: NewsWatcher;
  readonly rowDecorations: RowDecorations;
  readonly branchPosts: BranchPosts;
  readonly currentPost: CurrentPostStatus;
  readonly postDocuments: PostDocumentProvider;
  readonly sender: DraftSender;
  /** Modal dialogs throw in test mode: `ui.answerNextQuestion` answers the next one. */
  readonly ui: Notifier;
  /** The commands this module handles. */
  readonly commandIds: readonly string[];
  /** What each feature's commands end in, without their prompts, on the window's account. */
  readonly actions: FeatureActions;
  /** What the language model tools do: what a write asks before VS Code calls it, for one. */
  readonly tools: HelpdeskTools;
}

/** What some features need beyond the services: who the person is, and the post documents. */
interface FeatureParts {
  readonly identity: Identity;
  readonly postDocuments: PostDocumentProvider;
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

/** What activation made, and hands over. */
export interface Shell {
  readonly context: vscode.ExtensionContext;
  readonly drafts: DraftStore;
  readonly log: Log;
  /** Restoring since activation, and in the status bar. */
  readonly session: Session;
  /** The session's answer to "which account now, or none" (see accountNow.ts). */
  readonly accountNow: AccountNow;
  readonly postsView: vscode.TreeView<HelpdeskNode>;
  readonly clientsView: vscode.TreeView<HelpdeskNode>;
  /** The accounts post references name (see registerInCode). */
  readonly referenceAccounts: () => ReferenceAccounts;
}

/** What activation's stand-ins pass their calls on to. */
export interface Helpdesk {
  readonly posts: PostsTreeProvider;
  readonly clients: ClientsTreeProvider;
  readonly postDocuments: PostDocumentProvider;
  readonly inCode: InCodeSources;
  /** What the language model tools do (see tools/registerTools.ts). */
  readonly tools: HelpdeskTools;
  /** Runs a contributed command; a failure is logged and shown in words, never as a stack trace. */
  run(id: string, args: unknown[]): Promise<unknown>;
  readonly testApi: TestApi;
}

export function start({ context, drafts, log, session, accountNow, postsView, clientsView, referenceAccounts }: Shell): Helpdesk {
  const ui = new Notifier(log);
  const gateway = new Gateway(session, log, context.globalState);
  const { store } = gateway;
  const identity = new Identity(context.globalState);
  const sender = new DraftSender(gateway, drafts, ui, log, async (draft, post, account) => {
    await noteOwnPost(identity, log, account, post);
    if (draft.todo) await writeTodoReference(ui, account, draft.todo, post, referenceAccounts());
  }, new FiledIntents(filedFolder(context.globalStorageUri)));
  const branchPosts = new BranchPosts(gitApi(), { state: context.globalState, account: () => accountNow.current?.url, onDidChangeAccount: accountNow.onDidChange });
  const services: Services = { session, accountNow, gateway, drafts, sender, ui, log, referenceAccounts, branchPosts, state: context.globalState };
  const newsFolder = new NewsFolder(context.globalStorageUri);
  const me = (accountUrl: string) => {
    const filed = identity.filedByMe(accountUrl);
    return { id: identity.me(accountUrl)?.id, posts: new Set([...filed, ...identity.commentedOnByMe(accountUrl)]), filed, comments: identity.commentsByMe(accountUrl) };
  };
  const watcher = new NewsWatcher(() => gateway.account, accountNow.onDidChange, me, newsFolder, drafts.window, ui, log);
  const posts = new PostsTreeProvider(store, accountNow, postsView, identity, watcher);
  const rowDecorations = new RowDecorations(watcher);
  const clients = new ClientsTreeProvider(store, accountNow, clientsView);
  const postDocuments = new PostDocumentProvider(accountNow, gateway);
  const signedIn = <T>(then: () => T) => (gateway.account ? then() : undefined);

  const made = features(services, { identity, postDocuments });
  /** The person's Refresh: the post updates a refusal stopped are offered again (the next one will tell). */
  const refreshed = () => void gateway.account?.forgetPostUpdatesRefused().catch((error: unknown) => log.error('Could not forget the refused post updates', error));
  // Each takes what VS Code passes: a tree node, a document URI, or nothing (see commands/targets.ts).
  // One for each command of the manifest, no more: tsc checks it (see CommandId).
  const handlers: Record<CommandId, CommandHandler> = {
    ...made.signIn.commands,
    ...made.commentOnTask.commands,
    ...made.createTask.commands,
    ...made.createTaskFromComment.commands,
    ...made.linkDeal.commands,
    ...made.reportBug.commands,
    ...made.startWork.commands,
    ...made.updatePost.commands,
    'helpdesk.signOut': (arg) => session.signOut(typeof arg === 'string' ? arg : undefined),
    'helpdesk.switchAccount': (arg) => (typeof arg === 'string' ? switchAccount(session, ui, arg) : showAccountMenu(session, identity)),
    'helpdesk.useAccountForWorkspace': () => useAccountForWorkspace(session, ui),
    'helpdesk.stopUsingAccountForWorkspace': () => stopUsingAccountForWorkspace(session),
    'helpdesk.refresh': () => signedIn(() => (refreshed(), store.refreshAll())),
    'helpdesk.refreshPosts': () => signedIn(() => (refreshed(), store.posts.refresh())),
    'helpdesk.refreshClients': () => signedIn(() => store.refreshClients()),
    'helpdesk.loadMore': (list, clientId) => (list === 'deals' ? store.retryDeals(Number(clientId)) : list === 'clients' ? store.clients.loadMore() : posts.loadMore()),
    'helpdesk.openPost': (arg) => {
      const post = targetPost(arg);
      return post && postDocuments.open(post.id, post.accountUrl);
    },
    'helpdesk.openInBrowser': (arg) => openInBrowser(gateway, session, arg),
    'helpdesk.copyLink': (arg) => copyLink(gateway, session, arg),
    'helpdesk.filterPosts': () => filterPosts(posts),
    'helpdesk.clearFilter': () => posts.setFilter({}),
    'helpdesk.showClosedPosts': () => posts.setShowClosed(true),
    'helpdesk.hideClosedPosts': () => posts.setShowClosed(false),
    'helpdesk.showAssignedToMe': () => posts.setScope('assignedToMe'),
    'helpdesk.showFiledByMe': () => posts.setScope('filedByMe'),
    'helpdesk.showEverything': () => posts.setScope('everything'),
    'helpdesk.setWhoIAm': (arg) => setWhoIAm(services, identity, arg),
    'helpdesk.accountMenu': () => showAccountMenu(session, identity),
    'helpdesk.goToCode': (arg) => goToCode(services, arg),
    'helpdesk.sendDraft': (arg) => sendDraft(services, targetUri(arg)),
    'helpdesk.discardDraft': (arg) => discardDraft(services, targetUri(arg)),
    // The view on the person's work: what the news counts.
    'helpdesk.showNews': (arg) => showNews(posts, arg),
    'helpdesk.showChangedOnly': () => posts.setChangedOnly(true),
    'helpdesk.showAllPosts': () => posts.setChangedOnly(false),
    'helpdesk.checkNews': () => signedIn(() => watcher.pollNow({ takeOver: true })),
    'helpdesk.markNewsSeen': () => markAllNewsSeen(watcher, ui),
    'helpdesk.markPostSeen': (arg) => markPostSeen(watcher, arg, true),
    'helpdesk.markPostUnseen': (arg) => markPostSeen(watcher, arg, false),
  };

  // Drafts the service never confirmed are offered again.
  const unsent = new UnsentDraftsOffer(services, () => accountNow.now());
  const currentPost = new CurrentPostStatus(branchPosts, accountNow, (id) => gateway.peek(id));
  context.subscriptions.push(branchPosts, currentPost, new CommitMessages(branchPosts), gateway, posts, clients, postDocuments, unsent, newsFolder, watcher, rowDecorations, vscode.window.registerFileDecorationProvider(rowDecorations), showNewsCount(watcher, postsView), publishPostUpdatesRefused(services), autoRefresh(() => gateway.account !== undefined, () => store.refreshAll()));
  void unsent.offer();

  const tools: HelpdeskTools = { ...postTools(gateway, identity, () => accountNow.now()), ...writeTools(services), ...updatePostTool(services, identity, postDocuments) };
  return {
    posts,
    clients,
    postDocuments,
    tools,
    inCode: {
      hovers: postHovers(gateway, accountNow),
      posts: {
        posts: () => store.posts.state.items,
        accountUrl: () => gateway.account?.url,
        startLoading: () => void (gateway.account && store.posts.ensureStarted().catch(() => undefined)),
      },
    },
    async run(id, args) {
      try {
        const handler = Object.hasOwn(handlers, id) ? handlers[id as CommandId] : undefined;
        if (!handler) throw new Error(vscode.l10n.t('The command {0} has no handler.', id));
        await accountNow.now();
        return await handler(args[0], args[1]);
      } catch (error) {
        log.error(`${id} failed`, error);
        ui.failure(error);
        return undefined;
      }
    },
    testApi: { session, gateway, store, posts, clients, drafts, identity, context, watcher, rowDecorations, branchPosts, currentPost, postDocuments, sender, ui, commandIds: Object.keys(handlers), actions: actionsOf(made), tools },
  };
}

/**
 * A post this extension filed (the answer to its create, or the post found by its marker after a
 * lost answer): its id is kept for Filed by Me, and it tells who the person is while not known.
 */
async function noteOwnPost(identity: Identity, log: Log, account: Account, post: Post): Promise<void> {
  const learned = await identity.noteFiled(account.url, post);
  if (learned) log.info(`Who you are in ${account.url}: user ${learned.id}, learned from the answer to post #${post.id}`);
}
