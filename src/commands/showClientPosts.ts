import vscode = require('vscode');
import type { HelpdeskStore } from '../store/helpdeskStore';
import { labelText } from '../text/serverText';
import { PostNode } from '../views/nodes';
import type { PostsTreeProvider } from '../views/postsTree';
import { targetClient } from './targets';

const { l10n } = vscode;

/**
 * Show Posts of This Client: the Helpdesk view shows the posts of the client of a post's row (or
 * of a client's row), and says so in its title; Clear Filter shows every post again. The view
 * loads pages until a screenful shows, as under a quick filter.
 */
export async function showClientPosts(tree: PostsTreeProvider, store: HelpdeskStore, arg: unknown): Promise<void> {
  const id = arg instanceof PostNode ? arg.post.client_id : targetClient(arg)?.id;
  if (typeof id !== 'number') return;
  const name = labelText((targetClient(arg) ?? store.clients.find(id))?.name, 60);
  tree.setFilter({ client: { id, label: name ? l10n.t('client {0} (#{1})', name, id) : l10n.t('client #{0}', id) } });
  await vscode.commands.executeCommand('helpdesk.posts.focus');
}
