// helpdesk_createTask: a task from the agent, with a workspace file's lines where it names one.
// Asked, saved and sent once as every write (writeTools.ts).
import { buildBugReportContent } from '../../code/bugReport';
import { taskDraft } from '../../commands/createTask';
import { newDraftRef } from '../../drafts/draftRef';
import { inlineCode } from '../../text/markdown';
import { newPost } from './newPost';
import type { WriteKind } from './write';
import vscode = require('vscode');

const { l10n } = vscode;

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
      title: l10n.t('Create a helpdesk task?'),
      where: l10n.t('A task in {0}{1}', inlineCode(account.url), about),
    };
  },
  twin: (reference, ago) => l10n.t('{0} was filed with this title {1} from VS Code', reference, ago),
  again: () => l10n.t('Create a helpdesk task again?'),
  filed: (post, _draft, reference) => `Task ${reference(post.id)} created.`,
};
