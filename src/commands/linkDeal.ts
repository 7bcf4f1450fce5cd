import vscode = require('vscode');
import type { Client, Deal, HelpdeskClient } from '../api';
import type { Session } from '../auth/session';
import type { HelpdeskStore } from '../store/helpdeskStore';
import { ClientNode } from '../views/nodes';
import { labelText } from '../views/text';
import { ensureSignedIn, pickClient } from './prompts';
import { notify } from '../notify';

const { l10n } = vscode;

export interface LinkDealArgs {
  clientId: number;
  /** An existing deal to link to the client… */
  dealId?: number;
  /** …or a new one to create for it. */
  newDeal?: { name: string; price?: number };
}

/**
 * Links a deal to a client: one of the client's deals, a deal without a client, or a new one
 * (with the workspace's repository in `external_ids`). With `LinkDealArgs` it asks nothing.
 */
export async function linkDeal(
  deps: { session: Session; store: HelpdeskStore; repository: () => Promise<string | undefined> },
  target?: unknown,
): Promise<Deal | undefined> {
  const { session, store } = deps;
  if (!(await ensureSignedIn(() => !!session.client))) return undefined;
  const api = session.client!;
  const args = isLinkDealArgs(target) ? target : undefined;
  const client = args ? await api.clients.get(args.clientId) : target instanceof ClientNode ? target.client : await pickClient(store, l10n.t('Link Deal: to which client?'));
  if (!client) return undefined;

  let choice: { deal: Deal } | { create: { name: string; price?: number } } | undefined;
  if (args?.dealId !== undefined) choice = { deal: await api.deals.get(args.dealId) };
  else if (args?.newDeal) choice = { create: args.newDeal };
  else choice = await pickDeal(api, client);
  if (!choice) return undefined;

  const deal = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Linking the deal…') }, async () => {
    if ('deal' in choice) {
      if (choice.deal.client_id === client.id) return choice.deal;
      return api.deals.update(choice.deal.id, { client_id: client.id });
    }
    const repository = await deps.repository();
    return api.deals.create({
      name: choice.create.name,
      client_id: client.id,
      ...(choice.create.price !== undefined ? { price: choice.create.price } : {}),
      ...(repository ? { external_ids: { repository } } : {}),
    });
  });
  store.invalidateDeals();
  const name = labelText(client.name) || `#${client.id}`;
  void notify.info(l10n.t('Deal "{0}" is linked to {1}.', labelText(deal.name) || `#${deal.id}`, name));
  return deal;
}

async function pickDeal(api: HelpdeskClient, client: Client): Promise<{ deal: Deal } | { create: { name: string; price?: number } } | undefined> {
  type Item = vscode.QuickPickItem & { deal?: Deal; create?: true };
  const items = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Loading deals…') }, async () => {
    const own: Deal[] = [];
    const free: Deal[] = [];
    for await (const page of api.deals.pages({ perPage: 100 })) {
      for (const deal of page) {
        if (deal.client_id === client.id) own.push(deal);
        else if (deal.client_id === null || deal.client_id === undefined) free.push(deal);
      }
    }
    const item = (deal: Deal, linked: boolean): Item => ({
      label: `${linked ? '$(check) ' : ''}${labelText(deal.name) || `#${deal.id}`}`,
      description: [`#${deal.id}`, deal.price !== null && deal.price !== undefined ? String(deal.price) : ''].filter(Boolean).join(' · '),
      deal,
    });
    const name = labelText(client.name, 40);
    return [
      { label: `$(add) ${l10n.t('New Deal…')}`, create: true } as Item,
      { label: l10n.t('deals of {0}', name), kind: vscode.QuickPickItemKind.Separator } as Item,
      ...own.map((d) => item(d, true)),
      { label: l10n.t('deals without a client'), kind: vscode.QuickPickItemKind.Separator } as Item,
      ...free.map((d) => item(d, false)),
    ];
  });
  const picked = await vscode.window.showQuickPick(items, { title: l10n.t('Link Deal to {0}', labelText(client.name, 60)), matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.deal) return { deal: picked.deal };
  const name = await vscode.window.showInputBox({
    title: l10n.t('New Deal (1/2)'),
    prompt: l10n.t('The deal\'s name.'),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : l10n.t('A deal needs a name.')),
  });
  if (name === undefined) return undefined;
  const price = await vscode.window.showInputBox({
    title: l10n.t('New Deal (2/2)'),
    prompt: l10n.t('Its price (optional), e.g. 1200 or 1200.50.'),
    ignoreFocusOut: true,
    validateInput: (value) => (!value.trim() || parsePrice(value) !== undefined ? undefined : l10n.t('Enter a number, like 1200.50, or nothing.')),
  });
  if (price === undefined) return undefined;
  return { create: { name: name.trim(), price: parsePrice(price) } };
}

/** "1 200,50" and "1200.50" are both 1200.5; anything else is undefined. */
export function parsePrice(text: string): number | undefined {
  const compact = text.trim().replace(/[\s_]/g, '');
  if (!/^\d+(?:[.,]\d{1,4})?$/.test(compact)) return undefined;
  return Number(compact.replace(',', '.'));
}

function isLinkDealArgs(value: unknown): value is LinkDealArgs {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.TreeItem) && typeof (value as LinkDealArgs).clientId === 'number';
}
