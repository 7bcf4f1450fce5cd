import vscode = require('vscode');
import { isComment, type Client, type Deal, type Post } from '../api';
import { inertMarkdown, inertMarkdownLines } from '../text/markdown';
import { postFacts, postTitle, stateText, statusText, type FactsContext } from '../text/postFacts';
import { contentText } from '../text/contentText';
import { labelText } from '../text/serverText';
import type { RowGroup } from './shownPosts';
import { numberText } from '../text/intl';

const { l10n } = vscode;

const POST_ICONS: Record<string, string> = {
  error: 'bug',
  question: 'question',
  suggestion: 'lightbulb',
  praise: 'heart',
  private: 'lock',
  email: 'mail',
  phone: 'call-outgoing',
  chat: 'comment-discussion',
  lead: 'person-add',
  task: 'tasklist',
  help: 'question',
  feedback: 'feedback',
  idea: 'lightbulb',
  comment: 'comment',
};

export function postIcon(post: Post): vscode.ThemeIcon {
  const key = String(post.kind === 'error' || post.task_kind === 'error' ? 'error' : (post.task_kind ?? post.kind ?? ''));
  // Own keys only: a kind such as "constructor" must not find Object.prototype's.
  const id = Object.hasOwn(POST_ICONS, key) ? POST_ICONS[key]! : 'note';
  return new vscode.ThemeIcon(id, post.closed === true ? new vscode.ThemeColor('disabledForeground') : undefined);
}

/** What the news watcher found on a post, for its row. */
export interface PostNews {
  readonly changes: readonly string[];
  readonly seen: boolean;
}

export const ROW_SCHEME = 'helpdesk-row';

/** The address a post's row is decorated by (see RowDecorations): `helpdesk-row:/post/<id>`, `?unread` when the helpdesk says so. */
export function rowUri(post: Post): vscode.Uri {
  return vscode.Uri.from({ scheme: ROW_SCHEME, path: `/post/${post.id}`, query: post.unread === true ? 'unread' : '' });
}

export function changeText(change: string): string {
  if (change === 'new') return l10n.t('new');
  if (change === 'assigned') return l10n.t('assigned to you');
  if (change === 'commented') return l10n.t('new comments');
  if (change === 'closed') return l10n.t('closed');
  if (change === 'reopened') return l10n.t('reopened');
  return change;
}

/**
 * A post's row: the post, and what the row says besides (its comments loaded, its news). What VS
 * Code shows of it is worked out when asked (`treeItem`, and the getters commands and tests read),
 * not kept: a view deep in a long list holds thousands of rows.
 */
export class PostNode {
  /**
   * `names`: the account's statuses and loaded clients, which its facts are named by.
   * `comments`: how many of its comments are loaded (where the service lists comments), shown
   * below it. `news`: what the news watcher found on it.
   */
  constructor(
    readonly post: Post,
    private readonly names: Omit<FactsContext, 'now'> = {},
    private readonly comments = 0,
    readonly news?: PostNews,
  ) {}

  get id(): string {
    return `post:${this.post.id}`;
  }

  get label(): string {
    return postTitle(this.post);
  }

  get collapsibleState(): vscode.TreeItemCollapsibleState | undefined {
    return this.comments > 0 ? vscode.TreeItemCollapsibleState.Collapsed : undefined;
  }

  /** Its status, by name where known (see `statusText`). */
  get status(): string | undefined {
    return statusText(this.post, this.names.statuses);
  }

  get description(): string {
    const { post } = this;
    return [`#${post.id}`, this.status, post.closed === true ? stateText(post) : undefined].filter(Boolean).join(' · ');
  }

  get iconPath(): vscode.ThemeIcon {
    return postIcon(this.post);
  }

  get resourceUri(): vscode.Uri {
    return rowUri(this.post);
  }

  get contextValue(): string {
    const { post, news } = this;
    // `.client`: a post of a client (Show Posts of This Client).
    const kind = `${isComment(post) ? 'comment' : post.closed === true ? 'post.closed' : 'post'}${typeof post.client_id === 'number' ? '.client' : ''}`;
    return news ? `${kind}.${news.seen ? 'seen' : 'unseen'}` : kind;
  }

  get command(): vscode.Command {
    return { command: 'helpdesk.openPost', title: l10n.t('Open Post'), arguments: [this] };
  }

  get accessibilityInformation(): vscode.AccessibilityInformation {
    return { label: `${this.label}, ${this.description}` };
  }

  /** What VS Code shows of the row (its tooltip comes on hover: see `tooltipMarkdown`). */
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, this.collapsibleState);
    item.id = this.id;
    item.description = this.description;
    item.iconPath = this.iconPath;
    item.resourceUri = this.resourceUri;
    item.contextValue = this.contextValue;
    item.command = this.command;
    item.accessibilityInformation = this.accessibilityInformation;
    return item;
  }

  /** Built on hover only; server text is escaped and never trusted (no command links, no HTML). */
  tooltipMarkdown(now = Date.now()): vscode.MarkdownString {
    const { post } = this;
    const md = new vscode.MarkdownString('', true);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendMarkdown(`**${inertMarkdown(postTitle(post))}**\n\n`);
    md.appendMarkdown(inertMarkdown([`#${post.id}`, ...postFacts(post, { ...this.names, now })].join(' · ')));
    const content = contentText(post, 600).text.trim();
    if (content) md.appendMarkdown(`\n\n---\n\n${inertMarkdownLines(content)}`);
    return md;
  }
}

export class ClientNode extends vscode.TreeItem {
  constructor(readonly client: Client) {
    super(labelText(client.name) || l10n.t('Client #{0}', client.id), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `client:${client.id}`;
    this.description = labelText([client.city, client.email].filter((v) => typeof v === 'string' && v).join(' · '), 80);
    this.iconPath = new vscode.ThemeIcon(client.company === false ? 'person' : 'organization');
    this.contextValue = 'client';
  }
}

export class DealNode extends vscode.TreeItem {
  constructor(readonly deal: Deal) {
    super(labelText(deal.name) || l10n.t('Deal #{0}', deal.id));
    this.id = `deal:${deal.id}`;
    const price = typeof deal.price === 'number' || typeof deal.price === 'string' ? labelText(String(deal.price), 20) : '';
    this.description = [`#${deal.id}`, price].filter(Boolean).join(' · ');
    this.iconPath = new vscode.ThemeIcon('briefcase');
    this.contextValue = 'deal';
  }
}

export class LoadMoreNode extends vscode.TreeItem {
  /** `busy`: what a load under way says instead of "Loading…" (the pages a quick filter reads). */
  constructor(list: 'posts' | 'clients', loading: boolean, busy?: string) {
    super(busy ?? (loading ? l10n.t('Loading…') : l10n.t('Load more…')));
    loading ||= busy !== undefined;
    this.id = `${list}:load-more`;
    this.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'ellipsis');
    this.contextValue = 'loadMore';
    this.command = { command: 'helpdesk.loadMore', title: l10n.t('Load More'), arguments: [list] };
  }
}

/**
 * Older posts folded into a group, past the rows at the top (see `rowGroups`). One object per
 * id, updated in place, so that a change inside it redraws it alone. A group still filling is
 * open and holds "Load more…"; a full one is folded under another id, unless opened by the person.
 */
export class PostGroupNode extends vscode.TreeItem {
  constructor(
    public group: RowGroup,
    open: boolean,
  ) {
    super('', open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    this.id = postGroupId(group);
    this.iconPath = new vscode.ThemeIcon('history');
    this.contextValue = 'postGroup';
  }

  /** Its label and description for the rows it holds now. */
  describe(group: RowGroup, first: Post | undefined, last: Post | undefined): this {
    this.group = group;
    this.label = l10n.t('Posts {0}–{1}', numberText(group.start + 1), numberText(group.end));
    this.description = first && last ? `#${first.id} – #${last.id}` : undefined;
    this.tooltip = l10n.t('Older posts, folded: rows {0} to {1} of those loaded.', numberText(group.start + 1), numberText(group.end));
    return this;
  }
}

/** A group's id: another one once it is full, so that it folds then. */
export function postGroupId(group: RowGroup): string {
  return `posts:group:${group.index}${group.full ? '' : ':open'}`;
}

/** A line that says something instead of data: an error with a retry, or "no deals". */
export class MessageNode extends vscode.TreeItem {
  constructor(id: string, message: string, icon: string, command?: vscode.Command) {
    super(labelText(message, 200));
    this.id = id;
    this.iconPath = new vscode.ThemeIcon(icon);
    this.tooltip = message;
    this.contextValue = 'message';
    this.command = command;
  }
}

export type HelpdeskNode = PostNode | PostGroupNode | ClientNode | DealNode | LoadMoreNode | MessageNode;
