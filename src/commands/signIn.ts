// Sign In: the command's boxes (signIn), and the typed action they end in (verifySignIn).
import vscode = require('vscode');
import { AccountUrlError, apiSettingsLink, isApiError, parseAccountUrl, tokenAccountPrefix } from '../api';
import { withSignedInNow } from '../accounts/signedIn';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { accountUrlProblem, errorText, signInErrorText } from '../ui/errorText';
import { withCancellableProgress } from '../ui/progress';
import { anyAccount, type Feature } from './feature';

const { l10n } = vscode;

const LAST_PREFIX = 'helpdesk.lastTokenPrefix';

export interface SignInInput {
  accountUrl: string;
  token: string;
}

/** Signed in; cancelled; or what is wrong, in words to show beside the token box. */
export type SignInOutcome = { signedIn: true } | { signedIn: false; problem?: string };

export function signInFeature(services: Services) {
  return {
    commands: { 'helpdesk.signIn': anyAccount(() => signIn(services)) },
    /** Signs in as the command does, without its boxes; a problem is shown as a notification. */
    action: async (input: SignInInput) => {
      const outcome = await verifySignIn(services, input);
      if (!outcome.signedIn && outcome.problem) void services.ui.error(outcome.problem);
      return outcome.signedIn;
    },
  } satisfies Feature<unknown>;
}

/** Sign In: asks for the account address, then the token, until the service takes it or the person gives up. Resolves true when signed in. */
export async function signIn(services: Services): Promise<boolean> {
  const accountUrl = await askAccountUrl(services.state);
  if (!accountUrl) return false;
  for (let problem: string | undefined; ;) {
    const token = await askToken(accountUrl, problem);
    if (!token) return false;
    const prefix = tokenAccountPrefix(token);
    if (prefix) await services.state.update(LAST_PREFIX, prefix);
    const outcome = await verifySignIn(services, { accountUrl, token });
    if (outcome.signedIn) return true;
    if (outcome.problem === undefined) return false;
    problem = outcome.problem;
  }
}

/** Checks the address and token with one call (with a progress notification) and stores them. */
export async function verifySignIn(
  { gateway, ui }: Pick<Services, 'gateway' | 'ui'>,
  { accountUrl, token }: SignInInput,
): Promise<SignInOutcome> {
  if (!token.trim()) return { signedIn: false, problem: l10n.t('Enter the API token.') };
  try {
    await withCancellableProgress(l10n.t('Signing in to {0}…', accountUrl), (signal) => gateway.signIn(accountUrl, token, signal));
    const here = withSignedInNow(
      gateway,
      (signedIn) => signedIn.url,
      () => undefined,
    )();
    const signedInTo =
      here && here !== parseAccountUrl(accountUrl)
        ? l10n.t('Signed in to {0}. This workspace uses {1}: Switch Account… uses the other here.', parseAccountUrl(accountUrl), here)
        : l10n.t('Signed in to {0}.', here ?? accountUrl);
    void ui.info(signedInTo);
    return { signedIn: true };
  } catch (error) {
    if (isApiError(error, 'cancelled')) return { signedIn: false };
    if (isApiError(error, 'auth'))
      return { signedIn: false, problem: l10n.t('The service rejected this token. Copy it again from the API settings.') };
    if (error instanceof AccountUrlError) return { signedIn: false, problem: errorText(error) };
    const why = isApiError(error) ? signInErrorText(error) : error instanceof Error ? error.message : String(error);
    return { signedIn: false, problem: l10n.t('Could not sign in: {0}', why) };
  }
}

async function askAccountUrl(state: vscode.Memento): Promise<string | undefined> {
  const configured = readSettings().accountUrl;
  const prefix = state.get<string>(LAST_PREFIX);
  const value = configured || (prefix ? `https://${prefix}.` : 'https://');
  const answer = await vscode.window.showInputBox({
    title: l10n.t('Sign In to the Helpdesk (1/2)'),
    prompt: l10n.t('The address of your account, as in your browser.'),
    placeHolder: 'https://yourcompany.example.com',
    value,
    valueSelection: [value.length, value.length],
    ignoreFocusOut: true,
    validateInput: (text) => accountUrlProblem(text),
  });
  return answer === undefined ? undefined : parseAccountUrl(answer);
}
/** A password box with a button that opens the page where the token is found. */
function askToken(accountUrl: string, problem: string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    const settingsButton: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('link-external'),
      tooltip: l10n.t('Open the API settings, where the token is'),
    };
    box.title = l10n.t('Sign In to the Helpdesk (2/2)');
    box.prompt = l10n.t("Paste the API token from {0}. It is kept in VS Code's secret storage only.", apiSettingsLink(accountUrl));
    box.password = true;
    box.ignoreFocusOut = true;
    box.buttons = [settingsButton];
    box.validationMessage = problem;
    let done = false;
    box.onDidTriggerButton(() => void vscode.env.openExternal(vscode.Uri.parse(apiSettingsLink(accountUrl))));
    box.onDidChangeValue(() => (box.validationMessage = undefined));
    box.onDidAccept(() => {
      done = true;
      resolve(box.value.trim() || undefined);
      box.hide();
    });
    box.onDidHide(() => {
      if (!done) resolve(undefined);
      box.dispose();
    });
    box.show();
  });
}
