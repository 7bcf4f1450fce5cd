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
    // Accents off Latin letters (é → e); other scripts' marks (ガ's dakuten, Devanagari vowels) stay.
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
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
 * accepts (whatever the template or the title hold). An empty title leaves no dangling `-`. The
 * title is cut to what fits: a part of the name at most MAX_PART_BYTES, the whole name at most
 * MAX_READ_CHARS (so that it reads back to its post).
 */
export function proposeBranchName(template: string, post: { id: number; title: string }): string {
  const shape = skeleton(template);
  const id = String(post.id);
  const title = fittedTitle(shape.replaceAll(ID_MARK, id), titleWords(withoutMarks(post.title)));
  const filled = title ? shape : shape.replace(TITLE_WITH_SEPARATORS, withoutTitle);
  return safeBranchName(filled.replaceAll(ID_MARK, id).replaceAll(TITLE_MARK, title)) || `hd-${post.id}`;
}

// Where the id and the title go in a template's skeleton: characters Git takes, taken out of the
// template and the title first, so that the template's own text can be made safe around them.
const ID_MARK = '\uE000';
const TITLE_MARK = '\uE001';
const MARKS = /[\uE000\uE001]/g;
/** The title, and a separator either side of it (what an empty title takes away). */
const TITLE_WITH_SEPARATORS = new RegExp(`([-_./]?)${TITLE_MARK}([-_.]?)`, 'u');

/** Git keeps a branch in a file per part of its name: well under the 255 bytes file systems take. */
const MAX_PART_BYTES = 200;
/** How many `{id}`s a name carries (later ones are dropped: each adds digits and nothing else). */
const MAX_IDS = 2;
/** How much of the template's own text a name carries, in UTF-8 bytes: with the ids, a part within MAX_PART_BYTES. */
const MAX_TEMPLATE_TEXT_BYTES = MAX_PART_BYTES - MAX_IDS * MAX_ID_DIGITS - 10;
/** Longer names are not read against the template (no branch of a post is this long). */
const MAX_READ_CHARS = 255;

function withoutMarks(text: string): string {
  return text.replace(MARKS, '');
}

/**
 * The template as proposing and reading both go by, made safe for Git around its marks: one
 * `{title}` at most (more add nothing but ambiguity), an `{id}` always (added before the title,
 * else at the end), two at most, and never the title glued to the id (`{id}{title}` would read
 * `hd-72024` for post 7 titled "2024 outage"); the template's own text within MAX_TEMPLATE_TEXT_BYTES.
 */
function skeleton(template: string): string {
  let shape = marked(withoutMarks(template).trim() || DEFAULT_BRANCH_TEMPLATE);
  if (!shape.includes(ID_MARK))
    shape = shape.includes(TITLE_MARK) ? shape.replace(TITLE_MARK, `${ID_MARK}-${TITLE_MARK}`) : `${shape}-${ID_MARK}`;
  shape = shape
    .replaceAll(`${ID_MARK}${TITLE_MARK}`, `${ID_MARK}-${TITLE_MARK}`)
    .replaceAll(`${TITLE_MARK}${ID_MARK}`, `${TITLE_MARK}-${ID_MARK}`);
  shape = safeBranchName(shape);
  // With a title (of any length) in the name, an id next to a digit has no end to read by:
  // `{id}1{title}` makes `1001x` for post 100 titled "x", and for post 1 titled "001x".
  return shape.includes(TITLE_MARK) ? shape.replace(DIGIT_THEN_ID, `$1-${ID_MARK}`).replace(ID_THEN_DIGIT, `${ID_MARK}-`) : shape;
}

const DIGIT_THEN_ID = new RegExp(`([0-9])${ID_MARK}`, 'g');
const ID_THEN_DIGIT = new RegExp(`${ID_MARK}(?=[0-9])`, 'g');

/**
 * The template (without marks) with its first MAX_IDS `{id}`s and first `{title}` marked, and as
 * much of its own text as MAX_TEMPLATE_TEXT_BYTES holds; the rest dropped. One walk, placeholders
 * read where they stand (dropping text never makes a new one).
 */
function marked(template: string): string {
  const kept: string[] = [];
  let bytes = 0;
  let ids = 0;
  let titles = 0;
  for (let at = 0; at < template.length;) {
    if (template.startsWith('{id}', at)) {
      if (ids++ < MAX_IDS) kept.push(ID_MARK);
      at += 4;
    } else if (template.startsWith('{title}', at)) {
      if (titles++ < 1) kept.push(TITLE_MARK);
      at += 7;
    } else if (bytes >= MAX_TEMPLATE_TEXT_BYTES) {
      // The text is spent: on to the next placeholder.
      const next = template.indexOf('{', at + 1);
      at = next < 0 ? template.length : next;
    } else {
      const point = template.codePointAt(at)!;
      const length = point > 0xffff ? 2 : 1;
      const size = codePointBytes(point);
      if (bytes + size <= MAX_TEMPLATE_TEXT_BYTES) {
        kept.push(template.slice(at, at + length));
        bytes += size;
      } else bytes = MAX_TEMPLATE_TEXT_BYTES;
      at += length;
    }
  }
  return kept.join('');
}

/**
 * As much of `title` (words joined by `-`) as fits where the title mark stands in `shape` (its ids
 * filled in): its part within MAX_PART_BYTES and the whole within MAX_READ_CHARS; no `-` left at
 * the end of what is cut. '' when there is no title mark or no room.
 */
function fittedTitle(shape: string, title: string): string {
  const at = shape.indexOf(TITLE_MARK);
  if (at < 0 || !title) return '';
  const slash = shape.indexOf('/', at);
  const part = shape.slice(shape.lastIndexOf('/', at) + 1, slash < 0 ? shape.length : slash);
  // The mark itself is 3 bytes and 1 character.
  let bytesLeft = MAX_PART_BYTES - (utf8Bytes(part) - 3);
  let charsLeft = MAX_READ_CHARS - (shape.length - 1);
  let end = 0;
  for (const char of title) {
    bytesLeft -= utf8Bytes(char);
    charsLeft -= char.length;
    if (bytesLeft < 0 || charsLeft < 0) break;
    end += char.length;
  }
  return end === title.length ? title : title.slice(0, end).replace(/-+$/, '');
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += codePointBytes(char.codePointAt(0)!);
  return bytes;
}

function codePointBytes(point: number): number {
  return point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
}

/** Why Git would refuse `name` as a branch name, or undefined when it takes it. */
export function branchNameProblem(name: string): string | undefined {
  if (!name) return 'empty';
  if (name === '@' || name === 'HEAD') return `is "${name}"`;
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

/**
 * A branch name typed as a full ref (`refs/heads/feature`): Git takes it as a branch of that very
 * name (`git check-ref-format --branch` prints it back, `git checkout -b` makes it), whose full
 * name is `refs/heads/refs/heads/feature`, beside any branch `feature`. What Git makes, and the
 * name without the prefix, which the person most likely meant: so that Start Work can say so
 * before it does what Git does. Undefined for any other name (`Refs/…` too: refs have case).
 */
export function typedAsRef(name: string): { full: string; meant: string } | undefined {
  if (!name.startsWith('refs/')) return undefined;
  return { full: `refs/heads/${name}`, meant: name.replace(/^refs\/(?:heads\/|remotes\/[^/]+\/)?/, '') };
}

/** `name` with whatever Git refuses in a branch name replaced or removed ('' when nothing is left). */
export function safeBranchName(name: string): string {
  const parts = name
    .replace(new RegExp(`${REFUSED_CHARS.source}+`, 'g'), '-')
    .replace(/@\{/g, '-')
    .split('/')
    .map((part) =>
      withoutRefusedEnd(
        part
          .replace(/\.{2,}/g, '.')
          .replace(/^[.-]+/, '')
          .replace(/-{2,}/g, '-'),
      ),
    )
    .filter(Boolean);
  const joined = parts.join('/');
  return joined === '@' ? '' : joined;
}

/**
 * `part` without the trailing `.`, `-` and `.lock` Git refuses (or that leave a dangling
 * separator), as often as they come: one walk back from the end (`/[.-]+$/` is quadratic on
 * `.-.-…x`, and stripping again until nothing changes is quadratic on `.lock-.lock-…`).
 */
function withoutRefusedEnd(part: string): string {
  let end = part.length;
  for (;;) {
    const last = part[end - 1];
    if (last === '.' || last === '-') end -= 1;
    else if (end >= 5 && part.slice(end - 5, end).toLowerCase() === '.lock') end -= 5;
    else return part.slice(0, end);
  }
}

/**
 * The post a branch is about, from its name: the template's shape (`hd-123-fix-login`, `hd-123`),
 * or the reference's short form where a part of the name starts with it (`HD-123`,
 * `feature/HD-123-login`, `GH/123` for the prefix `GH/`); undefined for any other name
 * (`release-2024`, `main`).
 */
export function postIdOfBranch(branch: string, options: { template?: string; prefix?: string }): number | undefined {
  if (branch.length <= MAX_READ_CHARS) {
    for (const shape of templateShapes(options.template ?? '')) {
      const id = readShape(shape, branch);
      if (id !== undefined) return id;
    }
  }
  const prefix = options.prefix?.toLowerCase();
  if (!prefix) return undefined;
  const lower = branch.toLowerCase();
  for (let at = lower.indexOf(prefix); at >= 0; at = lower.indexOf(prefix, at + 1)) {
    if (at > 0 && lower[at - 1] !== '/') continue;
    const rest = ID_THEN_END.exec(branch.slice(at + prefix.length));
    if (rest) return idOf(rest[1]!);
  }
  return undefined;
}

/** An id, then the end of the name or of its part, or a separator. */
const ID_THEN_END = new RegExp(`^([1-9][0-9]{0,${MAX_ID_DIGITS - 1}})(?:$|[-_./])`);

/**
 * A name the template makes, as text: the skeleton's pieces (compared case aside) between its
 * ids (the same digits each time), and where the title goes, what stands either side of it
 * (any text within a part of the name). Read by comparing, never compiled into a RegExp: the
 * template comes from a setting a repository may set.
 */
interface Shape {
  /** The skeleton before the title (the whole skeleton when there is none), split at its ids. */
  readonly head: readonly string[];
  /** The skeleton after the title, split at its ids; undefined when the shape has no title. */
  readonly tail?: readonly string[];
}

/** The names the template makes: without the title (a post without one), and with it. */
function templateShapes(template: string): Shape[] {
  const shape = skeleton(template);
  const title = TITLE_WITH_SEPARATORS.exec(shape);
  const untitled: Shape = { head: safeBranchName(title ? shape.replace(TITLE_WITH_SEPARATORS, withoutTitle) : shape).split(ID_MARK) };
  if (!title) return [untitled];
  const [whole, before = '', after = ''] = title;
  const head = `${shape.slice(0, title.index)}${before}`.split(ID_MARK);
  const tail = `${after}${shape.slice(title.index + whole.length)}`.split(ID_MARK);
  return [untitled, { head, tail }];
}

/**
 * The id `branch` names in `shape`, or undefined. Every id has the same number of digits, so
 * each count of digits fixes where every piece and the title stand: at most 15 comparisons of
 * the name, each in one pass.
 */
function readShape(shape: Shape, branch: string): number | undefined {
  const ids = shape.head.length - 1 + (shape.tail ? shape.tail.length - 1 : 0);
  if (ids < 1) return undefined;
  const headText = textLength(shape.head);
  const tailText = shape.tail ? textLength(shape.tail) : 0;
  if (headText + tailText > branch.length) return undefined;
  for (let digits = 1; digits <= MAX_ID_DIGITS; digits++) {
    const headLength = headText + digits * (shape.head.length - 1);
    const tailLength = shape.tail ? tailText + digits * (shape.tail.length - 1) : 0;
    const titleLength = branch.length - headLength - tailLength;
    if (shape.tail ? titleLength < 1 : titleLength !== 0) continue;
    // Where the first id stands: in the head, after its first piece; else in the tail.
    const at = shape.head.length > 1 ? shape.head[0]!.length : headLength + titleLength + shape.tail![0]!.length;
    const id = branch.slice(at, at + digits);
    if (!ID_DIGITS.test(id)) continue;
    if (!piecesMatch(shape.head, id, branch, 0)) continue;
    if (shape.tail) {
      if (branch.slice(headLength, headLength + titleLength).includes('/')) continue;
      if (!piecesMatch(shape.tail, id, branch, headLength + titleLength)) continue;
    }
    return idOf(id);
  }
  return undefined;
}

const ID_DIGITS = new RegExp(`^[1-9][0-9]{0,${MAX_ID_DIGITS - 1}}$`);

function textLength(pieces: readonly string[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/** Whether `branch` from `at` holds the pieces with `id` between each two, case aside. */
function piecesMatch(pieces: readonly string[], id: string, branch: string, at: number): boolean {
  let position = at;
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) {
      if (branch.slice(position, position + id.length) !== id) return false;
      position += id.length;
    }
    const piece = pieces[i]!;
    if (!sameText(branch.slice(position, position + piece.length), piece)) return false;
    position += piece.length;
  }
  return true;
}

/** Equal text, case aside (as a RegExp's `iu` compares: letter by letter). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  if (a === b || a.toLowerCase() === b.toLowerCase()) return true;
  const left = [...a];
  const right = [...b];
  return (
    left.length === right.length &&
    left.every((char, i) => char.toLowerCase() === right[i]!.toLowerCase() || char.toUpperCase() === right[i]!.toUpperCase())
  );
}

/** What an empty title leaves of itself and the separators either side: one of them where both were. */
function withoutTitle(_whole: string, before: string, after: string): string {
  return before && after ? before : '';
}

function idOf(digits: string): number | undefined {
  const id = Number(digits);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
