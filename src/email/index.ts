/**
 * The e-mail bundle (dist/email.js): posts' HTML as text for every place content is shown, and
 * as sanitized HTML for a page. Built apart from the extension and loaded at its first use
 * (load.ts), so activation does not read its parsers. No vscode in it: the words it adds come
 * from the caller.
 */
export { contentIsHtml, looksLikeHtml, type PostContent } from './contentKind';
export { mayBeHtml, useHtmlFlag } from './useHtml';
export { imageSource, linkTarget, shownAddress } from './links';
export { emailPage, ENGLISH_PAGE_LABELS, type EmailPage, type EmailPageOptions, type PageLabels } from './toPage';
export {
  DEFAULT_MAX_CHARS,
  emailText,
  ENGLISH_TEXT_LABELS,
  isForward,
  postText,
  type EmailText,
  type EmailTextOptions,
  type PostText,
  type TextLabels,
} from './toText';
export { timeEmailConversion, type ConversionTimings } from './bench';
