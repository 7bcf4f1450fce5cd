import vscode = require('vscode');
import { isApiError, type Client, type Post } from '../api';
import type { Session } from '../auth/session';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { postTitle } from './nodes';
import { abortSignalOf } from '../progress';
import { postIdOf, postUri } from './postUri';
import { bodyText, labelText } from './text';

const { l10n } = vscode;

/**
 * A post as a read-only Markdown document, loaded fresh from the service. Server text is
 * untrusted: it goes into a fenced block, so not even a Markdown preview renders its HTML,
 * links or images.
 */
export class PostDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly session: Session,
    private readonly store: HelpdeskStore,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const id = postIdOf(uri);
    await this.session.whenRestored();
    const api = this.session.client;
    if (!id || !api) return l10n.t('Sign in to the helpdesk to see this post.');
    try {
      const post = await api.posts.get(id, { signal: abortSignalOf(token) });
      this.session.noteOutcome();
      const client = this.store.clients.state.items.find((c) => c.id === post.client_id);
      return renderPost(post, client, api.link('posts', id));
    } catch (error) {
      this.session.noteOutcome(error);
      if (isApiError(error, 'notFound')) this.store.posts.remove(id);
      return l10n.t('Could not load post #{0}: {1}', id, error instanceof Error ? error.message : String(error));
    }
  }
}

export function renderPost(post: Post, client: Client | undefined, link: string): string {
  const line = (name: string, text: string) => (text ? [`- ${name}: ${text}`] : []);
  // Server text is escaped, so that a Markdown preview shows it as written: no links, no HTML.
  const fact = (name: string, value: unknown) => line(name, escapeMarkdown(labelText(value, 200)));
  const clientId = typeof post.client_id === 'number' ? post.client_id : undefined;
  const lines = [
    `# ${escapeMarkdown(postTitle(post))}`,
    '',
    ...line(l10n.t('Post'), `#${post.id}`),
    ...fact(l10n.t('Kind'), [post.kind, post.task_kind].filter((v) => typeof v === 'string').join(' / ')),
    ...line(l10n.t('State'), post.closed === true ? l10n.t('closed') : l10n.t('open')),
    ...line(l10n.t('Client'), client ? `${escapeMarkdown(labelText(client.name))} (#${client.id})` : clientId ? `#${clientId}` : ''),
    ...fact(l10n.t('Created'), post.created_at),
    ...fact(l10n.t('Updated'), post.updated_at),
    ...line(l10n.t('Comments'), typeof post.comments_cache === 'number' ? String(post.comments_cache) : ''),
    ...line(l10n.t('Web page'), link),
    '',
  ];
  const content = bodyText(post.content, 100_000);
  if (content.trim()) lines.push(fenced(content), '');
  return lines.join('\n');
}

/** A fence longer than any run of backticks inside, so the text cannot close it. */
export function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\n$/, '')}\n${fence}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!<>|~-]/g, '\\$&');
}

/** Opens a post from a tree node, an `{ id }` or a number. */
export async function openPost(target: unknown): Promise<void> {
  const id =
    typeof target === 'number'
      ? target
      : target && typeof target === 'object' && 'post' in target
        ? (target as { post: Post }).post.id
        : target && typeof target === 'object' && 'id' in target && typeof target.id === 'number'
          ? target.id
          : undefined;
  if (!id) return;
  const document = await vscode.workspace.openTextDocument(postUri(id));
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { preview: true });
}
