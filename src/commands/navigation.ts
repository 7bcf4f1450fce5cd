import vscode = require('vscode');
import type { Session } from '../auth/session';
import { ClientNode, DealNode, PostNode } from '../views/nodes';
import { postIdOf } from '../views/postUri';

/** The web app page of a tree node, or undefined for nodes that have none. */
export function webLinkOf(session: Session, node: unknown): string | undefined {
  const client = session.client;
  if (!client) return undefined;
  if (node instanceof PostNode) return client.link('posts', node.post.id);
  if (node instanceof ClientNode) return client.link('clients', node.client.id);
  if (node instanceof DealNode) return client.link('deals', node.deal.id);
  if (node instanceof vscode.Uri) {
    const id = postIdOf(node);
    return id ? client.link('posts', id) : undefined;
  }
  if (node && typeof node === 'object' && 'id' in node && typeof node.id === 'number') return client.link('posts', node.id);
  return undefined;
}

export async function openInBrowser(session: Session, node: unknown): Promise<void> {
  const link = webLinkOf(session, node);
  if (link) await vscode.env.openExternal(vscode.Uri.parse(link));
}

export async function copyLink(session: Session, node: unknown): Promise<void> {
  const link = webLinkOf(session, node);
  if (!link) return;
  await vscode.env.clipboard.writeText(link);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Link copied: {0}', link), 3000);
}
