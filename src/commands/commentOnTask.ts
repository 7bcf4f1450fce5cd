// Comment on Task: the command's prompts (commentOnTask), and the typed action they end in (fileComment).
import vscode = require('vscode');
import type { Post } from '../api';
import { askText, branchPost, pickPost } from './prompts';
import { targetPost } from './targets';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { NewDraft } from '../drafts/drafts';
import type { Account } from '../api/account';
import type { Services, WriteServices } from '../services';
import { postTitle } from '../text/postFacts';
import { deliver, type Delivery } from './deliver';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { needsAccount, notSignedIn, type Feature } from './feature';

const { l10n } = vscode;

export interface CommentInput {
  /** The post commented on, as loaded: the comment carries its client and responsible person. */
  parent: Post;
  text: string;
  /** Default: `Re: <the parent's title>` (see `commentTitle`). */
  title?: string;
}

export function commentOnTaskFeature(services: Services) {
  return {
    commands: { 'helpdesk.commentOnTask': needsAccount(services, (signedIn, arg) => commentOnTask(services, signedIn, arg)) },
    /** A comment on the post with this id, as loaded now. */
    action: withSignedIn(
      services.gateway,
      async ({ account }, { postId, text, title }: { postId: number; text: string; title?: string }) =>
        fileComment(services, account, { parent: await account.post(postId), text, title }),
      notSignedIn,
    ),
  } satisfies Feature<unknown>;
}

/** Comment on Task: on the post's row or open document, or on one picked from a list; asks for the text. */
export async function commentOnTask(services: Services, signedIn: SignedIn, arg: unknown): Promise<Post | undefined> {
  const { account } = signedIn;
  const target = targetPost(arg);
  if (target?.accountUrl !== undefined && target.accountUrl !== account.url) {
    // A comment is written as a draft of this window's account: on another's post it would go astray.
    // The address is named only where it is an account signed in to (the URI is any text).
    const known = (await services.session.signedInAccounts()).includes(target.accountUrl);
    void services.ui.info(
      known
        ? l10n.t(
            '#{0} is a post of {1}; this window uses {2}. Switch to that account to comment on it.',
            target.id,
            target.accountUrl,
            account.url,
          )
        : l10n.t('#{0} is a post of an account you are not signed in to; this window uses {1}.', target.id, account.url),
    );
    return undefined;
  }
  const parent = target
    ? (target.node?.post ?? (await account.post(target.id)))
    : await pickPost(services.gateway, l10n.t('Comment on Task'), await branchPost(services));
  if (!parent) return undefined;
  const title = commentTitle(parent);
  const answer = await askText({
    title: l10n.t('Comment on #{0}: {1}', parent.id, postTitle(parent)),
    prompt: l10n.t(
      'Your comment, titled "{0}". Enter sends it; the button opens it in an editor, where the title can be changed too.',
      title,
    ),
    editorTooltip: l10n.t('Write a longer comment in an editor'),
    validate: (value) => (value.trim() ? undefined : l10n.t('Write something, or use the button to open an editor.')),
  });
  if (!answer) return undefined;
  return fileComment(services, account, { parent, title, text: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}

/** What a comment is titled unless the person changes it. */
export function commentTitle(parent: Post): string {
  return vscode.l10n.t('Re: {0}', postTitle(parent));
}

/** Files a comment on a post (through a draft, so nothing typed is lost). */
export async function fileComment(
  services: WriteServices,
  account: Account,
  input: CommentInput,
  delivery: Delivery = 'send',
): Promise<Post | undefined> {
  return deliver(services, commentDraft(account, input), delivery);
}

/** The draft of a comment on a post, carrying the post's client and responsible person. */
export function commentDraft(account: Pick<Account, 'url'>, { parent, text, title }: CommentInput): NewDraft {
  return {
    kind: 'comment',
    text: formatDraftDocument(title ?? commentTitle(parent), text),
    titled: true,
    accountUrl: account.url,
    postId: parent.id,
    clientId: parent.client_id ?? null,
    responsibleId: parent.responsible_id ?? null,
    target: `#${parent.id}`,
  };
}
