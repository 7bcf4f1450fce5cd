/**
 * The thread a conversation page shows: the post, then its comments oldest first, each as who
 * wrote it, when, and its content: an HTML e-mail as sanitized page HTML (src/email/toPage.ts,
 * remote images only for the messages the person asked), anything else as plain text that the
 * page sets as text. The links and images of each message stay here: the page names them by
 * number, and only an address of this list is ever opened or allowed. No vscode.
 */
import type { Post } from '../api';
import type { EmailModule } from '../email/load';
import type { EmailPage, PageLabels } from '../email/toPage';
import { bodyText, labelText } from '../text/serverText';

/** The most characters of a message's text shown (an e-mail is bounded by its own parser). */
const TEXT_CHARS = 100_000;

export interface ThreadMessage {
  readonly id: number;
  readonly who: string;
  readonly when: string;
  readonly comment: boolean;
  /** Sanitized page HTML (an e-mail), else undefined and `text` is shown. */
  readonly html?: string;
  readonly text?: string;
  /** How many remote images are withheld (0 once shown). */
  readonly imagesWithheld: number;
  readonly imagesShown: boolean;
}

/** The extension's side of a message: what its numbered links and images are. */
export interface MessageTargets {
  readonly links: readonly string[];
  readonly images: readonly string[];
}

export interface Thread {
  readonly messages: ThreadMessage[];
  /** By the message's place in `messages`. */
  readonly targets: MessageTargets[];
}

/** What a thread needs of the e-mail bundle. */
export type ThreadEmail = Pick<EmailModule, 'emailPage' | 'contentIsHtml'>;

/**
 * The e-mail pages of a page's thread, each made once per content and choice of images: a thread
 * built again (an update of the post, a comment, each page of the list the store reads further)
 * parses and sanitizes only the messages that changed. What the last thread did not use is let go.
 */
export class EmailPages {
  private kept = new Map<string, EmailPage>();
  private used = new Map<string, EmailPage>();

  /** `email`: the bundle, asked for at the first e-mail (it is loaded then). */
  constructor(private readonly email: () => ThreadEmail) {}

  /** For the next thread: the pages the last one used are kept, the others let go. */
  forThread(): ThreadEmail {
    this.kept = this.used;
    this.used = new Map();
    return {
      contentIsHtml: (post) => this.email().contentIsHtml(post),
      emailPage: (html, options = {}) => {
        const key = `${options.remoteImages === true}\0${options.quotedHistory ?? ''}\0${JSON.stringify(options.labels ?? {})}\0${html}`;
        const page = this.used.get(key) ?? this.kept.get(key) ?? this.email().emailPage(html, options);
        this.used.set(key, page);
        return page;
      },
    };
  }
}

/** Who wrote a post, as plain text: its nick, else its e-mail address, else the user's number; empty when none is told. */
export function authorOf(post: Post, userWord: (id: number) => string): string {
  return labelText(post.nick, 80) || labelText(post.email, 120) || (typeof post.user_id === 'number' ? userWord(post.user_id) : '');
}

/**
 * The post and its comments (those of `comments` whose parent it is, once each, oldest first).
 * `allowImages` holds the ids of the messages whose remote images the person asked for.
 */
export function buildThread(
  post: Post,
  comments: readonly Post[],
  allowImages: ReadonlySet<number>,
  email: ThreadEmail,
  words: { labels: Partial<PageLabels>; user: (id: number) => string; time: (value: unknown) => string },
): Thread {
  const seen = new Set<number>([post.id]);
  const own = comments
    .filter((comment) => comment.post_id === post.id && !seen.has(comment.id) && seen.add(comment.id))
    .sort((a, b) => a.id - b.id);
  const messages: ThreadMessage[] = [];
  const targets: MessageTargets[] = [];
  for (const item of [post, ...own]) {
    const base = {
      id: item.id,
      who: authorOf(item, words.user),
      when: words.time(item.created_at),
      comment: item !== post,
    };
    if (typeof item.content === 'string' && email.contentIsHtml(item)) {
      const shown = allowImages.has(item.id);
      const page = email.emailPage(item.content, { remoteImages: shown, labels: words.labels });
      messages.push({ ...base, html: page.html, imagesWithheld: page.images.length, imagesShown: shown });
      targets.push({ links: page.links, images: shown ? remoteImagesOf(item, email) : page.images });
    } else {
      messages.push({ ...base, text: bodyText(item.content, TEXT_CHARS), imagesWithheld: 0, imagesShown: false });
      targets.push({ links: [], images: [] });
    }
  }
  return { messages, targets };
}

/** The remote images of an e-mail shown with them: the addresses its placeholders named. */
function remoteImagesOf(post: Post, email: Pick<EmailModule, 'emailPage'>): readonly string[] {
  return email.emailPage(String(post.content), { remoteImages: false }).images;
}
