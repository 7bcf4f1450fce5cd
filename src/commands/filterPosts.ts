import vscode = require('vscode');
import { POST_KINDS, TASK_KINDS, type PostKind, type TaskKind } from '../api';
import type { PostFilter } from '../views/postFilter';
import type { PostsTreeProvider } from '../views/postsTree';
import { kindName } from '../text/postFacts';

const { l10n } = vscode;

type KindItem = vscode.QuickPickItem & { postKind?: PostKind | TaskKind };

/** Narrows the Helpdesk view: the text typed in the box matches titles and contents, and the item picked sets the kind. */
export async function filterPosts(tree: PostsTreeProvider): Promise<void> {
  const current = tree.currentFilter;
  const entry = (postKind: PostKind | TaskKind): KindItem => ({
    label: kindName(postKind),
    description: kindName(postKind) === postKind ? undefined : postKind,
    postKind,
    alwaysShow: true,
    picked: current.kind === postKind,
  });
  const separator = (label: string): KindItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const items: KindItem[] = [
    { label: l10n.t('Any kind'), alwaysShow: true },
    separator(l10n.t('post kinds')),
    ...POST_KINDS.map(entry),
    separator(l10n.t('task kinds')),
    ...TASK_KINDS.filter((k) => k !== 'error').map(entry),
  ];
  const pick = vscode.window.createQuickPick<KindItem>();
  pick.title = l10n.t('Filter Posts');
  pick.placeholder = l10n.t('Type text to look for in titles and contents, then pick a kind');
  pick.items = items;
  pick.value = current.text ?? '';
  pick.activeItems = items.filter((i) => i.postKind === current.kind && i.kind !== vscode.QuickPickItemKind.Separator).slice(0, 1);
  const chosen = await new Promise<PostFilter | undefined>((resolve) => {
    pick.onDidAccept(() => resolve({ text: pick.value, kind: pick.selectedItems[0]?.postKind, client: current.client }));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (chosen) tree.setFilter(chosen);
}
