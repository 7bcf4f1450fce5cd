import vscode = require('vscode');
import type { Post } from '../api';
import { commentOnTask as fileComment, commentTitle } from '../actions/commentOnTask';
import type { Services } from '../services';
import { postTitle } from '../views/nodes';
import { askText, pickPost, signedInAccount } from './prompts';
import { targetPost } from './targets';

const { l10n } = vscode;

/** Comment on Task: on the post's row or open document, or on one picked from a list; asks for the text. */
export async function commentOnTask(services: Services, arg: unknown): Promise<Post | undefined> {
  const account = await signedInAccount(services);
  if (!account) return undefined;
  const target = targetPost(arg);
  if (target?.accountUrl !== undefined && target.accountUrl !== account.url) {
    // A comment is written as a draft of this window's account: on another's post it would go astray.
    // The address is named only where it is an account signed in to (the URI is any text).
    const known = (await services.session.signedInAccounts()).includes(target.accountUrl);
    void services.ui.info(
      known
        ? l10n.t('#{0} is a post of {1}; this window uses {2}. Switch to that account to comment on it.', target.id, target.accountUrl, account.url)
        : l10n.t('#{0} is a post of an account you are not signed in to; this window uses {1}.', target.id, account.url),
    );
    return undefined;
  }
  const parent = target ? (target.node?.post ?? (await account.post(target.id))) : await pickPost(services.gateway.store, l10n.t('Comment on Task'));
  if (!parent) return undefined;
  const title = commentTitle(parent);
  const answer = await askText({
    title: l10n.t('Comment on #{0}: {1}', parent.id, postTitle(parent)),
    prompt: l10n.t('Your comment, titled "{0}". Enter sends it; the button opens it in an editor, where the title can be changed too.', title),
    editorTooltip: l10n.t('Write a longer comment in an editor'),
    validate: (value) => (value.trim() ? undefined : l10n.t('Write something, or use the button to open an editor.')),
  });
  if (!answer) return undefined;
  return fileComment(services, account, { parent, title, text: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}
