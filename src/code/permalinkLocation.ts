/**
 * Links to lines of a file on a Git host, read back: the forms `buildPermalink` writes, and the
 * same forms pasted from the hosts (a branch instead of a commit, GitHub's columns). No vscode import.
 * The host kind is told by the link's shape, not its host name, so self-hosted servers are read too;
 * the caller keeps the links whose repository is its own (`sameRepository`).
 */
import type { RemoteRepo } from './permalink';

export interface PermalinkLocation {
  repository: RemoteRepo;
  /** The commit, branch or tag the link is at. */
  ref: string;
  /** Repository-relative, forward slashes, decoded. */
  path: string;
  /** 1-based, `startLine <= endLine`. */
  startLine: number;
  endLine: number;
}

const MAX_LINE = 999_999_999;

/** The repository, ref, path and lines of a link to lines of a file, or undefined for any other text. */
export function parsePermalink(text: string): PermalinkLocation | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segments = decodeAll(url.pathname.split('/').filter(Boolean));
  if (!segments) return undefined;
  const webBase = `${url.protocol}//${url.host}`;
  const fragment = url.hash.slice(1);
  const found =
    azure(webBase, segments, query(url.search)) ??
    bitbucketServer(webBase, segments, fragment, query(url.search)) ??
    byPathShape(webBase, segments, fragment);
  return found && found.path ? found : undefined;
}

/** Two repositories are the same when their web address and names are, without case (as the hosts compare them). */
export function sameRepository(a: RemoteRepo, b: RemoteRepo): boolean {
  const key = (r: RemoteRepo) => JSON.stringify([r.webBase.toLowerCase(), ...r.parts.map((p) => p.toLowerCase())]);
  return key(a) === key(b);
}

/** GitHub `o/r/blob/REF/path#L3-L7`, GitLab `g/…/r/-/blob/REF/path#L3-7`, Bitbucket `o/r/src/REF/path#lines-3:7`. */
function byPathShape(webBase: string, segments: string[], fragment: string): PermalinkLocation | undefined {
  const dash = segments.indexOf('-');
  if (dash >= 2 && segments[dash + 1] === 'blob') {
    return located(webBase, 'gitlab', segments.slice(0, dash), segments.slice(dash + 2), /^L(\d+)(?:-(\d+))?$/.exec(fragment));
  }
  if (segments[2] === 'blob')
    return located(webBase, 'github', segments.slice(0, 2), segments.slice(3), /^L(\d+)(?:C\d+)?(?:-L(\d+)(?:C\d+)?)?$/.exec(fragment));
  if (segments[2] === 'src')
    return located(webBase, 'bitbucket', segments.slice(0, 2), segments.slice(3), /^lines-(\d+)(?::(\d+))?$/.exec(fragment));
  return undefined;
}

/** Bitbucket Server: `[context/]projects/P/repos/R/browse/path?at=REF#3-7`. */
function bitbucketServer(
  webBase: string,
  segments: string[],
  fragment: string,
  params: Map<string, string>,
): PermalinkLocation | undefined {
  const at = segments.findIndex((s, i) => s === 'projects' && segments[i + 2] === 'repos' && segments[i + 4] === 'browse');
  const ref = params.get('at');
  if (at < 0 || !ref) return undefined;
  const parts = [...segments.slice(0, at), segments[at + 1]!, segments[at + 3]!];
  return located(webBase, 'bitbucketServer', parts, [ref, ...segments.slice(at + 5)], /^(\d+)(?:-(\d+))?$/.exec(fragment));
}

/** Azure DevOps: `…/_git/R?path=/x&version=GC<sha>&line=3&lineEnd=7`. */
function azure(webBase: string, segments: string[], params: Map<string, string>): PermalinkLocation | undefined {
  const at = segments.indexOf('_git');
  if (at < 0 || segments.length !== at + 2) return undefined;
  const version = /^G[CBT](.+)$/.exec(params.get('version') ?? '');
  const path = params.get('path');
  if (!version || !path) return undefined;
  const lines = /^(\d+)$/.exec(params.get('line') ?? '');
  const end = /^(\d+)$/.exec(params.get('lineEnd') ?? '');
  const range = lines && [lines[0], lines[1], end?.[1]];
  return located(webBase, 'azure', [...segments.slice(0, at), segments[at + 1]!], [version[1]!, ...path.split('/').filter(Boolean)], range);
}

function located(
  webBase: string,
  kind: RemoteRepo['kind'],
  parts: string[],
  refAndPath: string[],
  lines: readonly (string | undefined)[] | null,
): PermalinkLocation | undefined {
  const [ref, ...path] = refAndPath;
  if (!lines || !ref || path.length === 0) return undefined;
  const start = Number(lines[1]);
  const end = lines[2] === undefined ? start : Number(lines[2]);
  if (!(start >= 1 && end >= 1 && start <= MAX_LINE && end <= MAX_LINE)) return undefined;
  return {
    repository: { kind, webBase, parts },
    ref,
    path: path.join('/'),
    startLine: Math.min(start, end),
    endLine: Math.max(start, end),
  };
}

/** The query's parameters, percent-decoded; `+` stays a plus, as in the links `buildPermalink` writes. */
function query(search: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s);
    const decoded = decodeAll([name, value]);
    if (decoded && !params.has(decoded[0]!)) params.set(decoded[0]!, decoded[1]!);
  }
  return params;
}

function decodeAll(segments: string[]): string[] | undefined {
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
