import vscode = require('vscode');
import { findContentLocations, type ContentLocation } from '../code/contentLocations';
import { workspaceRepository } from '../code/gitLocation';
import { repoWebUrl } from '../code/permalink';
import { workspaceMatch } from '../code/workspaceFiles';

/** Files looked at per location name: enough for a monorepo's many `index.ts`. */
const MOST_FILES = 500;

/** A location a post's content names, and the workspace file it is in (none when the workspace has no such file). */
export interface CodePlace {
  location: ContentLocation;
  file?: vscode.Uri;
  /** Whether `file` is surely the one meant (see workspaceMatch); else it is only offered, to pick. */
  sure?: boolean;
}

/**
 * The places in the workspace that a post's content points at: the file and lines Report Bug
 * wrote, permalinks to this workspace's repository (others are left out), and stack-trace
 * frames. Places in the workspace come first, in the content's order.
 */
export async function codePlaces(content: unknown, token?: vscode.CancellationToken): Promise<CodePlace[]> {
  const locations = findContentLocations(typeof content === 'string' ? content : '');
  const repository = locations.some((l) => l.repository) ? (await workspaceRepository())?.toLowerCase() : undefined;
  const wanted = locations.filter((l) => !l.repository || repoWebUrl(l.repository).toLowerCase() === repository);
  const seen = new Set<string>();
  const places: CodePlace[] = [];
  for (const location of wanted) {
    // A report's file line and its own permalink name the same lines once.
    const key = `${location.path}:${location.startLine}-${location.endLine ?? location.startLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { files, sure } = await filesNamed(location.path, token);
    if (files.length === 0) places.push({ location });
    for (const file of files) places.push({ location, file, sure });
  }
  return [...places.filter((p) => p.file), ...places.filter((p) => !p.file)];
}

async function filesNamed(path: string, token?: vscode.CancellationToken): Promise<{ files: vscode.Uri[]; sure: boolean }> {
  const name = path.split('/').pop();
  if (!name || !vscode.workspace.workspaceFolders?.length) return { files: [], sure: false };
  const found = await vscode.workspace.findFiles(`**/${name.replace(/[[\]{}*?!]/g, '[$&]')}`, '**/node_modules/**', MOST_FILES, token);
  const relative = found.map((uri) => vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/'));
  const { files, sure } = workspaceMatch(path, relative);
  return { files: files.map((file) => found[relative.indexOf(file)]!), sure };
}

/**
 * The place Go to Code opens (or tells is not here) without asking: the only one, when it is not
 * in the workspace or its file is surely the one meant. Otherwise the person picks.
 */
export function openAtOnce(places: readonly CodePlace[]): CodePlace | undefined {
  const only = places.length === 1 ? places[0] : undefined;
  return only && (!only.file || only.sure) ? only : undefined;
}

/** Opens a place's file with its lines selected. */
export async function openPlace(file: vscode.Uri, { startLine, endLine, column }: ContentLocation): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(file);
  const last = document.lineCount - 1;
  const start = Math.min(startLine - 1, last);
  const end = Math.min((endLine ?? startLine) - 1, last);
  const selection =
    endLine === undefined && column !== undefined
      ? new vscode.Range(start, column - 1, start, column - 1)
      : new vscode.Range(start, 0, end, document.lineAt(end).text.length);
  return vscode.window.showTextDocument(document, { selection, preview: false });
}
