import vscode = require('vscode');
import type { Gateway } from '../gateway/gateway';
import { targetRecord } from './targets';

/** The web app page of what a command was run on, or undefined for what has none. */
function webLinkOf(gateway: Gateway, arg: unknown): string | undefined {
  const record = targetRecord(arg);
  return record && gateway.account?.link(record.resource, record.id);
}

export async function openInBrowser(gateway: Gateway, arg: unknown): Promise<void> {
  const link = webLinkOf(gateway, arg);
  if (link) await vscode.env.openExternal(vscode.Uri.parse(link));
}

export async function copyLink(gateway: Gateway, arg: unknown): Promise<void> {
  const link = webLinkOf(gateway, arg);
  if (!link) return;
  await vscode.env.clipboard.writeText(link);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Link copied: {0}', link), 3000);
}
