import vscode = require('vscode');
import { accountUrlProblem, AccountUrlError, apiSettingsLink, isApiError, parseAccountUrl, tokenAccountPrefix } from '../api';
import type { Session } from '../auth/session';
import { readSettings } from '../settings';
import { notify } from '../notify';
import { withCancellableProgress } from '../progress';

const { l10n } = vscode;

export interface SignInArgs {
  accountUrl: string;
  token: string;
}

const LAST_PREFIX = 'helpdesk.lastTokenPrefix';

/**
 * Asks for the account address, then the token, checks both with one call and stores them.
 * With `{ accountUrl, token }` as arguments (automation, tests) it asks nothing.
 * Resolves true when signed in.
 */
export async function signIn(session: Session, state: vscode.Memento, args?: SignInArgs): Promise<boolean> {
  if (args && typeof args.accountUrl === 'string' && typeof args.token === 'string') {
    return verifyAndStore(session, args.accountUrl, args.token);
  }
  const accountUrl = await askAccountUrl(state);
  if (!accountUrl) return false;
  for (let problem: string | undefined; ; ) {
    const token = await askToken(accountUrl, problem);
    if (!token) return false;
    const prefix = tokenAccountPrefix(token);
    if (prefix) await state.update(LAST_PREFIX, prefix);
    const outcome = await verify(session, accountUrl, token);
    if (outcome === true) return true;
    if (outcome === false) return false;
    problem = outcome;
  }
}

async function verifyAndStore(session: Session, accountUrl: string, token: string): Promise<boolean> {
  const outcome = await verify(session, accountUrl, token);
  if (typeof outcome === 'string') void notify.error(outcome);
  return outcome === true;
}

/** True when signed in, false when cancelled, or the problem to show beside the token box. */
async function verify(session: Session, accountUrl: string, token: string): Promise<boolean | string> {
  if (!token.trim()) return l10n.t('Enter the API token.');
  try {
    await withCancellableProgress(l10n.t('Signing in to {0}…', accountUrl), (signal) => session.signIn(accountUrl, token, signal));
    void notify.info(l10n.t('Signed in to {0}.', accountUrl));
    return true;
  } catch (error) {
    if (isApiError(error, 'cancelled')) return false;
    if (isApiError(error, 'auth')) return l10n.t('The service rejected this token. Copy it again from the API settings.');
    if (error instanceof AccountUrlError) return error.message;
    const message = error instanceof Error ? error.message : String(error);
    return l10n.t('Could not sign in: {0}', message);
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
    box.prompt = l10n.t('Paste the API token from {0}. It is kept in VS Code\'s secret storage only.', apiSettingsLink(accountUrl));
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
