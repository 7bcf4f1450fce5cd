import vscode = require('vscode');
import { AccountUrlError, isApiError, parseAccountUrl } from '../api';
import type { Services } from '../services';
import { errorText, signInErrorText } from '../ui/errorText';
import { withCancellableProgress } from '../ui/progress';

const { l10n } = vscode;

export interface SignInInput {
  accountUrl: string;
  token: string;
}

/** Signed in; cancelled; or what is wrong, in words to show beside the token box. */
export type SignInOutcome = { signedIn: true } | { signedIn: false; problem?: string };

/** Checks the address and token with one call (with a progress notification) and stores them. */
export async function signIn({ gateway, ui }: Pick<Services, 'gateway' | 'ui'>, { accountUrl, token }: SignInInput): Promise<SignInOutcome> {
  if (!token.trim()) return { signedIn: false, problem: l10n.t('Enter the API token.') };
  try {
    await withCancellableProgress(l10n.t('Signing in to {0}…', accountUrl), (signal) => gateway.signIn(accountUrl, token, signal));
    const here = gateway.account?.url;
    const signedInTo = here && here !== parseAccountUrl(accountUrl) ? l10n.t('Signed in to {0}. This workspace uses {1}: Switch Account… uses the other here.', parseAccountUrl(accountUrl), here) : l10n.t('Signed in to {0}.', here ?? accountUrl);
    void ui.info(signedInTo);
    return { signedIn: true };
  } catch (error) {
    if (isApiError(error, 'cancelled')) return { signedIn: false };
    if (isApiError(error, 'auth')) return { signedIn: false, problem: l10n.t('The service rejected this token. Copy it again from the API settings.') };
    if (error instanceof AccountUrlError) return { signedIn: false, problem: errorText(error) };
    const why = isApiError(error) ? signInErrorText(error) : error instanceof Error ? error.message : String(error);
    return { signedIn: false, problem: l10n.t('Could not sign in: {0}', why) };
  }
}
