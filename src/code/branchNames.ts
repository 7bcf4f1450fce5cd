/**
 * Branch names and posts: the name Start Work proposes for a post (from a template), and the post
 * a branch's name is about. No vscode import; the rules are Git's (`git check-ref-format`).
 */

export const DEFAULT_BRANCH_TEMPLATE = 'hd-{id}-{title}';
/** What Git refuses anywhere in a name: spaces and control characters, and `~ ^ : ? * [ \`. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const REFUSED_CHARS = /[\x00-\x20\x7f~^:?*[\\]/;
/** How much of the title a proposed name carries. */
export const MAX_TITLE_CHARS = 50;
const MAX_ID_DIGITS = 15;

/** The title as a branch name's words: lower case, letters and digits joined by `-`, at most 50 characters. */
export function titleWords(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let joined = '';
  for (const word of words) {
    const next = joined ? `${joined}-${word}` : word;
    if ([...next].length > MAX_TITLE_CHARS) {
      // A first word longer than the limit is cut; later words are left out whole.
      if (!joined) joined = [...word].slice(0, MAX_TITLE_CHARS).join('');
      break;
    }
    joined = next;
  }
  return joined;
}

/**
 * The branch name for a post: the template with `{id}` and `{title}` filled in, made a name Git
 * accepts (whatever the template or the title hold). An empty title leaves no dangling `-`.
 */
export function proposeBranchName(template: string, post: { id: number; title: string }): string {
  const shape = template.trim() || DEFAULT_BRANCH_TEMPLATE;
  const title = titleWords(post.title);
  const filled = (title ? shape : shape.replace(/[-_.]?\{title\}/g, '')).replaceAll('{id}', String(post.id)).replaceAll('{title}', title);
  return safeBranchName(filled) || `hd-${post.id}`;
}

/** Why Git would refuse `name` as a branch name, or undefined when it takes it. */
export function branchNameProblem(name: string): string | undefined {
  if (!name) return 'empty';
  if (name === '@') return 'is "@"';
  if (REFUSED_CHARS.test(name)) return 'has a space, a control character, or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'has ".."';
  if (name.includes('@{')) return 'has "@{"';
  if (name.startsWith('-')) return 'starts with "-"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'has an empty part between slashes';
  if (name.endsWith('.')) return 'ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'has a part that starts with "."';
    if (part.endsWith('.lock')) return 'has a part that ends with ".lock"';
  }
  return undefined;
}

/** `name` with whatever Git refuses in a branch name replaced or removed ('' when nothing is left). */
export function safeBranchName(name: string): string {
  const parts = name
    .replace(new RegExp(`${REFUSED_CHARS.source}+`, 'g'), '-')
    .replace(/@\{/g, '-')
    .split('/')
    .map((part) =>
      part
        .replace(/\.{2,}/g, '.')
        .replace(/^[.-]+/, '')
        .replace(/(\.lock)+$/i, '')
        .replace(/-{2,}/g, '-')
        .replace(/[.-]+$/, ''),
    )
    .filter(Boolean);
  const joined = parts.join('/');
  return joined === '@' ? '' : joined;
}

/**
 * The post a branch is about, from its name: the template's shape (`hd-123-fix-login`, `hd-123`),
 * or a part of the name that is the reference's short form (`HD-123`, `feature/HD-123-login`);
 * undefined for any other name (`release-2024`, `main`).
 */
export function postIdOfBranch(branch: string, options: { template?: string; prefix?: string }): number | undefined {
  const template = options.template?.trim() || DEFAULT_BRANCH_TEMPLATE;
  const byTemplate = templatePattern(template)?.exec(branch);
  if (byTemplate) return idOf(byTemplate[1]!);
  const prefix = options.prefix;
  if (!prefix) return undefined;
  for (const part of branch.split('/')) {
    if (part.length <= prefix.length || part.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) continue;
    const rest = /^([1-9][0-9]{0,14})(?:[-_.].*)?$/.exec(part.slice(prefix.length));
    if (rest) return idOf(rest[1]!);
  }
  return undefined;
}

/**
 * The names the template makes: its text as written (case aside), `{id}` the post's id, `{title}`
 * any words, or left out with the separator before it (as for a post without a title).
 */
function templatePattern(template: string): RegExp | undefined {
  if (!template.includes('{id}')) return undefined;
  const tokens = template.split(/(\{id\}|[-_.]?\{title\})/).filter(Boolean);
  let idSeen = false;
  const source = tokens
    .map((token) => {
      if (token === '{id}') {
        // The first {id} is read; any later one is the same digits again.
        if (idSeen) return '\\1';
        idSeen = true;
        return `([1-9][0-9]{0,${MAX_ID_DIGITS - 1}})`;
      }
      const title = /^([-_.]?)\{title\}$/.exec(token);
      if (title) return `(?:${escape(title[1]!)}[^/]+)?`;
      return escape(token);
    })
    .join('');
  return new RegExp(`^${source}$`, 'i');
}

function idOf(digits: string): number | undefined {
  const id = Number(digits);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
