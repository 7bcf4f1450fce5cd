import vscode = require('vscode');
import type { Post } from '../api';
import type { Gateway } from '../accounts/gateway';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import type { Peek } from '../store/helpdeskStore';
import { inertMarkdown } from '../text/markdown';
import { foreignPostFacts, postFacts, postTitle } from '../text/postFacts';
import { errorText } from '../ui/errorText';
import { knownClientContext, storeSources } from '../store/clientContext';
import { clientHoverText } from '../views/clientContextText';
import type { PostHovers } from './referenceHover';

const { l10n } = vscode;

/** The commands a post's hover links to; nothing else may run from it. */
const HOVER_COMMANDS = [
  'helpdesk.openPost',
  'helpdesk.commentOnTask',
  'helpdesk.openInBrowser',
  'helpdesk.goToCode',
  'helpdesk.startWork',
  'helpdesk.closePost',
  'helpdesk.reopenPost',
  'helpdesk.assignToMe',
];

/** A reference's hover: the post's facts from the gateway's peeks. Server text is shown as text; the links are ours. */
export function postHovers(gateway: Gateway): PostHovers {
  return {
    describe: (id, accountUrl) =>
      withSignedIn(
        gateway,
        async (signedIn) => {
          if (accountUrl && accountUrl !== signedIn.url) return otherAccountHover(gateway, id, accountUrl);
          const peek = gateway.peek(id);
          if (!peek) return signInWords(id);
          try {
            return postHover(await peek, id, signedIn);
          } catch (error) {
            return words(l10n.t('Post #{0} could not be loaded: {1}', id, errorText(error)));
          }
        },
        // Signed out, a post of another account signed in to is still described (with its own token).
        () => (accountUrl ? otherAccountHover(gateway, id, accountUrl) : signInWords(id)),
      )(),
  };
}

/**
 * A post of another account signed in to, read with that account's own token: its facts only
 * (this window's commands act on this window's account; the reference itself opens that account's post in the editor).
 */
async function otherAccountHover(gateway: Gateway, id: number, accountUrl: string): Promise<vscode.MarkdownString> {
  const host = new URL(accountUrl).host;
  try {
    const peek = await gateway.peekOf(accountUrl, id);
    if (!peek) return words(l10n.t('Post #{0} of {1}. Sign in to that account to see it here.', id, host));
    if ('gone' in peek) return words(l10n.t("Post #{0} is not on {1}: it was deleted, or that account's token cannot see it.", id, host));
    const { post } = peek;
    const md = words('');
    md.appendMarkdown(`**${inertMarkdown(`#${post.id} ${postTitle(post)}`)}**\n\n`);
    md.appendMarkdown(inertMarkdown([host, ...foreignPostFacts(post, Date.now())].join(' · ')));
    return md;
  } catch (error) {
    return words(l10n.t('Post #{0} of {1} could not be loaded: {2}', id, host, errorText(error)));
  }
}

function signInWords(id: number): vscode.MarkdownString {
  return words(l10n.t('Post #{0}. Sign in to the helpdesk to see it here.', id));
}

/** Words (which may quote the server) in an untrusted hover: no link can come of them. */
function words(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(inertMarkdown(text));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** Trusted for our commands only (HOVER_COMMANDS); every server string in it goes through inertMarkdown. */
function postHover(peek: Peek, id: number, signedIn: SignedIn): vscode.MarkdownString {
  if ('gone' in peek) return words(l10n.t('Post #{0} is not on the helpdesk: it was deleted, or your token cannot see it.', id));
  const md = new vscode.MarkdownString('', true);
  md.supportHtml = false;
  md.isTrusted = { enabledCommands: HOVER_COMMANDS };
  const { post } = peek;
  md.appendMarkdown(`**${inertMarkdown(`#${post.id} ${postTitle(post)}`)}**\n\n`);
  md.appendMarkdown(
    `${inertMarkdown(postFacts(post, { statuses: signedIn.store.statuses, clients: signedIn.store.clients.state.items, now: Date.now() }).join(' · '))}\n\n`,
  );
  // The client as far as already known: a hover reads nothing more for it.
  if (typeof post.client_id === 'number')
    md.appendMarkdown(
      `${inertMarkdown(clientHoverText(knownClientContext(storeSources(signedIn.store, undefined), post.client_id, post.id)))}\n\n`,
    );
  const link = (title: string, command: string) => `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([post.id]))})`;
  md.appendMarkdown(
    [
      link(l10n.t('Open Post'), 'helpdesk.openPost'),
      link(l10n.t('Comment on Task'), 'helpdesk.commentOnTask'),
      link(l10n.t('Open in Browser'), 'helpdesk.openInBrowser'),
      link(l10n.t('Go to Code'), 'helpdesk.goToCode'),
      link(l10n.t('Start Work'), 'helpdesk.startWork'),
      // Not offered where the account refuses updating posts (see Account.postUpdatesRefused).
      ...(signedIn.account.postUpdatesRefused === false ? updateLinks(post, signedIn.url) : []),
    ].join(' · '),
  );
  return md;
}

/** Close or Reopen, and Assign to Me: with the account's address beside the id, so that a click after a switch of accounts still acts on this account's post. */
function updateLinks(post: Post, accountUrl: string): string[] {
  const link = (title: string, command: string) =>
    `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([post.id, accountUrl]))})`;
  return [
    post.closed === true ? link(l10n.t('Reopen'), 'helpdesk.reopenPost') : link(l10n.t('Close'), 'helpdesk.closePost'),
    link(l10n.t('Assign to Me'), 'helpdesk.assignToMe'),
  ];
}
