/**
 * Remote URLs of Git hosts, and links to lines of a file at a commit. No vscode import.
 *
 * Hosts are recognised by name: github.com, gitlab.com, bitbucket.org, dev.azure.com and
 * *.visualstudio.com. Self-hosted servers cannot be known by name, so as a best effort a host
 * whose name contains `gitlab`, `github` (or ends in `.ghe.com`) or `bitbucket` is taken to be
 * one of those, and any http(s) remote with a `/_git/` segment is taken to be Azure DevOps
 * Server. A self-hosted Bitbucket is Bitbucket Server (Data Center), which has its own links.
 */

export type HostKind = 'github' | 'gitlab' | 'bitbucket' | 'bitbucketServer' | 'azure';

export interface RemoteRepo {
  kind: HostKind;
  /** `scheme://host[:port]` of the web app (never with a user name or password). */
  webBase: string;
  /**
   * The decoded path segments that name the repository, without `.git` and `_git`:
   * github and bitbucket `[owner, repo]`; gitlab `[...groups, repo]`; bitbucketServer
   * `[...contextPath, project, repo]`; azure `[org?, collection?, project?, repo]` exactly as they
   * stand before and after `_git` in the web address.
   */
  parts: string[];
}

interface SplitUrl {
  scheme: string;
  host: string;
  port: string;
  path: string;
}

/** Splits `scheme://[userinfo@]host[:port]/path` and scp-like `[user@]host:path`, dropping the userinfo. */
function splitUrl(input: string): SplitUrl | undefined {
  const text = input.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) {
    const rest = text.slice(scheme[0].length).replace(/[?#].*$/s, '');
    // The last `@` ends the userinfo even when a password holds `/` or `@`.
    const afterUser = rest.slice(rest.lastIndexOf('@') + 1);
    const hostPort = /^(\[[^\]]+\]|[^/:]+)(?::(\d*))?(\/.*)?$/s.exec(afterUser);
    if (!hostPort) return undefined;
    return { scheme: scheme[1]!.toLowerCase(), host: hostPort[1]!.toLowerCase(), port: hostPort[2] ?? '', path: hostPort[3] ?? '' };
  }
  const scp = /^(?:[^@/]+@)?([a-z0-9.-]{2,}):(?!\/\/)(.+)$/is.exec(text);
  if (!scp) return undefined;
  return { scheme: 'ssh', host: scp[1]!.toLowerCase(), port: '', path: `/${scp[2]!}` };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function hostKind(host: string): Exclude<HostKind, 'bitbucketServer' | 'azure'> | undefined {
  if (host === 'github.com' || host === 'gitlab.com' || host === 'bitbucket.org')
    return host.split('.')[0] as 'github' | 'gitlab' | 'bitbucket';
  if (host.includes('gitlab')) return 'gitlab';
  if (host.includes('github') || host.endsWith('.ghe.com')) return 'github';
  if (host.includes('bitbucket')) return 'bitbucket';
  return undefined;
}

function parseAzure(url: SplitUrl, parts: string[]): RemoteRepo | undefined {
  const isWeb = url.scheme === 'https' || url.scheme === 'http';
  if (url.host === 'ssh.dev.azure.com' || url.host === 'vs-ssh.visualstudio.com') {
    // git@ssh.dev.azure.com:v3/org/project/repo
    if (parts[0] !== 'v3' || parts.length !== 4) return undefined;
    const [, org, project, repo] = parts as [string, string, string, string];
    return url.host === 'ssh.dev.azure.com'
      ? { kind: 'azure', webBase: 'https://dev.azure.com', parts: [org, project, repo] }
      : { kind: 'azure', webBase: `https://${org.toLowerCase()}.visualstudio.com`, parts: [project, repo] };
  }
  const at = parts.indexOf('_git');
  if (!isWeb || at < 0) return undefined;
  if (url.host === 'dev.azure.com' && at < 1) return undefined;
  // `_optimized` and `_full` are clone options that may stand between `_git` and the name.
  const after = parts.slice(at + 1).filter((p) => p !== '_optimized' && p !== '_full');
  if (after.length !== 1) return undefined;
  return { kind: 'azure', webBase: webBase(url), parts: [...parts.slice(0, at), after[0]!] };
}

function webBase(url: SplitUrl): string {
  const isWeb = url.scheme === 'https' || url.scheme === 'http';
  // An SSH port is not the web app's port, and the web app of an SSH remote is assumed to use https.
  return isWeb ? `${url.scheme}://${url.host}${url.port ? `:${url.port}` : ''}` : `https://${url.host}`;
}

/** The host and repository of a Git remote URL, or undefined for hosts and forms not supported. */
export function parseRemoteUrl(remoteUrl: string): RemoteRepo | undefined {
  const url = splitUrl(remoteUrl);
  if (!url || !['https', 'http', 'ssh', 'git+ssh', 'ssh+git', 'git'].includes(url.scheme)) return undefined;
  const parts = url.path.split('/').filter(Boolean).map(decodeSegment);
  if (parts.some((p) => p === '.' || p === '..')) return undefined;
  if (/(^|\.)dev\.azure\.com$|\.visualstudio\.com$/.test(url.host) || parts.includes('_git')) return parseAzure(url, parts);

  const kind = hostKind(url.host);
  if (!kind || parts.length < 2) return undefined;
  const last = parts.length - 1;
  parts[last] = parts[last]!.replace(/\.git$/i, '');
  if (!parts[last]) return undefined;
  if (kind === 'gitlab') return { kind, webBase: webBase(url), parts };
  if (kind === 'bitbucket' && url.host !== 'bitbucket.org') {
    // Bitbucket Server: https://host[/context]/scm/project/repo.git, ssh://git@host:7999/project/repo.git
    const scm = parts.lastIndexOf('scm');
    const named = scm >= 0 ? [...parts.slice(0, scm), ...parts.slice(scm + 1)] : parts;
    return named.length >= 2 ? { kind: 'bitbucketServer', webBase: webBase(url), parts: named } : undefined;
  }
  return parts.length === 2 ? { kind, webBase: webBase(url), parts } : undefined;
}

/** Percent-encodes one path segment, including the characters `encodeURIComponent` leaves (`!'()*`). */
export function encodeSegment(segment: string): string {
  // Lone surrogates would make encodeURIComponent throw.
  const wellFormed = segment.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return encodeURIComponent(wellFormed).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function encodePath(path: string): string {
  return path.split('/').filter(Boolean).map(encodeSegment).join('/');
}

/** The repository's page in the web app. */
export function repoWebUrl(repo: RemoteRepo): string {
  const enc = repo.parts.map(encodeSegment);
  switch (repo.kind) {
    case 'azure':
      return `${repo.webBase}/${[...enc.slice(0, -1), '_git', enc[enc.length - 1]].join('/')}`;
    case 'bitbucketServer':
      return `${repo.webBase}/${[...enc.slice(0, -2), 'projects', enc[enc.length - 2], 'repos', enc[enc.length - 1]].join('/')}`;
    default:
      return `${repo.webBase}/${enc.join('/')}`;
  }
}

/** Azure highlights a column range; a column past any line's end, which Azure clamps, marks whole lines. */
const WHOLE_LINE_COLUMN = 10000;

/**
 * A link to lines `startLine`–`endLine` (1-based) of `filePath` (repository-relative, forward
 * slashes) at `commit`.
 */
export function buildPermalink(repo: RemoteRepo, commit: string, filePath: string, startLine: number, endLine: number): string {
  if (!/^[0-9a-f]{7,64}$/i.test(commit)) throw new RangeError(`Not a commit hash: ${commit}`);
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < 1) {
    throw new RangeError(`Lines must be whole numbers from 1 (got ${startLine}-${endLine}).`);
  }
  const [start, end] = startLine <= endLine ? [startLine, endLine] : [endLine, startLine];
  const single = start === end;
  const base = repoWebUrl(repo);
  const path = encodePath(filePath);
  switch (repo.kind) {
    case 'github':
      return `${base}/blob/${commit}/${path}#L${start}${single ? '' : `-L${end}`}`;
    case 'gitlab':
      return `${base}/-/blob/${commit}/${path}#L${start}${single ? '' : `-${end}`}`;
    case 'bitbucket':
      return `${base}/src/${commit}/${path}#lines-${start}${single ? '' : `:${end}`}`;
    case 'bitbucketServer':
      return `${base}/browse/${path}?at=${commit}#${start}${single ? '' : `-${end}`}`;
    case 'azure':
      return `${base}?path=/${path}&version=GC${commit}&line=${start}&lineEnd=${end}&lineStartColumn=1&lineEndColumn=${WHOLE_LINE_COLUMN}&lineStyle=plain`;
  }
}

/**
 * The path of a file inside a repository, from the paths of their URIs (forward slashes), or
 * undefined when the file is not inside it. Drive letters and, failing an exact match, the
 * case of the root are compared loosely, as on Windows and macOS.
 */
export function repoRelativePath(rootPath: string, filePath: string): string | undefined {
  const root = rootPath.replace(/\/+$/, '');
  for (const [r, f] of [
    [root, filePath],
    [root.toLowerCase(), filePath.toLowerCase()],
  ] as const) {
    if (f.startsWith(`${r}/`)) return filePath.slice(root.length + 1);
  }
  return undefined;
}

/**
 * The remotes with a branch that has the commit, best first: the upstream's remote, then
 * `origin`, then the others in their order.
 */
export function rankRemotes(candidates: readonly string[], upstreamRemote?: string): string[] {
  const unique = [...new Set(candidates)];
  const rank = (name: string) => (name === upstreamRemote ? 0 : name === 'origin' ? 1 : 2);
  return unique.sort((a, b) => rank(a) - rank(b));
}
