import type { Deal } from '../api';
import { workspaceRepository } from '../code/gitLocation';
import type { Account } from '../account/account';

export type LinkDealInput =
  /** An existing deal, moved to the client… */
  | { clientId: number; dealId: number }
  /** …or a new one made for it. */
  | { clientId: number; newDeal: { name: string; price?: number } };

/** Links a deal to a client. A new deal names the workspace's repository in `external_ids`. */
export async function linkDeal(account: Account, input: LinkDealInput): Promise<Deal> {
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
