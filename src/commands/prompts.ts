import vscode = require('vscode');
import { isApiError, isComment, type Client, type Post } from '../api';
import type { Account } from '../api/account';
import type { Services } from '../services';
import { withSignedInNow, type SignedIn, type WindowAccount } from '../accounts/signedIn';
import { matchingClients, matchingPosts } from '../search/matching';
import { referenceText } from '../code/postReferences';
import { readSettings } from '../settings';
import { postIdOf } from '../search/postIdOf';
import { QUERY_CHARS, QUERY_WORDS, searchCriteria } from '../search/searchInput';
import { errorText } from '../ui/errorText';
import { pickText } from '../text/serverText';
import { postTitle, stateText } from '../text/postFacts';
import { postIcon } from '../views/nodes';

import { accountOf } from '../views/postUri';
import { searchPick, type PickItem } from './searchPick';
import { plural } from '../text/plural';
import { numberText } from '../text/intl';
import { charactersText } from '../text/counts';

const { l10n } = vscode;

export type TextAnswer = { action: 'accept' | 'editor'; value: string } | undefined;

/**
 * An input box whose button (or its absence of an answer) moves the text to a full editor:
 * Enter accepts, the button says "write it in the editor instead", Escape cancels.
 */
export function askText(options: {
  title: string;
  prompt: string;
  value?: string;
  placeholder?: string;
  editorTooltip: string;
  validate?: (value: string) => string | undefined;
}): Promise<TextAnswer> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    const editorButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: options.editorTooltip };
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeholder;
    box.value = options.value ?? '';
    box.ignoreFocusOut = true;
    box.buttons = [editorButton];
    // Answered at Enter or the button, as the box is asked to hide: the window tells it gone
    // only after its next frames, and the person's next step (the send) need not wait for that.
    const answer = (given: TextAnswer) => {
      resolve(given);
      box.hide();
    };
    box.onDidChangeValue((value) => (box.validationMessage = options.validate?.(value)));
    box.onDidTriggerButton(() => answer({ action: 'editor', value: box.value }));
    box.onDidAccept(() => {
      const problem = options.validate?.(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      answer({ action: 'accept', value: box.value });
    });
    box.onDidHide(() => {
      resolve(undefined); // Escape, or a box hidden otherwise; nothing after an answer
      box.dispose();
    });
    box.show();
  });
}

/**
 * A pick of the helpdesk's open posts that searches beyond the rows loaded (see searchPick): by the
 * words of their title or content, and by number, reference or address, read directly. `first`,
 * the post the current branch is about, heads the list.
 */
export function pickPost(window: Pick<WindowAccount, 'current'>, title: string, first?: Post): Promise<Post | undefined> {
  return withSignedInNow(
    window,
    (signedIn) => pickPostOf(window, signedIn, title, first),
    () => Promise.resolve(undefined),
  )();
}

async function pickPostOf(
  window: Pick<WindowAccount, 'current'>,
  signedIn: SignedIn,
  title: string,
  first?: Post,
): Promise<Post | undefined> {
  const { store, account } = signedIn;
  const item = (post: Post, description = `#${post.id}${post.closed === true ? ` · ${stateText(post)}` : ''}`): PickItem<Post> => ({
    label: `$(${postIcon(post).id}) ${pickText(postTitle(post))}`,
    description,
    value: post,
    key: post.id,
  });
  const { referencePrefix } = readSettings();
  const idOf = (text: string) => postIdOf(text, account.url, referencePrefix);
  const picked = await searchPick<Post, Post>({
    title,
    placeholder: l10n.t("Type to search open posts by title, or a post's number"),
    list: store.posts,
    fixed: first ? [item(first, l10n.t('#{0} · the current branch', first.id))] : [],
    words: searchWords,
    matching: (posts, words, pause) => matchingPosts(posts, { words, state: 'open' }, pause),
    item: (post) => item(post),
    direct: {
      names: (text) => idOf(text) !== undefined,
      loaded: (text) => {
        const id = idOf(text);
        const post = id === undefined ? undefined : store.posts.find(id);
        return post && !isComment(post) ? item(post) : undefined;
      },
      fetch: (text, signal) => {
        const id = idOf(text);
        if (id === undefined) return undefined;
        const reference = referenceText(id, referencePrefix);
        return account.post(id, signal).then(
          (post) => (isComment(post) ? { label: `$(comment) ${l10n.t('{0} is a comment, not a post', reference)}` } : item(post)),
          (error: unknown) =>
            signal.aborted
              ? undefined
              : {
                  label: isApiError(error, 'notFound')
                    ? `$(info) ${l10n.t('The helpdesk has no post {0}', reference)}`
                    : `$(warning) ${l10n.t('Post {0} could not be read: {1}', reference, pickText(errorText(error), 200))}`,
                },
        );
      },
    },
    searched: (count, all) =>
      all
        ? plural(count, {
            one: l10n.t({ message: 'Searched the {0} post', args: [numberText(count)], comment: 'plural: one' }),
            few: l10n.t({ message: 'Searched all {0} posts', args: [numberText(count)], comment: 'plural: few' }),
            many: l10n.t({ message: 'Searched all {0} posts', args: [numberText(count)], comment: 'plural: many' }),
            other: l10n.t({ message: 'Searched all {0} posts', args: [numberText(count)], comment: 'plural: other' }),
          })
        : plural(count, {
            one: l10n.t({ message: 'Searched the {0} newest post', args: [numberText(count)], comment: 'plural: one' }),
            few: l10n.t({ message: 'Searched the {0} newest posts', args: [numberText(count)], comment: 'plural: few' }),
            many: l10n.t({ message: 'Searched the {0} newest posts', args: [numberText(count)], comment: 'plural: many' }),
            other: l10n.t({ message: 'Searched the {0} newest posts', args: [numberText(count)], comment: 'plural: other' }),
          }),
    web: account && `${account.url}/app`,
  });
  return samePick(window, signedIn, picked);
}

/** How long a list of posts waits for the branch's post before it opens without it. */
const BRANCH_POST_WAIT_MS = 1000;

/**
 * The post the current branch is about (see BranchPosts), to put first in a list of posts: as
 * loaded, else as the service has it if it answers within a second; undefined for none, a
 * comment, or one it cannot give.
 */
export async function branchPost({ branchPosts, gateway }: Pick<Services, 'branchPosts' | 'gateway'>): Promise<Post | undefined> {
  const working = branchPosts.current;
  if (!working) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loaded = withSignedInNow(
    gateway,
    ({ store }) => store.posts.find(working.postId),
    () => undefined,
  )();
  const post =
    loaded ??
    (await Promise.race([
      gateway.peek(working.postId)?.then(
        (peek) => ('post' in peek ? peek.post : undefined),
        () => undefined,
      ),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BRANCH_POST_WAIT_MS))),
    ]));
  clearTimeout(timer);
  return post && !isComment(post) ? post : undefined;
}

/** A pick of the clients that searches beyond the rows loaded (see searchPick), by name, city and e-mail, or `#id`. With `none`, a first item for "no client". */
export function pickClient(window: Pick<WindowAccount, 'current'>, title: string, none?: string): Promise<Client | null | undefined> {
  return withSignedInNow(
    window,
    (signedIn) => pickClientOf(window, signedIn, title, none),
    () => Promise.resolve(undefined),
  )();
}

async function pickClientOf(
  window: Pick<WindowAccount, 'current'>,
  signedIn: SignedIn,
  title: string,
  none?: string,
): Promise<Client | null | undefined> {
  const { store, account } = signedIn;
  const item = (client: Client): PickItem<Client | null> => ({
    label: pickText(client.name) || `#${client.id}`,
    description: pickText([client.city, client.email].filter(Boolean).join(' · '), 80),
    value: client,
    key: client.id,
  });
  const picked = await searchPick<Client, Client | null>({
    title,
    placeholder: l10n.t('Type to search clients'),
    list: store.clients,
    fixed: none ? [{ label: `$(circle-slash) ${none}`, value: null }] : [],
    words: searchWords,
    matching: matchingClients,
    item,
    direct: {
      names: () => false,
      loaded: (text) => {
        const id = /^#?([1-9][0-9]{0,14})$/.exec(text.trim())?.[1];
        const client = id === undefined ? undefined : store.clients.find(Number(id));
        return client && item(client);
      },
      fetch: () => undefined,
    },
    searched: (count, all) =>
      all
        ? plural(count, {
            one: l10n.t({ message: 'Searched the {0} client', args: [numberText(count)], comment: 'plural: one' }),
            few: l10n.t({ message: 'Searched all {0} clients', args: [numberText(count)], comment: 'plural: few' }),
            many: l10n.t({ message: 'Searched all {0} clients', args: [numberText(count)], comment: 'plural: many' }),
            other: l10n.t({ message: 'Searched all {0} clients', args: [numberText(count)], comment: 'plural: other' }),
          })
        : plural(count, {
            one: l10n.t({ message: 'Searched the first {0} client by name', args: [numberText(count)], comment: 'plural: one' }),
            few: l10n.t({ message: 'Searched the first {0} clients by name', args: [numberText(count)], comment: 'plural: few' }),
            many: l10n.t({ message: 'Searched the first {0} clients by name', args: [numberText(count)], comment: 'plural: many' }),
            other: l10n.t({ message: 'Searched the first {0} clients by name', args: [numberText(count)], comment: 'plural: other' }),
          }),
    web: account && `${account.url}/app`,
  });
  return samePick(window, signedIn, picked);
}

/** What was picked, while the window's account is the one it was picked from (it may change while the pick is open). */
function samePick<R>(window: Pick<WindowAccount, 'current'>, signedIn: SignedIn, picked: R | undefined): R | undefined {
  return withSignedInNow(
    window,
    (now) => (now === signedIn ? picked : undefined),
    () => undefined,
  )();
}

/** The words of a pick's text, bounded as the agent's search is (searchInput.ts), or words that say the text is too long. */
function searchWords(text: string): readonly string[] | string {
  const criteria = searchCriteria({ query: text });
  return typeof criteria === 'string'
    ? l10n.t(
        'Type at most {0} and {1}.',
        charactersText(QUERY_CHARS),
        plural(QUERY_WORDS, {
          one: l10n.t({ message: '{0} different word', args: [numberText(QUERY_WORDS)], comment: 'plural: one' }),
          few: l10n.t({ message: '{0} different words', args: [numberText(QUERY_WORDS)], comment: 'plural: few' }),
          many: l10n.t({ message: '{0} different words', args: [numberText(QUERY_WORDS)], comment: 'plural: many' }),
          other: l10n.t({ message: '{0} different words', args: [numberText(QUERY_WORDS)], comment: 'plural: other' }),
        }),
      )
    : criteria.words;
}

/** Signed out: the person is asked to sign in first; the window's account once they did, undefined when they decline. */
export async function signInFirst({ gateway, ui }: Pick<Services, 'gateway' | 'ui'>): Promise<SignedIn | undefined> {
  const signIn = l10n.t('Sign In…');
  const choice = await ui.info(l10n.t('Sign in to the helpdesk first.'), signIn);
  if (choice !== signIn || (await vscode.commands.executeCommand<boolean>('helpdesk.signIn')) !== true) return undefined;
  return withSignedInNow(
    gateway,
    (signedIn) => signedIn,
    () => undefined,
  )();
}

/**
 * The account of a post's document (see `postUri`): the one its URI names, if signed in to
 * (whether or not this window is); otherwise the person is told, and undefined. A URI that
 * names none: this window's, `here` (signed out, after asking to sign in: see `signInFirst`).
 */
export async function accountOfPost(
  services: Pick<Services, 'gateway' | 'ui'>,
  here: SignedIn | undefined,
  accountUrl: string | undefined,
): Promise<Account | undefined> {
  if (accountUrl === undefined) return (here ?? (await signInFirst(services)))?.account;
  const { gateway } = services;
  const url = accountOf({ accountUrl }, here?.url, await gateway.signedInAccounts());
  const account = url === undefined ? undefined : url === here?.url ? here.account : await gateway.accountFor(url);
  // The address in the URI is not named: it is text from wherever the link came from.
  if (!account) void services.ui.info(l10n.t('This post is of an account you are not signed in to.'));
  return account;
}
