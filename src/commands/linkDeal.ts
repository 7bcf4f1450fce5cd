// Link Deal: the command's prompts (linkDeal), and the typed action they end in (linkDealTo).
import vscode = require('vscode');
import type { Client, Deal } from '../api';
import { workspaceRepository } from '../code/gitLocation';
import { pickClient } from './prompts';
import { targetClient } from './targets';
import type { Account } from '../api/account';
import type { Services } from '../services';
import { byName } from '../store/helpdeskStore';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { needsAccount, notSignedIn, type Feature } from './feature';
import { labelText, pickText } from '../text/serverText';

const { l10n } = vscode;

export type LinkDealInput =
  /** An existing deal, moved to the client… */
  | { clientId: number; dealId: number }
  /** …or a new one made for it. */
  | { clientId: number; newDeal: { name: string; price?: number } };

export function linkDealFeature(services: Services) {
  return {
    commands: { 'helpdesk.linkDeal': needsAccount(services, (signedIn, arg) => linkDeal(services, signedIn, arg)) },
    action: withSignedIn(services.gateway, ({ account }, input: LinkDealInput) => linkDealTo(account, input), notSignedIn),
  } satisfies Feature<unknown>;
}

/** Link Deal: to the client's row it was run on, or a client picked from a list; then one of its deals, a free one, or a new one. */
export async function linkDeal(services: Services, { account }: SignedIn, arg: unknown): Promise<Deal | undefined> {
  const client = targetClient(arg) ?? (await pickClient(services.gateway, l10n.t('Link Deal: to which client?')));
  if (!client) return undefined;
  const choice = await pickDeal(account, client);
  if (!choice) return undefined;
  const name = labelText(client.name) || `#${client.id}`;
  if ('linked' in choice) {
    void services.ui.info(l10n.t('Deal "{0}" is linked to {1}.', labelText(choice.linked.name) || `#${choice.linked.id}`, name));
    return choice.linked;
  }
  const deal = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: l10n.t('Linking the deal…') },
    () => linkDealTo(account, choice),
  );
  void services.ui.info(l10n.t('Deal "{0}" is linked to {1}.', labelText(deal.name) || `#${deal.id}`, name));
  return deal;
}

/** A deal to link: one of the client's own (linked already), one without a client, or a new one. */
async function pickDeal(account: Account, client: Client): Promise<LinkDealInput | { linked: Deal } | undefined> {
  type Item = vscode.QuickPickItem & { deal?: Deal; create?: true };
  const items = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Loading deals…') },
    async () => {
      const deals = (await account.deals()).sort(byName);
      const own = deals.filter((deal) => deal.client_id === client.id);
      // Only a deal the service says has no client: one whose client_id could not be read may have one.
      const free = deals.filter((deal) => deal.client_id === null);
      const item = (deal: Deal, linked: boolean): Item => ({
        label: `${linked ? '$(check) ' : ''}${pickText(deal.name) || `#${deal.id}`}`,
        description: [`#${deal.id}`, pickText(deal.price, 40)].filter(Boolean).join(' · '),
        deal,
      });
      const name = labelText(client.name, 40);
      const rows: Item[] = [
        { label: `$(add) ${l10n.t('New Deal…')}`, create: true },
        { label: l10n.t('deals of {0}', name), kind: vscode.QuickPickItemKind.Separator },
        ...own.map((d) => item(d, true)),
        { label: l10n.t('deals without a client'), kind: vscode.QuickPickItemKind.Separator },
        ...free.map((d) => item(d, false)),
      ];
      return rows;
    },
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Link Deal to {0}', labelText(client.name, 60)),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.deal) return picked.deal.client_id === client.id ? { linked: picked.deal } : { clientId: client.id, dealId: picked.deal.id };
  const name = await vscode.window.showInputBox({
    title: l10n.t('New Deal (1/2)'),
    prompt: l10n.t("The deal's name."),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : l10n.t('A deal needs a name.')),
  });
  if (name === undefined) return undefined;
  const price = await vscode.window.showInputBox({
    title: l10n.t('New Deal (2/2)'),
    prompt: l10n.t('Its price (optional), e.g. 1200 or 1200.50.'),
    ignoreFocusOut: true,
    validateInput: (value) =>
      !value.trim() || parsePrice(value) !== undefined ? undefined : l10n.t('Enter a number, like 1200.50, or nothing.'),
  });
  if (price === undefined) return undefined;
  return { clientId: client.id, newDeal: { name: name.trim(), price: parsePrice(price) } };
}

/** Links a deal to a client. A new deal names the workspace's repository in `external_ids`. */
export async function linkDealTo(account: Account, input: LinkDealInput): Promise<Deal> {
  if ('dealId' in input) return account.linkDeal(input.dealId, input.clientId);
  const { name, price } = input.newDeal;
  const repository = await workspaceRepository();
  return account.createDeal({
    name,
    client_id: input.clientId,
    ...(price !== undefined ? { price } : {}),
    ...(repository ? { external_ids: { repository } } : {}),
  });
}

/** "1 200,50" and "1200.50" are both 1200.5; anything else is undefined. */
export function parsePrice(text: string): number | undefined {
  const compact = text.trim().replace(/[\s_]/g, '');
  if (!/^\d+(?:[.,]\d{1,4})?$/.test(compact)) return undefined;
  return Number(compact.replace(',', '.'));
}
