/**
 * Code locations in a post's content: the file and lines Report Bug wrote (see bugReport.ts),
 * permalinks to lines on a Git host, and stack-trace frames in pasted text. No vscode import;
 * the file system is not asked (see workspaceFiles.ts). Returns data only, never a link.
 */
import type { RemoteRepo } from './permalink';
import { parsePermalink } from './permalinkLocation';

export interface ContentLocation {
  /** Forward slashes; as written: relative, absolute, or a Windows path such as `C:/x/y.ts`. */
  path: string;
  /** 1-based. */
  startLine: number;
  /** Only when the location spans more than one line. */
  endLine?: number;
  /** 1-based; only where a stack frame gives one. */
  column?: number;
  source: 'report' | 'permalink' | 'frame';
  /** Permalinks only: the repository and the commit (or branch) they point into. */
  repository?: RemoteRepo;
  ref?: string;
}

export const MAX_LOCATIONS = 50;
/** Only the start of a long content is read. */
export const MAX_CONTENT_CHARS = 100_000;
/** Stack frames are looked for in the start of each line only. */
const MAX_FRAME_LINE_CHARS = 2_000;
const MAX_NUMBER = 999_999_999;

/** The locations in `content`, in order of appearance, each once (equal in all but `source`), at most `MAX_LOCATIONS`. */
export function findContentLocations(content: string): ContentLocation[] {
  const found: ContentLocation[] = [];
  const seen = new Set<string>();
  for (const line of content.slice(0, MAX_CONTENT_CHARS).split(/\r\n?|\n/)) {
    for (const location of lineLocations(line)) {
      const key = JSON.stringify([
        location.path,
        location.startLine,
        location.endLine,
        location.column,
        location.repository?.webBase.toLowerCase(),
        location.repository?.parts,
        location.ref,
      ]);
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(location);
      if (found.length === MAX_LOCATIONS) return found;
    }
  }
  return found;
}

/**
 * A path as written in a location, with forward slashes and without `file://`, leading `./` or
 * doubled slashes; undefined when blank, a folder, or holding control characters.
 */
export function normalizeLocationPath(raw: string): string | undefined {
  let path = raw;
  if (/^file:\/\//i.test(path)) {
    try {
      path = decodeURIComponent(path.slice('file://'.length));
    } catch {
      return undefined;
    }
  }
  path = path
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/([A-Za-z]:\/)/, '$1');
  while (path.startsWith('./')) path = path.slice(2);
  if (!path.trim() || path.endsWith('/') || /\p{Cc}/u.test(path)) return undefined;
  return path;
}

function lineLocations(line: string): ContentLocation[] {
  const reported = reportLocation(line);
  if (reported) return [reported];
  const found: [at: number, location: ContentLocation][] = [];
  // Addresses are blanked before frames are looked for: `host:8080` and `/a.ts:3` in a URL are not frames.
  let rest = line;
  for (const url of line.matchAll(/https?:\/\/[^\s<>()[\]{}"'`|\\^]+/gi)) {
    rest = rest.slice(0, url.index) + ' '.repeat(url[0].length) + rest.slice(url.index + url[0].length);
    const link = parsePermalink(url[0].replace(/[.,;:!?*_~]+$/, ''));
    if (!link) continue;
    const { path, startLine, endLine, repository, ref } = link;
    const location = located('permalink', path, startLine, endLine);
    if (location) found.push([url.index, { ...location, repository, ref }]);
  }
  for (const [at, location] of frameLocations(rest.slice(0, MAX_FRAME_LINE_CHARS))) found.push([at, location]);
  return found.sort((a, b) => a[0] - b[0]).map(([, location]) => location);
}

/** The line `- File: `path`, lines 3–7` of a report (`inlineCode` and `lineRangeText` in bugReport.ts). */
function reportLocation(line: string): ContentLocation | undefined {
  // Bounded before the pattern runs: on a long run of backticks it would backtrack for seconds.
  if (line.length > MAX_FRAME_LINE_CHARS || !line.startsWith('- File: `')) return undefined;
  const match = /^- File: (`{1,16})(.+?)(?<!`)\1(?!`), lines? (\d{1,9})(?:[–-](\d{1,9}))?$/.exec(line);
  if (!match) return undefined;
  let path = match[2]!;
  // inlineCode pads with a space on both sides where the path would touch the fence (CommonMark strips them).
  if (path.length >= 2 && path.startsWith(' ') && path.endsWith(' ') && path.trim()) path = path.slice(1, -1);
  return located('report', path, Number(match[3]), match[4] === undefined ? undefined : Number(match[4]));
}

/** Frames with their offset in the line: the forms of a few languages, else any `path.ext:line[:column]`. */
function frameLocations(line: string): [number, ContentLocation][] {
  const python = /\bFile "([^"]+)", line (\d{1,9})/.exec(line);
  if (python) return frame(python.index, python[1]!, python[2]!);
  const csharp = /\) in (.+):line (\d{1,9})\s*$/.exec(line);
  if (csharp) return frame(csharp.index, csharp[1]!, csharp[2]!);
  const java = /\bat ([\w$.<>/]+)\(([\w$-]+\.(?:java|kt|kts|scala|groovy)):(\d{1,9})\)/.exec(line);
  if (java) return frame(java.index, javaPath(java[1]!, java[2]!), java[3]!);
  const js = jsFrame(line);
  if (js) return js;
  const found: [number, ContentLocation][] = [];
  for (const m of line.matchAll(/(?<![\w./\\@~+%:-])((?:file:\/\/)?(?:[A-Za-z]:)?[\w./\\@~+%-]+):(\d{1,9})(?::(\d{1,9}))?(?!\w)/g)) {
    if (isSourcePath(m[1]!)) found.push(...frame(m.index, m[1]!, m[2]!, m[3]));
  }
  return found;
}

/** Node's `at fn (path:line:column)` and `at path:line:column`, where the path may hold spaces. */
function jsFrame(line: string): [number, ContentLocation][] | undefined {
  const at = /^\s*at /.exec(line);
  if (!at) return undefined;
  const rest = line.slice(at[0].length).trimEnd();
  const open = rest.endsWith(')') ? rest.indexOf(' (') : -1;
  const inner = open >= 0 ? rest.slice(open + 2, -1) : rest;
  const m = /^(.+):(\d{1,9}):(\d{1,9})$/.exec(inner);
  // `node:internal/…` and `<anonymous>` are not files; a file has an extension.
  return m && !m[1]!.startsWith('node:') && /\.[A-Za-z]\w{0,9}$/.test(m[1]!)
    ? frame(line.length - rest.length, m[1]!, m[2]!, m[3])
    : undefined;
}

/** `com.acme.Cart$Line.<init>` in `Cart.java` → `com/acme/Cart.java`: the package's folders and the file. */
function javaPath(qualified: string, file: string): string {
  const names = qualified
    .slice(qualified.lastIndexOf('/') + 1)
    .split('.')
    .slice(0, -2);
  // Packages are the leading lower-case names; the first capitalised one is the class.
  const classAt = names.findIndex((name) => !/^[a-z_]/.test(name));
  return [...(classAt < 0 ? names : names.slice(0, classAt)), file].join('/');
}

/** A source file's extension for a bare name (`worker.go`); with a folder any extension will do (`a/b.conf`). */
const SOURCE_EXTENSIONS = new Set(
  'c cc cpp cxx h hh hpp cs fs vb java kt kts scala groovy clj cljs go rs swift m mm dart js mjs cjs jsx ts mts cts tsx vue svelte py rb php pl pm lua r ex exs erl hs ml sql sh bash zsh ps1 html css scss less md json yaml yml toml xml tf'.split(
    ' ',
  ),
);

function isSourcePath(path: string): boolean {
  const extension = /\.([A-Za-z]\w{0,9})$/.exec(path)?.[1];
  if (!extension) return false;
  return /[/\\]/.test(path.replace(/^file:\/\//i, '')) || SOURCE_EXTENSIONS.has(extension.toLowerCase());
}

function frame(at: number, path: string, line: string, column?: string): [number, ContentLocation][] {
  const location = located('frame', path, Number(line));
  if (!location) return [];
  const col = column === undefined ? undefined : Number(column);
  return [[at, col !== undefined && col >= 1 ? { ...location, column: col } : location]];
}

function located(source: ContentLocation['source'], rawPath: string, start: number, end = start): ContentLocation | undefined {
  const path = normalizeLocationPath(rawPath);
  if (!path || !(start >= 1 && end >= 1 && start <= MAX_NUMBER && end <= MAX_NUMBER)) return undefined;
  const [first, last] = start <= end ? [start, end] : [end, start];
  return last > first ? { path, startLine: first, endLine: last, source } : { path, startLine: first, source };
}
