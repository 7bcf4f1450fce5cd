// helpdesk_fileBug: a bug report (kind `error`) from the agent, with a workspace file's lines and
// their permalink where it names one. Asked, saved and sent once as every write (writeTools.ts).
import { bugDraft } from '../../commands/reportBug';
import { formatDraftDocument } from '../../drafts/draftDocument';
import { newDraftRef } from '../../drafts/draftRef';
import type { NewDraft } from '../../drafts/drafts';
import { inlineCode } from '../../text/markdown';
import { newPost } from './newPost';
import type { WriteKind } from './write';

export const fileBug: WriteKind = {
  async compose(fields, account, _token, log) {
    const made = await newPost(fields, 'bug', log);
    if ('problem' in made) return made;
    const { title, description, code, about } = made;
    const draft: NewDraft = code
      ? bugDraft(account, { ...code, title, description })
      : { kind: 'bug', text: formatDraftDocument(title, description), accountUrl: account.url, target: 'bug' };
    return {
      draft: { ...draft, ref: newDraftRef(), byAgent: true },
      title: 'File a bug on the helpdesk?',
      where: `A bug report (kind ${inlineCode('error')}) in ${inlineCode(account.url)}${about}`,
    };
  },
  twin: 'filed with this title',
  filed: (post, _draft, reference) => `Bug ${reference(post.id)} filed.`,
};
