/**
 * The marker a draft puts at the head of what it files: a short random id, so that after a lost
 * answer the very post can be told from any other, whatever its title and text. At the head,
 * because a list may hand back only the start of a post's content (an abstract, or the first
 * 65,535 characters) and may strip a trailing "Sent from …" line as a signature. No vscode import.
 */

const PATTERN = /\bhb-[0-9a-z]{10}\b/;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new marker: `hb-` and 10 random characters (about 51 bits). */
export function newDraftRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `hb-${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const WHOLE = new RegExp(`^${PATTERN.source}$`);

export function isDraftRef(value: unknown): value is string {
  return typeof value === 'string' && value.length === 13 && WHOLE.test(value);
}

/** The content as filed: a line that names the marker, then the text. */
export function withDraftRef(content: string, ref: string): string {
  const header = `Sent from VS Code · ${ref}`;
  const text = content.trimEnd();
  return text ? `${header}\n\n${text}` : header;
}

/** Whether a post's content carries `ref` (as a whole word, anywhere: drafts of earlier versions put it at the end). */
export function carriesDraftRef(content: unknown, ref: string): boolean {
  return draftRefPlace(content, ref) !== undefined;
}

/**
 * Where a post's content carries `ref`: in its first line, as this version files it (`head`), or
 * further down (`body`: a draft of an earlier version, or a post that quotes another).
 */
export function draftRefPlace(content: unknown, ref: string): 'head' | 'body' | undefined {
  if (typeof content !== 'string') return undefined;
  const firstLineEnd = content.indexOf('\n') < 0 ? content.length : content.indexOf('\n');
  for (let at = content.indexOf(ref); at >= 0; at = content.indexOf(ref, at + 1)) {
    if (!/[0-9a-z-]/i.test(content[at - 1] ?? ' ') && !/[0-9a-z]/i.test(content[at + ref.length] ?? ' '))
      return at < firstLineEnd ? 'head' : 'body';
  }
  return undefined;
}
