import vscode = require('vscode');
import type { Post } from '../api';
import type { Session } from '../auth/session';
import type { DraftStore } from '../drafts/drafts';
import { openDraft, type DraftSender } from '../drafts/sendDraft';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { PostNode, postTitle } from '../views/nodes';
import { postIdOf } from '../views/postUri';
import { askText, ensureSignedIn, pickPost } from './prompts';
import { notify } from '../notify';

const { l10n } = vscode;

export interface CommentArgs {
  postId: number;
  text: string;
}

/**
 * Comments on a post picked in the tree or from a list. With `{ postId, text }` it asks
 * nothing. The comment carries the parent's client and responsible person.
 */
export async function commentOnTask(deps: { session: Session; store: HelpdeskStore; drafts: DraftStore; sender: DraftSender }, target?: unknown): Promise<Post | undefined> {
  const { session, store, drafts, sender } = deps;
  if (!(await ensureSignedIn(() => !!session.client))) return undefined;
  const args = isCommentArgs(target) ? target : undefined;
  const parent = args ? await session.client!.posts.get(args.postId) : await resolveTarget(store, target, session);
  if (!parent) return undefined;

  let text = args?.text;
  let action: 'accept' | 'editor' = 'accept';
  if (text === undefined) {
    const answer = await askText({
      title: l10n.t('Comment on #{0}: {1}', parent.id, postTitle(parent)),
      prompt: l10n.t('Your comment. Enter sends it.'),
      editorTooltip: l10n.t('Write a longer comment in an editor'),
      validate: (value) => (value.trim() ? undefined : l10n.t('Write something, or use the button to open an editor.')),
    });
    if (!answer) return undefined;
    ({ value: text, action } = answer);
  }
  const draft = await drafts.create({
    kind: 'comment',
    text,
    accountUrl: session.accountUrl!,
    postId: parent.id,
    parentComments: parent.comments_cache ?? 0,
    clientId: parent.client_id ?? null,
    responsibleId: parent.responsible_id ?? null,
    target: `#${parent.id}`,
  });
  if (action === 'editor') {
    await openDraft(draft.id);
    void notify.info(l10n.t('Write the comment, then click "Send" in the editor\'s title bar.'));
    return undefined;
  }
  return sender.send(draft);
}

async function resolveTarget(store: HelpdeskStore, target: unknown, session: Session): Promise<Post | undefined> {
  if (target instanceof PostNode) return target.post;
  const id = target instanceof vscode.Uri ? postIdOf(target) : undefined;
  if (id) return session.client!.posts.get(id);
  return pickPost(store, l10n.t('Comment on Task'));
}

function isCommentArgs(value: unknown): value is CommentArgs {
  return typeof value === 'object' && value !== null && typeof (value as CommentArgs).postId === 'number' && typeof (value as CommentArgs).text === 'string';
}
