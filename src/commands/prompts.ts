import vscode = require('vscode');
import { isComment, type Client, type Post } from '../api';
import type { Account } from '../account/account';
import type { Services } from '../services';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { pickText } from '../text/serverText';
import { postIcon, postTitle } from '../views/nodes';

import { accountOf } from '../views/postUri';

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
    let answer: TextAnswer;
    box.onDidChangeValue((value) => (box.validationMessage = options.validate?.(value)));
    box.onDidTriggerButton(() => {
      answer = { action: 'editor', value: box.value };
      box.hide();
    });
    box.onDidAccept(() => {
      const problem = options.validate?.(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      answer = { action: 'accept', value: box.value };
      box.hide();
    });
    box.onDidHide(() => {
      resolve(answer);
      box.dispose();
    });
    box.show();
  });
}

/**
 * A searchable pick of the loaded helpdesk posts (the first page is loaded if needed); `first`,
 * the post the current branch is about, heads the list.
 */
export async function pickPost(store: HelpdeskStore, title: string, first?: Post): Promise<Post | undefined> {
  await store.posts.ensureStarted();
  const item = (post: Post, description = `#${post.id}`) => ({ label: `$(${postIcon(post).id}) ${pickText(postTitle(post))}`, description, post });
  const items = store.posts.state.items.filter((post) => post.closed !== true && !isComment(post) && post.id !== first?.id).map((post) => item(post));
  if (first) items.unshift(item(first, l10n.t('#{0} · the current branch', first.id)));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: l10n.t('Type to search open posts by title or #id'), matchOnDescription: true });
  return picked?.post;
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
  const post =
    gateway.store.posts.state.items.find((loaded) => loaded.id === working.postId) ??
    (await Promise.race([
      gateway.peek(working.postId)?.then((peek) => ('post' in peek ? peek.post : undefined), () => undefined),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BRANCH_POST_WAIT_MS))),
    ]));
  clearTimeout(timer);
  return post && !isComment(post) ? post : undefined;
}

/** A searchable pick of the loaded clients. With `none`, a first item for "no client". */
export async function pickClient(store: HelpdeskStore, title: string, none?: string): Promise<Client | null | undefined> {
  await store.clients.ensureStarted();
  type Item = vscode.QuickPickItem & { client: Client | null };
  const items: Item[] = store.clients.state.items.map((client) => ({
    label: pickText(client.name) || `#${client.id}`,
    description: pickText([client.city, client.email].filter(Boolean).join(' · '), 80),
    client,
  }));
  if (none) items.unshift({ label: `$(circle-slash) ${none}`, client: null });
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: l10n.t('Type to search clients'), matchOnDescription: true });
  return picked ? picked.client : undefined;
}

/** The signed-in account, or, after asking to sign in first, the new one; undefined when the person declines. */
export async function signedInAccount({ gateway, ui, accountNow }: Pick<Services, 'gateway' | 'ui' | 'accountNow'>): Promise<Account | undefined> {
  await accountNow.now();
  const account = gateway.account;
  if (account) return account;
  const signIn = l10n.t('Sign In…');
  const choice = await ui.info(l10n.t('Sign in to the helpdesk first.'), signIn);
  if (choice === signIn && (await vscode.commands.executeCommand<boolean>('helpdesk.signIn')) === true) return gateway.account;
  return undefined;
}

/**
 * The account of a post's document (see `postUri`): the one its URI names, if signed in to
 * (whether or not this window is); otherwise the person is told, and undefined. A URI that
 * names none: this window's (see `signedInAccount`).
 */
export async function accountOfPost(services: Pick<Services, 'gateway' | 'ui' | 'accountNow'>, accountUrl: string | undefined): Promise<Account | undefined> {
  if (accountUrl === undefined) return signedInAccount(services);
  const { gateway, accountNow } = services;
  await accountNow.now();
  const url = accountOf({ accountUrl }, gateway.account?.url, await accountNow.signedInAccounts());
  const account = url === undefined ? undefined : url === gateway.account?.url ? gateway.account : await gateway.accountFor(url);
  // The address in the URI is not named: it is text from wherever the link came from.
  if (!account) void services.ui.info(l10n.t('This post is of an account you are not signed in to.'));
  return account;
}
