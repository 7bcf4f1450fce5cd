import vscode = require('vscode');
import type { Post } from '../api';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { Account } from '../account/account';
import type { WriteServices } from '../services';
import { postTitle } from '../views/nodes';
import { deliver, type Delivery } from '../features/deliver';

export interface CommentInput {
  /** The post commented on, as loaded: the comment carries its client and responsible person. */
  parent: Post;
  text: string;
  /** Default: `Re: <the parent's title>` (see `commentTitle`). */
  title?: string;
}

/** What a comment is titled unless the person changes it. */
export function commentTitle(parent: Post): string {
  return vscode.l10n.t('Re: {0}', postTitle(parent));
}

/** Files a comment on a post (through a draft, so nothing typed is lost). */
export async function commentOnTask(services: WriteServices, account: Account, { parent, text, title }: CommentInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const draft = await services.drafts.create({
    kind: 'comment',
    text: formatDraftDocument(title ?? commentTitle(parent), text),
    titled: true,
    accountUrl: account.url,
    postId: parent.id,
    clientId: parent.client_id ?? null,
    responsibleId: parent.responsible_id ?? null,
    target: `#${parent.id}`,
  });
  return deliver(services, draft, delivery);
}
