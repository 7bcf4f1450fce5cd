// helpdesk_createTask: a task from the agent, with a workspace file's lines where it names one.
// Asked, saved and sent once as every write (writeTools.ts).
import { buildBugReportContent } from '../../code/bugReport';
import { taskDraft } from '../../commands/createTask';
import { newDraftRef } from '../../drafts/draftRef';
import { inlineCode } from '../../text/markdown';
import { newPost } from './newPost';
import type { WriteKind } from './write';

export const createTask: WriteKind = {
  async compose(fields, account, _token, log) {
    const made = await newPost(fields, 'task', log);
    if ('problem' in made) return made;
    const { title, description, code, about } = made;
    const content = code
      ? buildBugReportContent({ description, selection: code.selection, location: code.location, maxLines: code.maxLines })
      : description;
    return {
      draft: { ...taskDraft(account, { title, content }), ref: newDraftRef(), byAgent: true },
      title: 'Create a helpdesk task?',
      where: `A task in ${inlineCode(account.url)}${about}`,
    };
  },
  twin: 'filed with this title',
  filed: (post, _draft, reference) => `Task ${reference(post.id)} created.`,
};
