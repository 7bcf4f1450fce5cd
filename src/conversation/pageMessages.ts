/**
 * What the conversation page may ask of the extension, read where it enters: anything else, or
 * anything naming another post or account than the panel's, is dropped. The page is ours, but
 * what it shows is a stranger's e-mail: were any of it ever to run, this is all it could say,
 * and each request still goes through the extension's own checks (a link is opened only by its
 * number in the extension's own list, through VS Code's confirmation). No vscode.
 */

/** The actions the page offers, each one of the extension's commands (see panel.ts). */
export const PAGE_ACTIONS = [
  'close',
  'reopen',
  'assignToMe',
  'assign',
  'setStatus',
  'startWork',
  'goToCode',
  'openInBrowser',
  'openAsText',
  'refresh',
] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** The longest reply the page may send (characters): what a draft holds, less room for its title. */
export const MAX_REPLY_CHARS = 100_000;
/** The most messages (the post and its comments) and links or images in one of them a page can name. */
const MAX_INDEX = 10_000;

/** A request of the page, once read: the panel's own post and account, checked. */
export type PageMessage =
  /** The page has loaded; `reply` is what its own state kept of an unsent reply (after a reload). */
  | { readonly type: 'ready'; readonly reply?: string }
  /** The reply as typed: kept as a draft. */
  | { readonly type: 'reply'; readonly text: string }
  | { readonly type: 'send'; readonly text: string }
  /** Send again the reply whose send failed. */
  | { readonly type: 'retry' }
  /** The person wants to edit the reply whose send failed (the draft is kept). */
  | { readonly type: 'edit' }
  /** Open, in an editor, the reply draft the page left: too long for the box, or changed elsewhere (see Reply.keptDraft). */
  | { readonly type: 'openKeptDraft' }
  /** Link `link` of message `message` (its number among the thread's messages). */
  | { readonly type: 'openLink'; readonly message: number; readonly link: number }
  | { readonly type: 'loadImages'; readonly message: number }
  /** Another open post of the client (its id), in a page of its own. */
  | { readonly type: 'openPost'; readonly id: number }
  | { readonly type: 'action'; readonly action: PageAction };

/** What the page must name in every message: the panel's post and account. */
export interface PanelIdentity {
  readonly accountUrl: string;
  readonly postId: number;
}

const FIELDS: Record<PageMessage['type'], readonly string[]> = {
  ready: ['reply'],
  reply: ['text'],
  send: ['text'],
  retry: [],
  edit: [],
  openKeptDraft: [],
  openLink: ['message', 'link'],
  loadImages: ['message'],
  openPost: ['id'],
  action: ['action'],
};
/** Every message names these beside its own fields. */
const ALWAYS = ['type', 'account', 'post'];

const isIndex = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value < MAX_INDEX;
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isReply = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_REPLY_CHARS;

/**
 * The page's message as a request, or undefined: not a plain object of exactly its fields,
 * a field of the wrong type or size, or another post or account than the panel's.
 */
export function readPageMessage(value: unknown, panel: PanelIdentity): PageMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const message = value as Record<string, unknown>;
  const type = message.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) return undefined;
  const allowed = new Set([...ALWAYS, ...FIELDS[type as PageMessage['type']]]);
  const keys = Object.keys(message);
  if (keys.length > allowed.size || keys.some((key) => !allowed.has(key))) return undefined;
  if (message.account !== panel.accountUrl || message.post !== panel.postId) return undefined;
  switch (type as PageMessage['type']) {
    case 'ready':
      if (message.reply === undefined) return { type: 'ready' };
      return isReply(message.reply) ? { type: 'ready', reply: message.reply } : undefined;
    case 'reply':
    case 'send':
      return isReply(message.text) ? { type: type as 'reply' | 'send', text: message.text } : undefined;
    case 'retry':
      return { type: 'retry' };
    case 'edit':
      return { type: 'edit' };
    case 'openKeptDraft':
      return { type: 'openKeptDraft' };
    case 'openLink':
      return isIndex(message.message) && isIndex(message.link)
        ? { type: 'openLink', message: message.message, link: message.link }
        : undefined;
    case 'loadImages':
      return isIndex(message.message) ? { type: 'loadImages', message: message.message } : undefined;
    case 'openPost':
      return isId(message.id) && message.id !== panel.postId ? { type: 'openPost', id: message.id } : undefined;
    case 'action':
      return typeof message.action === 'string' && (PAGE_ACTIONS as readonly string[]).includes(message.action)
        ? { type: 'action', action: message.action as PageAction }
        : undefined;
  }
}
