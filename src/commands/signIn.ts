import vscode = require('vscode');
import { apiSettingsLink, parseAccountUrl, tokenAccountPrefix } from '../api';
import { signIn as verify } from '../actions/signIn';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { accountUrlProblem } from '../ui/errorText';

const { l10n } = vscode;

const LAST_PREFIX = 'helpdesk.lastTokenPrefix';

/** Sign In: asks for the account address, then the token, until the service takes it or the person gives up. Resolves true when signed in. */
export async function signIn(services: Services): Promise<boolean> {
  const accountUrl = await askAccountUrl(services.state);
  if (!accountUrl) return false;
  for (let problem: string | undefined; ; ) {
    const token = await askToken(accountUrl, problem);
    if (!token) return false;
    const prefix = tokenAccountPrefix(token);
    if (prefix) await services.state.update(LAST_PREFIX, prefix);
    const outcome = await verify(services, { accountUrl, token });
    if (outcome.signedIn) return true;
    if (outcome.problem === undefined) return false;
    problem = outcome.problem;
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
