import vscode = require('vscode');
import type { Post } from '../api';
import type { Session } from '../auth/session';
import { formatDraftDocument } from '../code/bugReport';
import type { DraftStore } from '../drafts/drafts';
import { openDraft, type DraftSender } from '../drafts/sendDraft';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { ClientNode } from '../views/nodes';
import { askText, ensureSignedIn, pickClient } from './prompts';

const { l10n } = vscode;

export interface CreateTaskArgs {
  title: string;
  content?: string;
  clientId?: number | null;
}

/** A task with a title, optional content and an optional client (preset from a client node). */
export async function createTask(deps: { session: Session; store: HelpdeskStore; drafts: DraftStore; sender: DraftSender }, target?: unknown): Promise<Post | undefined> {
  const { session, store, drafts, sender } = deps;
  if (!(await ensureSignedIn(() => !!session.client))) return undefined;
  const args = isCreateTaskArgs(target) ? target : undefined;
  const save = (title: string, content: string, clientId: number | null) =>
    drafts.create({ kind: 'task', text: formatDraftDocument(title, content), accountUrl: session.accountUrl!, clientId, target: 'task' });
  if (args) return sender.send(await save(args.title, args.content ?? '', args.clientId ?? null));

  const title = await askText({
    title: l10n.t('Create Task (1/2)'),
    prompt: l10n.t('The task\'s title.'),
    editorTooltip: l10n.t('Write the whole task in an editor (first line: title)'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A task needs a title.')),
  });
  if (!title) return undefined;
  let clientId: number | null = null;
  if (target instanceof ClientNode) {
    clientId = target.client.id;
  } else if (title.action === 'accept') {
    const client = await pickClient(store, l10n.t('Create Task: for which client?'), l10n.t('No client'));
    if (client === undefined) return undefined;
    clientId = client?.id ?? null;
  }
  if (title.action === 'editor') {
    const draft = await save(title.value || l10n.t('New task'), '', clientId);
    await openDraft(draft.id);
    return undefined;
  }
  const content = await askText({
    title: l10n.t('Create Task (2/2)'),
    prompt: l10n.t('What is to be done (optional). Enter creates the task.'),
    editorTooltip: l10n.t('Write the description in an editor'),
  });
  if (!content) return undefined;
  const draft = await save(title.value, content.value, clientId);
  if (content.action === 'editor') {
    await openDraft(draft.id);
    return undefined;
  }
  return sender.send(draft);
}

function isCreateTaskArgs(value: unknown): value is CreateTaskArgs {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.TreeItem) && typeof (value as CreateTaskArgs).title === 'string';
}
