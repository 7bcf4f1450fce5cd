/**
 * A post's or comment's content as readable text, for every place that shows or reads it: the
 * Helpdesk view's tooltips, the hover, the post document, the news, searches, Go to Code and the
 * agent's tools. An HTML e-mail is converted by the e-mail bundle (src/email/toText.ts:
 * html-to-text over htmlparser2's tree, read within bounds), which is loaded at the first
 * content that may be HTML; other content is as written, controls and invisible characters out.
 * Either way the result is still server text: each caller escapes it as its medium needs.
 *
 * A record is converted once (the store replaces a record that changes, so a record's content
 * never does): a search over a list, or a tooltip shown again, costs nothing more.
 */
import vscode = require('vscode');
import { emailModule } from '../email/load';
import { mayBeHtml } from '../email/useHtml';
import type { TextLabels } from '../email/toText';
import { bodyText } from './serverText';

const { l10n } = vscode;

export interface ContentText {
  text: string;
  /** The content was HTML, and `text` is what it reads as. */
  html: boolean;
  /** Something was left out for length. */
  truncated: boolean;
  /** Quoted history was left out behind one line (or kept marked, for a forward). */
  quoted: boolean;
}

/** A post or a comment, as far as its content goes: any field may be missing or of the wrong type. */
export interface WithContent {
  content?: unknown;
  use_html?: unknown;
  task_kind?: unknown;
  /** "Fwd: …" says the quoted part is the message (see isForward in toText.ts). */
  title?: unknown;
}

/** The most of a content's text kept: more than any place shows. */
export const CONTENT_TEXT_CHARS = 100_000;

const converted = new WeakMap<object, ContentText>();

/** `post`'s content as text, at most `max` characters (see the top of this file). */
export function contentText(post: WithContent, max = CONTENT_TEXT_CHARS): ContentText {
  let whole = converted.get(post);
  if (!whole) {
    whole = convert(post);
    converted.set(post, whole);
  }
  if (whole.text.length <= max) return whole;
  return { ...whole, text: bodyText(whole.text, max), truncated: true };
}

function convert(post: WithContent): ContentText {
  if (!mayBeHtml(post)) {
    const clean = bodyText(post.content, Number.MAX_SAFE_INTEGER);
    return { text: bodyText(clean, CONTENT_TEXT_CHARS), html: false, truncated: clean.length > CONTENT_TEXT_CHARS, quoted: false };
  }
  try {
    return emailModule().postText(post, { maxChars: CONTENT_TEXT_CHARS, labels: labels() });
  } catch {
    // The bundle could not be read (a broken install): the markup is not shown as if it were the message.
    return { text: l10n.t('[This e-mail could not be read as text.]'), html: true, truncated: false, quoted: false };
  }
}

function labels(): TextLabels {
  return {
    image: (alt) => (alt ? l10n.t('[image: {0}]', alt) : l10n.t('[image]')),
    quoted: l10n.t('[quoted earlier messages left out]'),
    cut: l10n.t('[…the rest of this message is too long to show]'),
  };
}
