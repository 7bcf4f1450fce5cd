// helpdesk_fileBug: a bug report (kind `error`) from the agent, with a workspace file's lines and
// their permalink where it names one. Asked, saved and sent once as every write (writeTools.ts).
import { bugDraft } from '../../commands/reportBug';
import { formatDraftDocument } from '../../drafts/draftDocument';
import { newDraftRef } from '../../drafts/draftRef';
import type { NewDraft } from '../../drafts/drafts';
import { inlineCode } from '../../text/markdown';
import { newPost } from './newPost';
import type { WriteKind } from './write';
import vscode = require('vscode');

const { l10n } = vscode;

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
      title: l10n.t('File a bug on the helpdesk?'),
      where: l10n.t('A bug report (kind {0}) in {1}{2}', inlineCode('error'), inlineCode(account.url), about),
    };
  },
  twin: (reference, ago) => l10n.t('{0} was filed with this title {1} from VS Code', reference, ago),
  again: () => l10n.t('File a bug on the helpdesk again?'),
  filed: (post, _draft, reference) => `Bug ${reference(post.id)} filed.`,
};
