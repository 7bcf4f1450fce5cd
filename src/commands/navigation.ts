import vscode = require('vscode');
import { webLink } from '../api/address';
import type { Session } from '../accounts/session';
import type { SignedIn } from '../accounts/signedIn';
import { accountOf } from '../views/postUri';
import { targetPost, targetRecord } from './targets';

/**
 * The web app page of what a command was run on, or undefined for what has none: of the
 * account its document names (see `postUri`) while signed in to it, else this window's.
 */
async function webLinkOf(here: SignedIn | undefined, session: Session, arg: unknown): Promise<string | undefined> {
  const record = targetRecord(arg);
  if (!record) return undefined;
  const named = targetPost(arg)?.accountUrl;
  if (named === undefined) return here?.account.link(record.resource, record.id);
  const url = accountOf({ accountUrl: named }, here?.url, await session.signedInAccounts());
  return url && webLink(url, record.resource, record.id);
}

export async function openInBrowser(here: SignedIn | undefined, session: Session, arg: unknown): Promise<void> {
  const link = await webLinkOf(here, session, arg);
  if (link) await vscode.env.openExternal(vscode.Uri.parse(link));
}

export async function copyLink(here: SignedIn | undefined, session: Session, arg: unknown): Promise<void> {
  const link = await webLinkOf(here, session, arg);
  if (!link) return;
  await vscode.env.clipboard.writeText(link);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Link copied: {0}', link), 3000);
}
