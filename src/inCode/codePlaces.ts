import vscode = require('vscode');
import { findContentLocations, type ContentLocation } from '../code/contentLocations';
import { workspaceRepository } from '../code/gitLocation';
import { repoWebUrl } from '../code/permalink';
import { candidateFiles } from '../code/workspaceFiles';

/** Files looked at per location name: enough for a monorepo's many `index.ts`. */
const MOST_FILES = 500;

/** A location a post's content names, and the workspace file it is in (none when the workspace has no such file). */
export interface CodePlace {
  location: ContentLocation;
  file?: vscode.Uri;
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
    const files = await filesNamed(location.path, token);
    if (files.length === 0) places.push({ location });
    for (const file of files) places.push({ location, file });
  }
  return [...places.filter((p) => p.file), ...places.filter((p) => !p.file)];
}

async function filesNamed(path: string, token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const name = path.split('/').pop();
  if (!name || !vscode.workspace.workspaceFolders?.length) return [];
  const found = await vscode.workspace.findFiles(`**/${name.replace(/[[\]{}*?!]/g, '[$&]')}`, '**/node_modules/**', MOST_FILES, token);
  const relative = found.map((uri) => vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/'));
  return candidateFiles(path, relative).map((file) => found[relative.indexOf(file)]!);
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
