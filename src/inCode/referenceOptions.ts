import { parseAccountUrl } from '../api/address';
import type { ReferenceOptions } from '../code/postReferences';
import { readSettings, type Settings } from '../settings';

/**
 * What counts as a post reference now, from the settings and the accounts signed in to (no
 * call); undefined when references are off.
 */
export function referenceOptions(settings: Settings = readSettings(), otherAccountUrls: readonly string[] = []): ReferenceOptions | undefined {
  if (!settings.references) return undefined;
  let accountUrl: string | undefined;
  try {
    const address = settings.workspaceAccount || settings.accountUrl; // this window's account (see Session.restore)
    accountUrl = address ? parseAccountUrl(address) : undefined;
  } catch {
    accountUrl = undefined; // an address it cannot use names no posts
  }
  return { accountUrl, otherAccountUrls: otherAccountUrls.filter((url) => url !== accountUrl), prefix: settings.referencePrefix || undefined };
}
