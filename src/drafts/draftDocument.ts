/** The text of a bug or task draft: its first line is the title, the rest the content. No vscode import. */

/**
 * A draft document: the first line is the title (a leading `# ` is dropped), the rest after
 * a blank line is the description. Leading blank lines and trailing whitespace of the
 * description are not kept.
 */
export function parseDraftDocument(text: string): { title: string; description: string } {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const newline = normalized.indexOf('\n');
  const first = newline < 0 ? normalized : normalized.slice(0, newline);
  const rest = newline < 0 ? '' : normalized.slice(newline + 1);
  return { title: first.replace(/^#[ \t]+/, '').trim(), description: rest.replace(/^([ \t]*\n)+/, '').trimEnd() };
}

/** The draft document of a title and description; `parseDraftDocument` gives them back. */
export function formatDraftDocument(title: string, description: string): string {
  const oneLine = title.replace(/\s+/g, ' ').trim();
  // A title that itself starts with `# ` keeps it behind the prefix that parsing drops.
  const head = /^#[ \t]/.test(oneLine) ? `# ${oneLine}` : oneLine;
  const body = normalizeNewlines(description)
    .replace(/^([ \t]*\n)+/, '')
    .trimEnd();
  return body ? `${head}\n\n${body}\n` : `${head}\n`;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
