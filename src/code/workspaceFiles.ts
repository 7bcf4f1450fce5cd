/** Which workspace files a location's path may name. No vscode import, no file system. */

/**
 * The workspace files (relative paths) that `locationPath` may name, best first: the file at
 * exactly that relative path alone; else every file that shares the longest run of trailing
 * segments with it (at least the file name), in the list's order. Segments are compared with
 * case, and without it only when nothing matches with it. Returns the files as given.
 */
export function candidateFiles(locationPath: string, workspaceFiles: readonly string[]): string[] {
  const wanted = segmentsOf(locationPath);
  if (wanted.length === 0 || wanted[wanted.length - 1] === '..') return [];
  const files = workspaceFiles.map((file) => ({ file, segments: segmentsOf(file) }));
  const exact = files.find(({ segments }) => segments.length === wanted.length && segments.every((s, i) => s === wanted[i]));
  if (exact) return [exact.file];
  for (const same of [(a: string, b: string) => a === b, (a: string, b: string) => a.toLowerCase() === b.toLowerCase()]) {
    let best = 0;
    let found: string[] = [];
    for (const { file, segments } of files) {
      const shared = sharedTail(wanted, segments, same);
      if (shared === 0 || shared < best) continue;
      if (shared > best) [best, found] = [shared, []];
      found.push(file);
    }
    if (found.length) return found;
  }
  return [];
}

function segmentsOf(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s && s !== '.');
}

function sharedTail(a: readonly string[], b: readonly string[], same: (a: string, b: string) => boolean): number {
  let n = 0;
  while (n < a.length && n < b.length && same(a[a.length - 1 - n]!, b[b.length - 1 - n]!)) n++;
  return n;
}

/** Trailing segments that must agree for a path that is not the workspace's own to name a file. */
const SURE_SEGMENTS = 2;

/**
 * The candidate files for a location (see candidateFiles), and whether they name one file surely
 * enough to open it unasked: the location's relative path is a workspace file's; or at least two
 * trailing segments (`src/app.ts`) agree with one file alone. A path from another machine
 * (`C:/Windows/win.ini`, `//server/share/win.ini`, `/etc/passwd`, `../win.ini`) that agrees with a
 * file by its name alone is never sure: the person picks.
 */
export function workspaceMatch(locationPath: string, workspaceFiles: readonly string[]): { files: string[]; sure: boolean } {
  const files = candidateFiles(locationPath, workspaceFiles);
  if (files.length !== 1) return { files, sure: false };
  const wanted = segmentsOf(locationPath);
  const found = segmentsOf(files[0]!);
  const ownPath = isWorkspaceRelative(locationPath) && found.length === wanted.length && found.every((s, i) => s === wanted[i]);
  const agreeing = sharedTail(wanted, found, (a, b) => a.toLowerCase() === b.toLowerCase());
  return { files, sure: ownPath || agreeing >= SURE_SEGMENTS };
}

/** Relative, and staying inside: not `/x`, `C:x`, `\\\\server\\x` or `../x`. */
function isWorkspaceRelative(path: string): boolean {
  const slashed = path.replace(/\\/g, '/');
  return !slashed.startsWith('/') && !/^[A-Za-z]:/.test(slashed) && !slashed.split('/').includes('..');
}
