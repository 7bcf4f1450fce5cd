import type { Post } from '../api';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { TodoOrigin } from '../drafts/drafts';
import type { Account } from '../account/account';
import type { WriteServices } from '../services';
import { deliver, type Delivery } from '../features/deliver';

export interface TaskInput {
  title: string;
  content?: string;
  clientId?: number | null;
  /** The TODO comment it comes from (see createTaskFromComment.ts). */
  todo?: TodoOrigin;
}

/** Files a task, optionally for a client (through a draft, so nothing typed is lost). */
export async function createTask(services: WriteServices, account: Account, { title, content = '', clientId = null, todo }: TaskInput, delivery: Delivery = 'send'): Promise<Post | undefined> {
  const draft = await services.drafts.create({ kind: 'task', text: formatDraftDocument(title, content), accountUrl: account.url, clientId, target: 'task', todo });
  return deliver(services, draft, delivery);
}
