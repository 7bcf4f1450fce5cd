import vscode = require('vscode');
import type { Post } from '../api';
import type { NewDraft } from '../drafts/drafts';
import { openDraft } from '../drafts/sendDraft';
import type { WriteServices } from '../services';

const { l10n } = vscode;

/** Send it now, or open it in an editor to finish first (the person sends it from there). */
export type Delivery = 'send' | 'edit';

/**
 * What every write does: save its draft first, so nothing typed is lost, then send it, or open it
 * with a word on how to send it. A draft sent at once is saved already claimed for the send (and
 * marked for its first attempt, see `DraftSender.sendNew`).
 */
export async function deliver(services: WriteServices, fields: NewDraft, delivery: Delivery): Promise<Post | undefined> {
  if (delivery === 'send') return services.sender.sendNew(fields);
  const draft = await services.drafts.create(fields);
  await openDraft(draft.id);
  void services.ui.info(
    draft.kind === 'comment'
      ? l10n.t('The first line is the comment\'s title. Write the comment below it, then click "Send Draft" in the title bar.')
      : l10n.t('The first line is the title. Add a description, then click "Send Draft" in the title bar.'),
  );
  return undefined;
}
