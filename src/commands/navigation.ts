import vscode = require('vscode');
import { webLink } from '../api/address';
import type { Session } from '../auth/session';
import type { Gateway } from '../gateway/gateway';
import { accountAt, hostOf } from '../views/postUri';
import { targetPost, targetRecord } from './targets';

/**
 * The web app page of what a command was run on, or undefined for what has none: of the
 * account its document was read from (see `postUri`), while signed in to it.
 */
async function webLinkOf(gateway: Gateway, session: Session, arg: unknown): Promise<string | undefined> {
  const record = targetRecord(arg);
  const here = gateway.account;
  if (!record || !here) return undefined;
  const host = targetPost(arg)?.accountHost;
  if (host === undefined || host === hostOf(here.url)) return here.link(record.resource, record.id);
  const there = accountAt(host, here.url, await session.signedInAccounts());
  return there && webLink(there, record.resource, record.id);
}

export async function openInBrowser(gateway: Gateway, session: Session, arg: unknown): Promise<void> {
  const link = await webLinkOf(gateway, session, arg);
  if (link) await vscode.env.openExternal(vscode.Uri.parse(link));
}

export async function copyLink(gateway: Gateway, session: Session, arg: unknown): Promise<void> {
  const link = await webLinkOf(gateway, session, arg);
  if (!link) return;
  await vscode.env.clipboard.writeText(link);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Link copied: {0}', link), 3000);
}
