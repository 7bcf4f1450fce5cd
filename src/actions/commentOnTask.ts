import type { Post } from '../api';
import type { Account } from '../gateway/account';
import type { WriteServices } from '../services';
import { deliver, type Delivery } from './deliver';

export interface CommentInput {
  /** The post commented on, as loaded: the comment carries its client and responsible person. */
  parent: Post;
  text: string;
}

/** Files a comment on a post (through a draft, so nothing typed is lost). */
export async function commentOnTask(services: WriteServices, account: Account, { parent, text }: CommentInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const draft = await services.drafts.create({
    kind: 'comment',
    text,
    accountUrl: account.url,
    postId: parent.id,
    parentComments: Number(parent.comments_cache) || 0,
    clientId: parent.client_id ?? null,
    responsibleId: parent.responsible_id ?? null,
    target: `#${parent.id}`,
  });
  return deliver(services, draft, delivery);
}
