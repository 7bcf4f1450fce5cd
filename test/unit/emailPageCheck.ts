// What a page may be given of an e-mail, checked as a browser reads it: the sanitized HTML parsed
// by parse5 (the WHATWG parser, what Chromium does with it), every element and attribute looked at.
import { html as spec, parseFragment, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];

/** The page's allow-list: elements, and the attributes each may carry. */
const ALLOWED: Record<string, readonly string[]> = Object.fromEntries([
  ...[
    'p',
    'div',
    'br',
    'hr',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'del',
    'ins',
    'sub',
    'sup',
    'small',
    'mark',
    'code',
    'pre',
    'kbd',
    'samp',
    'q',
    'cite',
    'blockquote',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'caption',
    'summary',
  ].map((tag) => [tag, []]),
  ['a', ['data-hb-link', 'title', 'tabindex', 'role']],
  ['span', ['data-hb-image', 'data-hb-index', 'role', 'aria-label']],
  ['td', ['colspan', 'rowspan']],
  ['th', ['colspan', 'rowspan']],
  ['details', ['data-hb-quote', 'open']],
  ['img', ['src', 'alt']],
]);

/** Controls (but newlines and tabs) and invisible format characters. */
const INVISIBLE = /\p{Cf}|[^\P{Cc}\n\t\r]/u;

export interface PageCheck {
  /** Every problem found, as `where: what`. */
  problems: string[];
  /** The text a reader sees, in order. */
  text: string;
  /** `data-hb-link` numbers, in order. */
  links: number[];
}

/** Reads `html` as a browser would and lists what breaks the allow-list (`images`: whether `<img>` may be there). */
export function checkPage(page: string, images: boolean): PageCheck {
  const problems: string[] = [];
  const links: number[] = [];
  let text = '';
  const stack: Node[] = [parseFragment(page)];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterMap['textNode']).value;
      text += value;
      if (INVISIBLE.test(value)) problems.push(`text: an invisible character in ${JSON.stringify(value.slice(0, 40))}`);
      continue;
    }
    if (node.nodeName === '#comment') problems.push('a comment');
    if ('tagName' in node) {
      const element = node;
      const allowed = ALLOWED[element.tagName];
      if (allowed === undefined || (element.tagName === 'img' && !images)) problems.push(`<${element.tagName}>: not allowed`);
      if (element.namespaceURI !== spec.NS.HTML) problems.push(`<${element.tagName}>: in ${element.namespaceURI}`);
      for (const { name, value } of element.attrs) {
        if (!allowed?.includes(name)) problems.push(`<${element.tagName} ${name}>: not allowed`);
        if (name === 'src' && !/^https?:\/\//.test(value)) problems.push(`<img src=${value}>`);
        if (name === 'data-hb-link') links.push(Number(value));
      }
    }
    if ('childNodes' in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    if (node.nodeName === 'template') problems.push('<template>');
  }
  return { problems, text, links };
}
