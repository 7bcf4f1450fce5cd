import vscode = require('vscode');
import type { Identity, Me } from '../accounts/identity';
import { usersSeen, type SeenUser } from '../accounts/usersSeen';
import { withSignedInNow } from '../accounts/signedIn';
import type { Services } from '../services';
import { pickText } from '../text/serverText';
import { userText } from '../text/postFacts';

const { l10n } = vscode;

/** What an item of the pick stands for: a user id (with the nick the posts gave), or forgetting. */
export type WhoChoice = { id: number; nick?: string } | 'forget';
export type WhoItem = vscode.QuickPickItem & { choice?: WhoChoice };

/** A user id as a person types it: digits, a positive whole number. */
export function typedUserId(value: string): number | undefined {
  const text = value.trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The items of Set Who I Am…: the users the loaded posts name (the nick as text, never an
 * icon), the id typed when it is none of them, and, when "me" is known, forgetting it.
 */
export function whoIAmItems(seen: readonly SeenUser[], me: Me | undefined, typed: string): WhoItem[] {
  const items: WhoItem[] = [];
  const typedId = typedUserId(typed);
  if (typedId !== undefined && !seen.some((user) => user.id === typedId)) {
    items.push({
      label: `$(account) ${l10n.t('User {0}', typedId)}`,
      description: l10n.t('the user id you typed'),
      alwaysShow: true,
      choice: { id: typedId },
    });
  }
  for (const user of seen) {
    const nick = pickText(user.nick, 60);
    const facts = [
      user.wrote > 0 ? l10n.t('wrote {0} of the loaded posts', user.wrote) : undefined,
      user.assigned > 0 ? l10n.t('assigned {0} of them', user.assigned) : undefined,
    ].filter(Boolean);
    items.push({
      label: `$(account) ${nick || l10n.t('User {0}', user.id)}`,
      description: [nick ? userText(user.id) : undefined, me?.id === user.id ? l10n.t('you, now') : undefined].filter(Boolean).join(' · '),
      detail: facts.join(' · '),
      choice: user.nick === undefined ? { id: user.id } : { id: user.id, nick: user.nick },
    });
  }
  if (me)
    items.push({
      label: `$(close) ${l10n.t('Forget Who I Am')}`,
      description: l10n.t('learned again from the next post you file'),
      alwaysShow: true,
      choice: 'forget',
    });
  return items;
}

/**
 * Helpdesk: Set Who I Am… — who the person is in the signed-in account, for Assigned to Me and
 * Filed by Me: one of the users the loaded posts name, or a user id typed. A user id passed as
 * the argument is set without asking. Kept on this machine only (see Identity).
 */
export async function setWhoIAm(
  services: Pick<Services, 'session' | 'gateway' | 'log' | 'ui'>,
  identity: Identity,
  arg: unknown,
): Promise<void> {
  const accountUrl = services.session.accountUrl;
  if (!accountUrl) {
    void services.ui.info(l10n.t('Sign in first: who you are is kept for each account.'));
    return;
  }
  const seen = usersSeen(
    withSignedInNow(
      services.gateway,
      ({ store }) => store.posts.state.items,
      () => [],
    )(),
  );
  const given = typeof arg === 'number' && Number.isSafeInteger(arg) && arg > 0 ? arg : undefined;
  const choice =
    given === undefined ? await pick(seen, identity.me(accountUrl)) : { id: given, nick: seen.find((user) => user.id === given)?.nick };
  if (!choice) return;
  if (choice === 'forget') {
    await identity.forget(accountUrl);
    services.log.info(`Who you are in ${accountUrl} is forgotten`);
    return;
  }
  await identity.set(accountUrl, choice.id, choice.nick);
  services.log.info(`Who you are in ${accountUrl}: user ${choice.id}, set by you`);
}

function pick(seen: readonly SeenUser[], me: Me | undefined): Promise<WhoChoice | undefined> {
  const box = vscode.window.createQuickPick<WhoItem>();
  box.title = l10n.t('Set Who I Am');
  box.placeholder = seen.length
    ? l10n.t('Pick yourself among the users of the loaded posts, or type your user id')
    : l10n.t('Type your user id in this account (no loaded post names a user)');
  box.matchOnDescription = true;
  box.items = whoIAmItems(seen, me, '');
  box.onDidChangeValue((value) => (box.items = whoIAmItems(seen, me, value)));
  return new Promise((resolve) => {
    let chosen: WhoChoice | undefined;
    box.onDidAccept(() => {
      chosen = box.selectedItems[0]?.choice;
      if (chosen) box.hide();
    });
    box.onDidHide(() => {
      box.dispose();
      resolve(chosen);
    });
    box.show();
  });
}
