// Close Post, Reopen Post, Assign to Me, Assign…, Set Status…: the commands' prompts, and the
// typed action they end in (updatePostTo). Before writing, the post is read again: a change
// someone else made since the person saw it is shown, and nothing is written without their yes.
// After writing, the record the service answered is what every row, hover and document shows.
import vscode = require('vscode');
import { isApiError, type Post, type PostChanges } from '../api';
import { PostUpdatesRefusedError, type Account } from '../api/account';
import { changedFields, changedSince, differences, isEmpty, type PostDifference } from '../api/postChanges';
import { accountOfPost, pickPost } from './prompts';
import { targetPost } from './targets';
import type { Identity } from '../accounts/identity';
import { nickSeen, usersSeen } from '../accounts/usersSeen';
import { withSignedIn, withSignedInNow, type SignedIn, type WindowAccount } from '../accounts/signedIn';
import type { Services } from '../services';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { labelText, pickText } from '../text/serverText';
import { personText, postTitle, stateText, statusName, userText } from '../text/postFacts';
import { postIcon } from '../views/nodes';
import { notSignedIn, type Command, type Feature } from './feature';

const { l10n } = vscode;

/** What the person asked for. */
export type PostIntent = 'close' | 'reopen' | 'assignToMe' | 'assign' | 'setStatus';

/** How an update ended. */
export type UpdateOutcome =
  | { readonly updated: Post }
  /** The post holds what was asked already (someone else did it): nothing was sent. */
  | { readonly unchanged: Post }
  /** Someone changed the post since the person saw it, and they said no. */
  | { readonly declined: Post }
  /** The service does not update posts (remembered: see `Account.postUpdatesRefused`). */
  | { readonly refused: PostUpdatesRefusedError };

/** Asked when the post changed since the person saw it: true to write anyway. */
export type ConfirmChanged = (seen: Post, now: Post, changed: readonly PostDifference[]) => Promise<boolean>;

/** Where the answered record goes besides the account's own change (rows and hovers follow that). */
export interface UpdateShown {
  /** Open documents of the post show the record (see PostDocumentProvider.showUpdated). */
  showUpdated(accountUrl: string, post: Post): void;
  /** The post a document showed last: what the person saw there. */
  shownIn(uri: vscode.Uri): Post | undefined;
}

export function updatePostFeature(services: Services, identity: Identity, documents: UpdateShown) {
  // Signed out, a post of another account signed in to (a hover's, a document's) can still be updated.
  const run = (intent: PostIntent): Command => ({
    signedIn: (signedIn, arg, more) => updatePostCommand(services, identity, documents, intent, signedIn, arg, more),
    signedOut: (arg, more) => updatePostCommand(services, identity, documents, intent, undefined, arg, more),
  });
  return {
    commands: {
      'helpdesk.closePost': run('close'),
      'helpdesk.reopenPost': run('reopen'),
      'helpdesk.assignToMe': run('assignToMe'),
      'helpdesk.assignPost': run('assign'),
      'helpdesk.setPostStatus': run('setStatus'),
    },
    /** The update of post `postId` as the person saw it (`seen`, default: as read now), without the boxes; a change since is answered by `confirm` (default: no). */
    action: withSignedIn(
      services.gateway,
      async (
        { account },
        { postId, seen, changes, confirm }: { postId: number; seen?: Post; changes: PostChanges; confirm?: ConfirmChanged },
      ) => {
        const outcome = await updatePostTo(
          account,
          identity,
          seen ?? (await account.post(postId)),
          changes,
          confirm ?? (() => Promise.resolve(false)),
        );
        if ('updated' in outcome) documents.showUpdated(account.url, outcome.updated);
        return outcome;
      },
      notSignedIn,
    ),
  } satisfies Feature<unknown>;
}

/**
 * The update: the post read again; where someone changed it since `seen`, `confirm` decides; then
 * only the fields that differ from it now are sent. Another error than a refusal is thrown.
 */
/** Where the person's own updates are remembered, so that the post as they left it is no news to them (see Identity). */
export type OwnUpdates = Pick<Identity, 'noteUpdated'>;

export async function updatePostTo(
  account: Account,
  ownUpdates: OwnUpdates,
  seen: Post,
  wanted: PostChanges,
  confirm: ConfirmChanged,
  signal?: AbortSignal,
): Promise<UpdateOutcome> {
  const now = await account.post(seen.id, signal);
  // The person's own last update of it, where nothing came after it, is no change of someone else's.
  const own = account.ownUpdate(seen.id);
  const base = own && !changedSince(own, now) ? own : seen;
  if (changedSince(base, now) && !(await confirm(base, now, differences(base, now)))) return { declined: now };
  const changes = changedFields(now, wanted);
  if (isEmpty(changes)) return { unchanged: now };
  try {
    const updated = await account.updatePost(seen.id, changes, signal);
    await ownUpdates.noteUpdated(account.url, updated);
    return { updated };
  } catch (error) {
    if (error instanceof PostUpdatesRefusedError) return { refused: error };
    throw error;
  }
}

/**
 * A command on a post's row, its document, a hover's link (the post's id, and the address of the
 * account the hover showed it from: the window may have switched accounts since), or one picked
 * from a list.
 */
async function updatePostCommand(
  services: Services,
  identity: Identity,
  documents: UpdateShown,
  intent: PostIntent,
  signedIn: SignedIn | undefined,
  arg: unknown,
  more: unknown,
): Promise<UpdateOutcome | undefined> {
  const target = targetPost(arg);
  const hoveredIn = typeof arg === 'number' && typeof more === 'string' ? more : undefined;
  const account = await accountOfPost(services, signedIn, target?.accountUrl ?? hoveredIn);
  if (!account) return undefined;
  if (account.postUpdatesRefused) {
    void refusedWords(services, account, target?.id);
    return undefined;
  }
  const seen = target
    ? await seenPost(services, documents, account, target, arg)
    : intent === 'reopen'
      ? await pickClosedPost(services)
      : await pickPost(services.gateway, commandTitle(intent));
  if (!seen) return undefined;
  const wanted = await choose(services, identity, account, intent, seen);
  if (!wanted) return undefined;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Updating #{0}…', seen.id) },
    () =>
      updatePostTo(account, identity, seen, wanted, (before, now, changed) =>
        confirmChanged(services, intent, before, now, changed, namesOf(services, account)),
      ),
  );
  const name = `#${seen.id}`;
  if ('refused' in outcome) void refusedWords(services, account, seen.id);
  else if ('unchanged' in outcome)
    void services.ui.info(
      l10n.t('{0} is {1} already: nothing was changed.', name, doneText(wanted, outcome.unchanged, namesOf(services, account))),
    );
  else if ('updated' in outcome) {
    documents.showUpdated(account.url, outcome.updated);
    vscode.window.setStatusBarMessage(
      `$(check) ${l10n.t('{0} is {1}.', name, doneText(wanted, outcome.updated, namesOf(services, account)))}`,
      5000,
    );
  }
  return outcome;
}

/**
 * The post as the person saw it where they acted: its row, its document, the hover (the peek it
 * showed); read now where none of them holds it.
 */
async function seenPost(
  services: Services,
  documents: UpdateShown,
  account: Account,
  target: NonNullable<ReturnType<typeof targetPost>>,
  arg: unknown,
): Promise<Post | undefined> {
  if (target.node) return target.node.post;
  const shown = arg instanceof vscode.Uri ? documents.shownIn(arg) : undefined;
  if (shown?.id === target.id) return shown;
  if (typeof arg === 'number' && windowStore(services.gateway, account) !== undefined) {
    const peek = await services.gateway.peek(target.id);
    if (peek && 'post' in peek) return peek.post;
  }
  return account.post(target.id);
}

/** Reopen Post from the palette: the closed posts loaded (Reopen is no use on an open one). */
async function pickClosedPost({ gateway }: Pick<Services, 'gateway'>): Promise<Post | undefined> {
  const store = withSignedInNow(
    gateway,
    (now) => now.store,
    () => undefined,
  )();
  if (!store) return undefined;
  await store.posts.ensureStarted();
  const items = store.posts.state.items
    .filter((post) => post.closed === true && typeof post.post_id !== 'number')
    .map((post) => ({ label: `$(${postIcon(post).id}) ${pickText(postTitle(post))}`, description: `#${post.id}`, post }));
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Reopen Post'),
    placeHolder: l10n.t('Type to search the closed posts loaded by title or #id'),
    matchOnDescription: true,
  });
  return picked?.post;
}

/** The changes the person asks for; undefined when they cancel, or cannot (said why). */
async function choose(
  services: Services,
  identity: Identity,
  account: Account,
  intent: PostIntent,
  seen: Post,
): Promise<PostChanges | undefined> {
  if (intent === 'close') return { closed: true };
  if (intent === 'reopen') return { closed: false };
  if (intent === 'assignToMe') {
    const me = identity.me(account.url);
    if (me) return { responsible_id: me.id };
    const set = l10n.t('Set Who I Am…');
    const choice = await services.ui.info(
      l10n.t(
        'Who you are in {0} is not known yet: set it with "Helpdesk: Set Who I Am…" (or file a post from here, and it is learned).',
        account.url,
      ),
      set,
    );
    if (choice === set) await vscode.commands.executeCommand('helpdesk.setWhoIAm');
    return undefined;
  }
  if (intent === 'assign') {
    const users = usersSeen(windowStore(services.gateway, account)?.posts.state.items ?? []);
    const picked = await vscode.window.showQuickPick(assigneeItems(users, identity.me(account.url)?.id, seen), {
      title: l10n.t('Assign #{0}: {1}', seen.id, pickText(postTitle(seen), 80)),
      placeHolder: l10n.t('The users the loaded posts name'),
      matchOnDescription: true,
    });
    return picked && { responsible_id: picked.id };
  }
  const statuses = await postStatuses(services, account);
  if (statuses.size === 0) {
    void services.ui.info(l10n.t('This helpdesk has no post statuses to choose from.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(statusItems(statuses, seen), {
    title: l10n.t('Set the Status of #{0}: {1}', seen.id, pickText(postTitle(seen), 80)),
  });
  return picked && { status_id: picked.id };
}

type IdItem = vscode.QuickPickItem & { id: number | null };

/** Assign…: the users the loaded posts name (the person marked), and no one where someone is assigned now. */
export function assigneeItems(users: ReturnType<typeof usersSeen>, me: number | undefined, post: Post): IdItem[] {
  const current = typeof post.responsible_id === 'number' ? post.responsible_id : null;
  const items: IdItem[] = users.map((user) => ({
    label: `$(account) ${pickText(user.nick, 60) || l10n.t('User {0}', user.id)}`,
    description: [userText(user.id), user.id === me ? l10n.t('you') : undefined, user.id === current ? l10n.t('assigned now') : undefined]
      .filter(Boolean)
      .join(' · '),
    id: user.id,
  }));
  if (me !== undefined && !users.some((user) => user.id === me))
    items.unshift({ label: `$(account) ${l10n.t('User {0}', me)}`, description: l10n.t('you'), id: me });
  if (current !== null) items.push({ label: `$(circle-slash) ${l10n.t('No One')}`, description: l10n.t('unassign'), id: null });
  return items;
}

/** Set Status…: the account's post statuses (the current one marked), and none where it has one. */
export function statusItems(statuses: ReadonlyMap<number, string>, post: Post): IdItem[] {
  const current = typeof post.status_id === 'number' ? post.status_id : null;
  const items: IdItem[] = [...statuses].map(([id, name]) => ({
    label: pickText(name, 80) || l10n.t('status #{0}', id),
    description: id === current ? l10n.t('now') : undefined,
    id,
  }));
  if (current !== null) items.push({ label: `$(circle-slash) ${l10n.t('No Status')}`, id: null });
  return items;
}

/** The post statuses: the store's for the window's account (read beside the rows), else asked. */
async function postStatuses(services: Services, account: Account): Promise<ReadonlyMap<number, string>> {
  const known = windowStore(services.gateway, account)?.statuses;
  if (known) return known;
  try {
    return await account.statuses();
  } catch (error) {
    // A service without statuses (404) has none to choose from, as the store takes it.
    if (isApiError(error, 'notFound')) return new Map();
    throw error;
  }
}

/** What names the account's statuses and users: the window's store while `account` is the window's (else: by number). */
interface Names {
  readonly statuses: ReadonlyMap<number, string> | undefined;
  /** The loaded posts, which name the users who wrote them. */
  readonly posts: readonly Post[] | undefined;
}

function namesOf(services: Services, account: Account): Names {
  const store = windowStore(services.gateway, account);
  return { statuses: store?.statuses, posts: store?.posts.state.items };
}

/** The window's store while `account` is the window's now (another account's posts name statuses and users by number). */
function windowStore(window: Pick<WindowAccount, 'current'>, account: Account): HelpdeskStore | undefined {
  return withSignedInNow(
    window,
    ({ store }) => store.showing(account),
    () => undefined,
  )();
}

/** Modal: what someone changed since the person saw the post, and whether to go ahead. */
async function confirmChanged(
  services: Services,
  intent: PostIntent,
  seen: Post,
  now: Post,
  changed: readonly PostDifference[],
  names: Names,
): Promise<boolean> {
  const facts = changed.length
    ? changed.map((difference) => differenceText(difference, names.statuses, names.posts)).join('\n')
    : l10n.t('Its title, state, status and assignee are as you saw them; something else changed (its text or comments).');
  const goAhead = l10n.t('{0} Anyway', commandTitle(intent).replace(/…$/, ''));
  const answer = await services.ui.warn(
    l10n.t('#{0} "{1}" was changed since you saw it.', seen.id, labelText(postTitle(now), 80)),
    { modal: true, detail: facts },
    goAhead,
  );
  return answer === goAhead;
}

export function differenceText(
  difference: PostDifference,
  statuses: ReadonlyMap<number, string> | undefined,
  posts?: readonly Post[],
): string {
  const status = (id: number | null) => (id === null ? l10n.t('none') : statusName(id, statuses));
  const user = (id: number | null) => (id === null ? l10n.t('no one') : personText(id, posts));
  const state = (closed: boolean) => stateText({ closed });
  if (difference.field === 'title') return l10n.t('Title: "{0}" → "{1}"', labelText(difference.before, 80), labelText(difference.now, 80));
  if (difference.field === 'closed') return l10n.t('State: {0} → {1}', state(difference.before), state(difference.now));
  if (difference.field === 'status') return l10n.t('Status: {0} → {1}', status(difference.before), status(difference.now));
  return l10n.t('Assigned to: {0} → {1}', user(difference.before), user(difference.now));
}

/** What the post is now, in the words of what was asked: "closed", "assigned to anna (user 3)", "In progress". */
function doneText(wanted: PostChanges, post: Post, { statuses, posts }: Names): string {
  if (wanted.closed !== undefined) return stateText(post);
  if (wanted.responsible_id !== undefined) return assignedText(post.responsible_id, posts);
  const id = post.status_id;
  return typeof id === 'number' ? l10n.t('in status "{0}"', statusName(id, statuses)) : l10n.t('without a status');
}

/** "assigned to anna (user 3)" where the loaded posts name them (Polish: "przypisane do użytkownika 3 (anna)"), else "assigned to user 3". */
function assignedText(id: unknown, posts: readonly Post[] | undefined): string {
  if (typeof id !== 'number') return l10n.t('assigned to no one');
  const nick = posts && labelText(nickSeen(posts, id), 40);
  return nick ? l10n.t('assigned to {0} (user {1})', nick, id) : l10n.t('assigned to user {0}', id);
}

function commandTitle(intent: PostIntent): string {
  if (intent === 'close') return l10n.t('Close Post');
  if (intent === 'reopen') return l10n.t('Reopen Post');
  if (intent === 'assignToMe') return l10n.t('Assign to Me');
  if (intent === 'assign') return l10n.t('Assign…');
  return l10n.t('Set Status…');
}

/** The service does not update posts: said in words, with the post's page (or the helpdesk's) to do it there. */
async function refusedWords(services: Pick<Services, 'ui'>, account: Account, postId: number | undefined): Promise<void> {
  const open = l10n.t('Open in Browser');
  const choice = await services.ui.warn(
    l10n.t(
      'This helpdesk does not let posts be closed, reopened, assigned or given a status through its API. Do it on its web page; these actions are not offered again until you refresh the posts.',
    ),
    open,
  );
  if (choice !== open) return;
  const link = postId === undefined ? account.url : account.link('posts', postId);
  await vscode.env.openExternal(vscode.Uri.parse(link));
}

/**
 * The context key `helpdesk.postUpdatesRefused` (the menus' `when`): whether the window's account
 * refuses updating posts, followed as the account changes and as it finds out.
 */
export function publishPostUpdatesRefused(services: Pick<Services, 'gateway'>): vscode.Disposable {
  const { gateway } = services;
  let listening: { dispose(): void } | undefined;
  let publishedFor: Account | undefined;
  const publish = (refused: boolean) => void vscode.commands.executeCommand('setContext', 'helpdesk.postUpdatesRefused', refused);
  const publishNow = withSignedInNow(
    gateway,
    ({ account }) => publish(account.postUpdatesRefused === true),
    () => publish(false),
  );
  const follow = (account: Account | undefined) => {
    if (account !== publishedFor) {
      listening?.dispose();
      publishedFor = account;
      listening = account?.onDidChange((change) => change.kind === 'postUpdates' && publishNow());
    }
    publishNow();
  };
  const followNow = withSignedInNow(
    gateway,
    ({ account }) => follow(account),
    () => follow(undefined),
  );
  const followRestored = withSignedIn(
    gateway,
    ({ account }) => follow(account),
    () => follow(undefined),
  );
  followNow();
  const subscription = gateway.onDidChange(() => void followRestored());
  return new vscode.Disposable(() => {
    subscription.dispose();
    listening?.dispose();
  });
}
