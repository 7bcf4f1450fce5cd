/**
 * An e-mail's HTML read into a tree by htmlparser2, within bounds that keep it linear in time and
 * memory whatever a sender writes. htmlparser2 keeps its open elements in an array it adds to at
 * the front, so each element opened costs as much as the depth it is opened at: a megabyte of
 * `<div>` took 13 s. Here elements nested deeper than MAX_DEPTH are left out of the tree (their
 * text is kept, in the deepest element kept), and the reading stops at STOP_DEPTH, at MAX_NODES
 * nodes, or at MAX_HTML_CHARS characters, with `truncated` set. Comments (Outlook's conditional
 * ones included), processing instructions and CDATA never enter the tree, nor does the text of a
 * script, a style or other NOT_CONTENT element left out for its depth. Element names starting
 * with `hb-` are the conversion's own (see prune.ts): a sender's become `span`.
 */
// CommonJS, as sanitize-html requires htmlparser2: one copy of the parser in the bundle (see esbuild.mjs).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with sanitize-html
import htmlparser2 = require('htmlparser2');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, shared with htmlparser2
import domhandler = require('domhandler');

export type Document = domhandler.Document;
export type Element = domhandler.Element;

/** More is not read: about a megabyte, far beyond any real message's text. */
export const MAX_HTML_CHARS = 1024 * 1024;
/** Elements nested deeper are left out of the tree (real mail nests some 30 deep). */
export const MAX_DEPTH = 64;
/** Past this nesting the reading stops: each element costs htmlparser2 as much as its depth. */
export const STOP_DEPTH = 512;
/** Elements and text nodes (a 200 KB Outlook thread has some 10,000): each costs a few µs to read, reduce and convert. */
export const MAX_NODES = 40_000;

/** Left out with everything in them: no text a reader is meant to see. */
export const NOT_CONTENT: ReadonlySet<string> = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'param',
  'svg',
  'math',
  'canvas',
  'audio',
  'video',
  'source',
  'track',
  'map',
  'area',
  'input',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'xml',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'dialog',
  'script',
  'style',
]);

/** The prefix of the element names the conversion gives its own elements. */
export const OWN_PREFIX = 'hb-';

export interface ParsedEmail {
  root: Document;
  /** Something was left out: the HTML was longer than MAX_HTML_CHARS, or nested or filled past the bounds. */
  truncated: boolean;
  /** Elements in the tree. */
  elements: number;
}

export function parseEmail(html: string): ParsedEmail {
  let truncated = html.length > MAX_HTML_CHARS;
  const input = truncated ? cutAt(html, MAX_HTML_CHARS) : html;
  const tree = new domhandler.DomHandler();
  let depth = 0;
  let nodes = 0;
  let elements = 0;
  let stopped = false;
  /** The depth of an element left out of the tree whose text is no content (a script, a style), while inside it. */
  let silentFrom = 0;
  const stop = () => {
    stopped = truncated = true;
    parser.pause();
  };
  // The parser's events, passed on to the tree within the bounds; comments and the like are not passed on.
  const handler: Partial<htmlparser2.Handler> = {
    onparserinit: (p) => tree.onparserinit(p),
    onopentag(name, attribs) {
      if (stopped) return;
      depth++;
      if (depth > STOP_DEPTH || ++nodes > MAX_NODES) return stop();
      if (depth > MAX_DEPTH) {
        // Its text joins the deepest element kept, unless it is a script's, a style's and the like.
        if (silentFrom === 0 && NOT_CONTENT.has(name)) silentFrom = depth;
        return;
      }
      elements++;
      tree.onopentag(name.startsWith(OWN_PREFIX) ? 'span' : name, attribs);
    },
    onclosetag() {
      if (stopped) return;
      if (depth === silentFrom) silentFrom = 0;
      if (depth-- <= MAX_DEPTH) tree.onclosetag();
    },
    ontext(data) {
      if (stopped || silentFrom > 0) return;
      if (++nodes > MAX_NODES) return stop();
      tree.ontext(data);
    },
  };
  const parser = new htmlparser2.Parser(handler, { decodeEntities: true });
  parser.write(input);
  if (!stopped) parser.end();
  return { root: tree.root, truncated, elements };
}

/** The first `length` UTF-16 units, one fewer if that would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
