import type { Post } from '../api';
import { buildBugReportContent } from '../code/bugReport';
import type { DocumentCode } from '../code/documentCode';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { Account } from '../account/account';
import type { WriteServices } from '../services';
import { deliver, type Delivery } from '../features/deliver';

export interface BugInput extends DocumentCode {
  title: string;
  description?: string;
}

/** Files a post of kind `error` about some code: path, lines, language, the code, and the permalink. */
export async function reportBug(services: WriteServices, account: Account, input: BugInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const { title, description, selection, location, maxLines } = input;
  const draft = await services.drafts.create({
    kind: 'bug',
    text: formatDraftDocument(title, buildBugReportContent({ description, selection, location, maxLines })),
    accountUrl: account.url,
    target: `${selection.relativePath}:${selection.startLine}`,
  });
  return deliver(services, draft, delivery);
}
