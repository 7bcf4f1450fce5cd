// Report Bug: the command's prompts (reportBug), and the typed action they end in (fileBug).
import vscode = require('vscode');
import type { Post } from '../api';
import { buildBugReportContent, suggestTitle } from '../code/bugReport';
import { lookUpCode, selectedCode, selectedLines, type DocumentCode } from './documentCode';
import { askText, signInFirst } from './prompts';
import type { NewDraft } from '../drafts/drafts';
import { formatDraftDocument } from '../drafts/draftDocument';
import type { Account } from '../api/account';
import type { Services, WriteServices } from '../services';
import { withSignedIn, type SignedIn } from '../accounts/signedIn';
import { deliver, type Delivery } from './deliver';
import { notSignedIn, type Feature } from './feature';

const { l10n } = vscode;

export interface BugInput extends DocumentCode {
  title: string;
  description?: string;
}

export function reportBugFeature(services: Services) {
  // Signed out, the editor is looked at first: asked to sign in only once there is code to report.
  const command = { signedIn: (signedIn: SignedIn) => reportBug(services, signedIn), signedOut: () => reportBug(services, undefined) };
  return {
    commands: {
      'helpdesk.reportBug': command,
      'helpdesk.reportBugFromEditor': command,
    },
    /** Report Bug on the active editor's selection, with this title. */
    action: withSignedIn(
      services.gateway,
      async (signedIn, { title, description }: { title: string; description?: string }) => {
        const editor = vscode.window.activeTextEditor;
        if (!editor) throw new Error('No active editor.');
        return fileBug(services, signedIn.account, { ...(await selectedCode(editor, services.log).code), title, description });
      },
      notSignedIn,
    ),
  } satisfies Feature<unknown>;
}

/**
 * Report Bug: about the selected lines (or the cursor's line) of the active editor. Suggests a
 * title; Enter files it, the box's button opens the whole report to edit first.
 */
export async function reportBug(services: Services, signedIn: SignedIn | undefined): Promise<Post | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void services.ui.info(l10n.t('Open a file and select the code the bug is about, then run Report Bug again.'));
    return undefined;
  }
  const account = (signedIn ?? (await signInFirst(services)))?.account;
  if (!account) return undefined;
  const selection = selectedLines(editor);
  const lines = selection.startLine === selection.endLine ? `${selection.startLine}` : `${selection.startLine}–${selection.endLine}`;
  const asked = askText({
    title: l10n.t('Report Bug: {0}:{1}', selection.relativePath, lines),
    prompt: l10n.t('A title for the bug. Enter files it with the code; the button opens the whole report to edit first.'),
    value: suggestTitle(selection),
    editorTooltip: l10n.t('Edit the whole report before filing it'),
    validate: (value) => (value.trim() ? undefined : l10n.t('A bug needs a title.')),
  });
  // Looked up in Git while the title is asked (the person types; the lookup is done by Enter), once
  // the box is on its way: the extension host sends what the box shows on a timer of its own, and
  // the lookup's work (Git's processes started, the window's progress) would otherwise go first.
  const code = new Promise((resolve) => setTimeout(resolve, 0)).then(() => lookUpCode(editor.document, selection, services.log));
  code.catch(() => undefined); // a lookup of a report cancelled: its failure is nobody's
  const answer = await asked;
  if (!answer) return undefined;
  return fileBug(services, account, { ...(await code), title: answer.value }, answer.action === 'editor' ? 'edit' : 'send');
}

/** Files a post of kind `error` about some code: path, lines, language, the code, and the permalink. */
export async function fileBug(
  services: WriteServices,
  account: Account,
  input: BugInput,
  delivery: Delivery = 'send',
): Promise<Post | undefined> {
  return deliver(services, bugDraft(account, input), delivery);
}

/** The draft of a bug report about some code. */
export function bugDraft(account: Account, { title, description, selection, location, maxLines }: BugInput): NewDraft {
  return {
    kind: 'bug',
    text: formatDraftDocument(title, buildBugReportContent({ description, selection, location, maxLines })),
    accountUrl: account.url,
    target: `${selection.relativePath}:${selection.startLine}`,
  };
}
