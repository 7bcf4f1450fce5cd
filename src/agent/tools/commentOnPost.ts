// helpdesk_commentOnPost: a comment from the agent on a post (never on a comment), seen by
// everyone who sees that post. Asked, saved and sent once as every write (writeTools.ts).
import { isComment, type Post } from '../../api';
import { referenceText } from '../../code/postReferences';
import { commentDraft } from '../../commands/commentOnTask';
import { newDraftRef } from '../../drafts/draftRef';
import { postIdOf } from '../../search/postIdOf';
import { readSettings } from '../../settings';
import { inlineCode } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import { abortOn, failureAnswer } from './tool';
import { TEXT_CHARS, type WriteKind } from './write';
import vscode = require('vscode');

const { l10n } = vscode;

export const commentOnPost: WriteKind = {
  async compose(fields, account, token) {
    const reference = (id: number) => referenceText(id, readSettings().referencePrefix);
    const id = postIdOf(fields.post, account.url, readSettings().referencePrefix);
    if (id === undefined)
      return {
        problem: `"${labelText(String(fields.post).slice(0, 200), 40)}" names no post: give its number (123), or a reference such as ${reference(123)}. Nothing was written.`,
      };
    const text = typeof fields.text === 'string' ? fields.text.trim() : '';
    if (!text) return { problem: 'A comment needs words: nothing was written.' };
    if (text.length > TEXT_CHARS)
      return {
        problem: `The comment has ${text.length} characters; at most ${TEXT_CHARS}, so that the person can read what they agree to. Nothing was written.`,
      };
    let parent: Post;
    try {
      parent = await account.post(id, abortOn(token));
    } catch (error) {
      return { problem: failureAnswer(`Post ${reference(id)} could not be read, so nothing was written.`, error) };
    }
    if (isComment(parent)) {
      const of =
        typeof parent.post_id === 'number' ? ` on ${reference(parent.post_id)}; to comment there, call the tool again with that post` : '';
      return { problem: `${reference(id)} is a comment${of}. Comments are added to posts, not to comments: nothing was written.` };
    }
    return {
      draft: { ...commentDraft(account, { parent, text }), ref: newDraftRef(), byAgent: true },
      title: l10n.t('Comment on {0}?', reference(id)),
      where: l10n.t('A comment on {0} in {1}, seen by everyone who sees that post', reference(id), inlineCode(account.url)),
    };
  },
  twin: (reference, ago) => l10n.t('{0} was added as this very comment {1} from VS Code', reference, ago),
  again: () => l10n.t('Add this comment again?'),
  filed: (post, draft, reference) => `Comment ${reference(post.id)} added to ${reference(draft.postId ?? 0)}.`,
};
