import vscode = require('vscode');
import type { Post } from '../api';
import { createTask as fileTask } from '../actions/createTask';
import type { Services } from '../services';
import { askText, pickClient, signedInAccount } from './prompts';
import { targetClient } from './targets';

const { l10n } = vscode;

/** Create Task: a title, a client (preset on a client's row), then what is to be done; or all of it in an editor. */
export async function createTask(services: Services, arg: unknown): Promise<Post | undefined> {
  const account = await signedInAccount(services);
  if (!account) return undefined;
  const title = await askText({
    title: l10n.t('Create Task (1/2)'),
    prompt: l10n.t('The task\'s title.'),
    editorTooltip: l10n.t('Write the whole task in an editor (first line: title)'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A task needs a title.')),
  });
  if (!title) return undefined;
  let clientId = targetClient(arg)?.id ?? null;
  if (clientId === null && title.action === 'accept') {
    const client = await pickClient(services.gateway.store, l10n.t('Create Task: for which client?'), l10n.t('No client'));
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
  return fileTask(services, account, { title: title.value, content: content.value, clientId }, content.action === 'editor' ? 'edit' : 'send');
}
