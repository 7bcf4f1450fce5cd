// Create Task: the command's prompts (createTask), and the typed action they end in (fileTask).
import vscode = require('vscode');
import type { Post } from '../api';
import { askText, pickClient } from './prompts';
import { targetClient } from './targets';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { NewDraft, TodoOrigin } from '../drafts/drafts';
import type { Account } from '../api/account';
import type { Services, WriteServices } from '../services';
import { deliver, type Delivery } from './deliver';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { needsAccount, notSignedIn, type Feature } from './feature';

const { l10n } = vscode;

export interface TaskInput {
  title: string;
  content?: string;
  clientId?: number | null;
  /** The TODO comment it comes from (see createTaskFromComment.ts). */
  todo?: TodoOrigin;
}

export function createTaskFeature(services: Services) {
  return {
    commands: { 'helpdesk.createTask': needsAccount(services, (signedIn, arg) => createTask(services, signedIn, arg)) },
    action: withSignedIn(services.gateway, (signedIn, input: TaskInput) => fileTask(services, signedIn.account, input), notSignedIn),
  } satisfies Feature<unknown>;
}

/** Create Task: a title, a client (preset on a client's row), then what is to be done; or all of it in an editor. */
export async function createTask(services: Services, { account }: SignedIn, arg: unknown): Promise<Post | undefined> {
  const title = await askText({
    title: l10n.t('Create Task (1/2)'),
    prompt: l10n.t("The task's title."),
    editorTooltip: l10n.t('Write the whole task in an editor (first line: title)'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A task needs a title.')),
  });
  if (!title) return undefined;
  let clientId = targetClient(arg)?.id ?? null;
  if (clientId === null && title.action === 'accept') {
    const client = await pickClient(services.gateway, l10n.t('Create Task: for which client?'), l10n.t('No client'));
    if (client === undefined) return undefined;
    clientId = client?.id ?? null;
  }
  if (title.action === 'editor') return fileTask(services, account, { title: title.value || l10n.t('New task'), clientId }, 'edit');
  const content = await askText({
    title: l10n.t('Create Task (2/2)'),
    prompt: l10n.t('What is to be done (optional). Enter creates the task.'),
    editorTooltip: l10n.t('Write the description in an editor'),
  });
  if (!content) return undefined;
  return fileTask(
    services,
    account,
    { title: title.value, content: content.value, clientId },
    content.action === 'editor' ? 'edit' : 'send',
  );
}

/** Files a task, optionally for a client (through a draft, so nothing typed is lost). */
export async function fileTask(
  services: WriteServices,
  account: Account,
  input: TaskInput,
  delivery: Delivery = 'send',
): Promise<Post | undefined> {
  return deliver(services, taskDraft(account, input), delivery);
}

/** The draft of a task. */
export function taskDraft(account: Account, { title, content = '', clientId = null, todo }: TaskInput): NewDraft {
  return { kind: 'task', text: formatDraftDocument(title, content), accountUrl: account.url, clientId, target: 'task', todo };
}
