/**
 * What the conversation page is sent to show: every word already made plain text here (the page
 * sets it as text), the e-mails' HTML sanitized (thread.ts), and the page's own words in the
 * person's language. Nothing in it is a link, a command or an address of the service's: the
 * page names what it wants opened by number.
 */
import vscode = require('vscode');
import type { Post } from '../api';
import type { ClientContext } from '../store/clientContext';
import { clientName, contactParts, dealsCountText, postsCountText } from '../views/clientContextText';
import { assigneeText, kindText, postTitle, stateText, statusText, timeText } from '../text/postFacts';
import { displayLocale, numberText } from '../text/intl';
import { labelText } from '../text/serverText';
import { errorText } from '../ui/errorText';
import type { ReplyState } from './reply';
import type { ThreadMessage } from './thread';

const { l10n } = vscode;

/** The most other posts and deals the card lists. */
const LISTED = 20;

export interface PageFact {
  readonly name: string;
  readonly value: string;
}

export interface ClientCard {
  readonly name: string;
  readonly contact: readonly string[];
  /** "2 other open posts", "Loading…" while being read (undefined: not read: another account's post). */
  readonly postsCount?: string;
  readonly posts: readonly { readonly id: number; readonly title: string }[];
  readonly dealsCount?: string;
  readonly deals: readonly string[];
  readonly note?: string;
}

export interface PageMessageView extends ThreadMessage {
  /** The button's words that loads its remote images, where it has some withheld. */
  readonly imagesButton?: string;
}

export interface PageModel {
  readonly account: string;
  readonly post: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly title: string;
  readonly facts: readonly PageFact[];
  readonly closed: boolean;
  readonly updatesRefused: boolean;
  readonly client?: ClientCard;
  readonly messages: readonly PageMessageView[];
  /** Why comments may be missing (another account's post, or none listed though counted). */
  readonly commentsNote?: string;
  readonly reply: {
    readonly state: ReplyState['kind'];
    readonly why?: string;
    /** Said under the box while writing (a longer reply to this post kept in Drafts). */
    readonly note?: string;
    /** Given when the page is to show it (at its start, and emptied once sent): the page keeps what is typed otherwise. */
    readonly text?: string;
    /** The Sends this page has had answered: the page keeps its box locked from a press until its answer. */
    readonly sends: number;
  };
  /** The post could not be read (in words). */
  readonly error?: string;
}

/** The page's own words. */
export function pageLabels(): Record<string, string> {
  return {
    facts: l10n.t('Facts'),
    customer: l10n.t('Customer'),
    contact: l10n.t('Contact'),
    otherPosts: l10n.t('Other open posts'),
    deals: l10n.t('Deals'),
    thread: l10n.t('Conversation'),
    actions: l10n.t('Actions'),
    close: l10n.t('Close Post'),
    reopen: l10n.t('Reopen Post'),
    assignToMe: l10n.t('Assign to Me'),
    assign: l10n.t('Assign…'),
    setStatus: l10n.t('Set Status…'),
    startWork: l10n.t('Start Work…'),
    goToCode: l10n.t('Go to Code'),
    openInBrowser: l10n.t('Open in Browser'),
    openAsText: l10n.t('Open as Text'),
    refresh: l10n.t('Refresh'),
    reply: l10n.t('Reply'),
    replyHint: l10n.t('Markdown. Ctrl+Enter sends. Kept as a draft until sent.'),
    send: l10n.t('Send Reply'),
    sending: l10n.t('Sending…'),
    retry: l10n.t('Retry'),
    edit: l10n.t('Edit'),
    openKeptDraft: l10n.t('Open the Draft'),
    comment: l10n.t('Comment'),
    original: l10n.t('Post'),
    unknownAuthor: l10n.t('unknown sender'),
    empty: l10n.t('(no content)'),
    loading: l10n.t('Loading…'),
    imagesShown: l10n.t('Remote images shown for this message.'),
  };
}

/** The labels an e-mail's page HTML is written with (see src/email/toPage.ts). */
export function emailLabels() {
  return {
    image: (alt: string) => (alt ? l10n.t('[image: {0}]', alt) : l10n.t('[image]')),
    quoted: l10n.t('Quoted earlier messages'),
    cut: l10n.t('[…the rest of this message is too long to show]'),
  };
}

/** `posts`: the window's loaded posts, which name its users (undefined for another account's post). */
export function postFactsOf(post: Post, statuses: ReadonlyMap<number, string> | undefined, posts?: readonly Post[]): PageFact[] {
  const facts: [string, string | undefined][] = [
    [l10n.t('Post'), `#${post.id}`],
    [l10n.t('Kind'), kindText(post)],
    [l10n.t('State'), stateText(post)],
    [l10n.t('Status'), statusText(post, statuses)],
    [l10n.t('Assigned to'), assigneeText(post, posts)],
    [l10n.t('Comment on'), typeof post.post_id === 'number' ? `#${post.post_id}` : undefined],
    [l10n.t('Created'), timeText(post.created_at)],
    [l10n.t('Updated'), timeText(post.updated_at)],
    [l10n.t('Comments'), typeof post.comments_cache === 'number' ? numberText(post.comments_cache) : undefined],
  ];
  return facts.filter((fact): fact is [string, string] => !!fact[1]).map(([name, value]) => ({ name, value }));
}

export function titleOf(post: Post): string {
  return postTitle(post);
}

/** The customer card: the client as far as known, then what `context` read. */
/** `postsListed`: whether the client's other posts are looked for (not for another account's post: no list of its posts is here). */
export function clientCard(
  clientId: number,
  context: ClientContext | undefined,
  loaded: Parameters<typeof clientName>[1],
  { postsListed = true }: { readonly postsListed?: boolean } = {},
): ClientCard {
  const known = context?.client ?? loaded;
  const deals = context?.deals?.items ?? [];
  const notes = [
    !known && context?.clientError !== undefined ? l10n.t('The client could not be read: {0}', errorText(context.clientError)) : '',
    context?.dealsError !== undefined ? l10n.t('Deals could not be read: {0}', errorText(context.dealsError)) : '',
    context?.posts?.error !== undefined ? l10n.t('(reading further failed: {0})', errorText(context.posts.error)) : '',
  ].filter(Boolean);
  return {
    name: `${clientName(clientId, known)} (#${clientId})`,
    contact: contactParts(known),
    // Each stands under its heading ("Other open posts", "Deals"): a sentence of its own.
    postsCount: !postsListed
      ? l10n.t('Listed when this window uses this post’s account.')
      : context?.posts
        ? sentence(postsCountText(context.posts))
        : context
          ? undefined
          : l10n.t('Loading…'),
    posts: (context?.posts?.open ?? []).slice(0, LISTED).map((post) => ({ id: post.id, title: `#${post.id} ${postTitle(post)}` })),
    dealsCount: context ? sentence(dealsCountText(context)) : l10n.t('Loading…'),
    deals: deals.slice(0, LISTED).map((deal) => {
      const price = typeof deal.price === 'number' || typeof deal.price === 'string' ? labelText(String(deal.price), 20) : '';
      return [`#${deal.id} ${labelText(deal.name, 120) || l10n.t('Deal #{0}', deal.id)}`, price].filter(Boolean).join(' · ');
    }),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

/** Words that begin a sentence, with a capital in the display language. */
function sentence(text: string): string;
function sentence(text: string | undefined): string | undefined;
function sentence(text: string | undefined): string | undefined {
  return text && text.charAt(0).toLocaleUpperCase(displayLocale()) + text.slice(1);
}

export function withImageButtons(messages: readonly ThreadMessage[]): PageMessageView[] {
  return messages.map((message) =>
    message.imagesWithheld > 0
      ? {
          ...message,
          imagesButton:
            message.imagesWithheld === 1 ? l10n.t('Load 1 remote image') : l10n.t('Load {0} remote images', message.imagesWithheld),
        }
      : message,
  );
}
