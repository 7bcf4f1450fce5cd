import vscode = require('vscode');
import type { Post } from '../api';
import { codePlaces, openAtOnce, openPlace, type CodePlace } from '../editor/codePlaces';
import type { SignedIn } from '../accounts/signedIn';
import type { Services } from '../services';
import { contentText } from '../text/contentText';
import { labelText, pickText } from '../text/serverText';
import { accountOfPost, branchPost, pickPost } from './prompts';
import { targetPost } from './targets';

const { l10n } = vscode;

/**
 * Go to Code on a post (its row, its document, a hover, or a pick): the code its content points
 * at. One place opens at once; several, or a file that only shares a name with a path from
 * another machine, are offered in a list, with those not in this workspace listed but not opened.
 */
export async function goToCode(services: Services, signedIn: SignedIn | undefined, arg: unknown): Promise<void> {
  const target = targetPost(arg);
  const account = await accountOfPost(services, signedIn, target?.accountUrl);
  if (!account) return;
  const post: Post | undefined = target
    ? (target.node?.post ??
      (await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Loading #{0}…', target.id) }, () =>
        account.post(target.id),
      )))
    : await pickPost(services.gateway, l10n.t('Go to Code'), await branchPost(services));
  if (!post) return;
  const places = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Looking for the code of #{0}…', post.id) },
    (_progress, token) => codePlaces(contentText(post).text, token),
  );
  if (places.length === 0) {
    void services.ui.info(l10n.t("#{0} names no code: no file and lines, no link to this repository's code and no stack trace.", post.id));
    return;
  }
  const chosen = openAtOnce(places) ?? (await pick(post, places));
  if (!chosen) return;
  if (!chosen.file) {
    void services.ui.info(l10n.t('{0} is not in this workspace.', labelText(chosen.location.path, 200)));
    return;
  }
  await openPlace(chosen.file, chosen.location);
}

async function pick(post: Post, places: CodePlace[]): Promise<CodePlace | undefined> {
  const source = { report: l10n.t('the report'), permalink: l10n.t('a link to the code'), frame: l10n.t('a stack trace') };
  const items = places.map((place) => {
    const { location, file, sure } = place;
    const lines = location.endLine ? `${location.startLine}–${location.endLine}` : `${location.startLine}`;
    const path = file ? vscode.workspace.asRelativePath(file, true) : pickText(location.path, 200);
    return {
      label: `$(${file ? 'file-code' : 'circle-slash'}) ${path}:${lines}`,
      description: !file
        ? l10n.t('not in this workspace')
        : sure
          ? source[location.source]
          : l10n.t('{0} names {1}; this file shares its name', source[location.source], pickText(location.path, 80)),
      place,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Go to Code: #{0} {1}', post.id, labelText(post.title, 60)),
    placeHolder: l10n.t('The places #{0} points at', post.id),
  });
  return picked?.place;
}
