import { parseAccountUrl } from '../api/address';
import type { ReferenceOptions } from '../code/postReferences';
import { readSettings, type Settings } from '../settings';

/** The accounts signed in to, as the in-code providers see them: this window's, and all. */
export interface ReferenceAccounts {
  /** This window's account (see Session.restore); undefined: the one the settings name. */
  readonly window?: string;
  readonly all: readonly string[];
}

/**
 * What counts as a post reference now, from the settings and the accounts signed in to (no
 * call); undefined when references are off. The window's account is the session's where it is
 * known: a window keeps its own account, which the settings may not name.
 */
export function referenceOptions(
  settings: Settings = readSettings(),
  accounts: ReferenceAccounts = { all: [] },
): ReferenceOptions | undefined {
  if (!settings.references) return undefined;
  let accountUrl: string | undefined;
  try {
    const address = accounts.window || settings.workspaceAccount || settings.accountUrl;
    accountUrl = address ? parseAccountUrl(address) : undefined;
  } catch {
    accountUrl = undefined; // an address it cannot use names no posts
  }
  return { accountUrl, otherAccountUrls: accounts.all.filter((url) => url !== accountUrl), prefix: settings.referencePrefix || undefined };
}
