// After Start Work: the offer, once per post, to assign the post to the person and set it to a
// status they pick (the account's "in progress" one first). Never done unasked; the answer, or
// the offer dismissed, is remembered so the same post is not offered again.
import vscode = require('vscode');
import type { Post } from '../api';
import type { Account } from '../api/account';
import type { Identity } from '../accounts/identity';
import { withSignedInNow } from '../accounts/signedIn';
import type { Services } from '../services';
import { labelText, pickText } from '../text/serverText';
import { postTitle } from '../text/postFacts';
import { statusItems, updatePostTo } from './updatePost';

const { l10n } = vscode;

/** The posts already offered, per account, newest last: a few hundred at most. */
const OFFERED_KEY = 'helpdesk.startWorkOffered';
const OFFERED_KEPT = 500;

/** Where the offer is remembered (VS Code's Memento is one). */
export interface OfferMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** How the offer ended: not made (offered before, or not possible), declined, or the post as updated. */
export type OfferOutcome = 'notOffered' | 'declined' | { readonly updated: Post } | { readonly notUpdated: string };

export async function offerToTakePost(
  services: Pick<Services, 'ui' | 'gateway' | 'state'>,
  identity: Identity,
  account: Account,
  post: Post,
): Promise<OfferOutcome> {
  if (account.postUpdatesRefused || offeredBefore(services.state, account.url, post.id)) return 'notOffered';
  const me = identity.me(account.url)?.id;
  // The statuses the window's store has read, while this account is the window's (it follows the window).
  const statuses = withSignedInNow(
    services.gateway,
    ({ store }) => store.showing(account)?.statuses,
    () => undefined,
  )();
  // Nothing it could do: who the person is, and the statuses, both unknown.
  if (me === undefined && !statuses?.size) return 'notOffered';
  const take = l10n.t('Assign and Set Status…');
  const notNow = l10n.t('Not for This Post');
  const message =
    me === undefined
      ? l10n.t('Set the status of #{0} "{1}" now that you work on it?', post.id, labelText(postTitle(post), 60))
      : l10n.t('Assign #{0} "{1}" to you and set its status, now that you work on it?', post.id, labelText(postTitle(post), 60));
  const choice = await services.ui.info(message, take, notNow);
  await services.state.update(OFFERED_KEY, offeredList(services.state, account.url, post.id));
  if (choice !== take) return 'declined';
  const items = statusItems(statuses ?? new Map(), post);
  // The account's "in progress" status first, and chosen by Enter.
  const sorted = [...items].sort((a, b) => Number(/progress/i.test(b.label)) - Number(/progress/i.test(a.label)));
  const picked = sorted.length
    ? await vscode.window.showQuickPick(sorted, { title: l10n.t('Status of #{0}: {1}', post.id, pickText(postTitle(post), 80)) })
    : undefined;
  if (sorted.length && !picked) return 'declined';
  const changes = { ...(me !== undefined ? { responsible_id: me } : {}), ...(picked ? { status_id: picked.id } : {}) };
  if (Object.keys(changes).length === 0) return 'declined';
  try {
    const outcome = await updatePostTo(account, identity, post, changes, () => Promise.resolve(false));
    if ('updated' in outcome) return { updated: outcome.updated };
    if ('unchanged' in outcome) return { updated: outcome.unchanged };
    const why =
      'declined' in outcome
        ? l10n.t('#{0} was changed by someone since you opened it; nothing was written.', post.id)
        : l10n.t('This helpdesk does not let posts be updated from VS Code.');
    void services.ui.info(why);
    return { notUpdated: why };
  } catch (error) {
    services.ui.failure(error, {}, (text) => l10n.t('#{0} was not updated: {1}', post.id, text));
    return { notUpdated: String(error) };
  }
}

/** Whether this post of this account was offered already. */
function offeredBefore(state: OfferMemory, accountUrl: string, id: number): boolean {
  const list = state.get<unknown>(OFFERED_KEY);
  return Array.isArray(list) && list.includes(`${accountUrl}#${id}`);
}

function offeredList(state: OfferMemory, accountUrl: string, id: number): string[] {
  const list = state.get<unknown>(OFFERED_KEY);
  const known = Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string' && entry.length < 2100) : [];
  const entry = `${accountUrl}#${id}`;
  return [...known.filter((other) => other !== entry), entry].slice(-OFFERED_KEPT);
}
