// A post's facts in words, said once for every place that shows them: the Helpdesk view's rows
// and their tooltips, the hover on a reference, the post document and the agent's answers. Each
// function answers plain text (server text made plain by labelText, never escaped here): each
// user escapes it as its medium needs (Markdown for hovers and documents, a quoted fence for the
// agent), and none words a fact itself.
import vscode = require('vscode');
import type { Client, Post } from '../api';
import { nickSeen } from '../accounts/usersSeen';
import { contentText } from './contentText';
import { labelText } from './serverText';
import { dateTimeText, numberText, relativeTime } from './intl';
import { plural } from './plural';

const { l10n } = vscode;

/** What the words of a post's facts need besides the post: the account's names, and the time. */
export interface FactsContext {
  /** The account's post statuses by id (undefined: not read yet: a status is named by number). */
  readonly statuses?: ReadonlyMap<number, string> | undefined;
  /** The account's clients loaded so far (a client not among them is named by number). */
  readonly clients?: readonly Client[] | undefined;
  /** Now, in ms since the epoch: what an age is counted from. */
  readonly now: number;
}

/** Its title, else the start of its content, else its number. */
export function postTitle(post: Post): string {
  // Only the start of the content is converted: a title needs no more.
  return labelText(post.title) || labelText(contentText(post, 1000).text, 60) || l10n.t('Post #{0}', post.id);
}

/** The service's kinds and task kinds (api-spec.md) by name in the display language. */
const KIND_NAMES: Readonly<Record<string, () => string>> = {
  suggestion: () => l10n.t('suggestion'),
  error: () => l10n.t('error'),
  question: () => l10n.t('question'),
  praise: () => l10n.t('praise'),
  private: () => l10n.t('private'),
  feedback: () => l10n.t('feedback'),
  email: () => l10n.t('email'),
  task: () => l10n.t('task'),
  help: () => l10n.t('help'),
  chat: () => l10n.t('chat'),
  phone: () => l10n.t('phone'),
  lead: () => l10n.t('lead'),
  idea: () => l10n.t('idea'),
  comment: () => l10n.t('comment'),
};

/** A kind by its name ("błąd" in Polish), or one the service added since as it sends it, made plain. */
export function kindName(kind: string): string {
  // Own keys only: a kind such as "constructor" must not find Object.prototype's.
  return Object.hasOwn(KIND_NAMES, kind) ? KIND_NAMES[kind]!() : labelText(kind, 20);
}

/** Its kind and task kind, each once ("error", "task / error"); undefined without either. */
export function kindText(post: Post): string | undefined {
  const kinds = [post.kind, post.task_kind].map((kind) => labelText(kind, 20)).filter(Boolean);
  return [...new Set(kinds)].map(kindName).join(' / ') || undefined;
}

/** "open" or "closed". */
export function stateText(post: Pick<Post, 'closed'>): string {
  return post.closed === true ? l10n.t('closed') : l10n.t('open');
}

/** A status by name where the service told the names, else by id. */
export function statusName(id: number, statuses: ReadonlyMap<number, string> | undefined): string {
  return labelText(statuses?.get(id), 40) || l10n.t('status #{0}', id);
}

/** A post's status (see `statusName`); undefined without one. */
export function statusText(post: Post, statuses: ReadonlyMap<number, string> | undefined): string | undefined {
  return typeof post.status_id === 'number' ? statusName(post.status_id, statuses) : undefined;
}

/** A post's client by name where the loaded clients have it, else by id; undefined without one. */
export function clientText(post: Post, clients: readonly Client[] | undefined): string | undefined {
  if (typeof post.client_id !== 'number') return undefined;
  const client = clients?.find((c) => c.id === post.client_id);
  return (client && labelText(client.name, 60)) || l10n.t('client #{0}', post.client_id);
}

/** A user of the account by number: "user 7". */
export function userText(id: number): string {
  return l10n.t('user {0}', id);
}

/**
 * A user of the account by the name the loaded posts give them ("anna (user 2)", the nick made
 * plain), else by number ("user 2"): `posts` undefined for another account's post, whose users
 * the loaded posts do not name.
 */
export function personText(id: number, posts: readonly Post[] | undefined): string {
  const nick = posts && labelText(nickSeen(posts, id), 40);
  return nick ? l10n.t('{0} (user {1})', nick, id) : userText(id);
}

/** Who a post is assigned to (see `personText`); undefined where no one is. */
export function assigneeText(post: Post, posts: readonly Post[] | undefined): string | undefined {
  return typeof post.responsible_id === 'number' ? personText(post.responsible_id, posts) : undefined;
}

/** "1 comment", "3 comments", as the service counts them; undefined where it does not. */
export function commentsText(post: Post): string | undefined {
  const count = post.comments_cache;
  if (typeof count !== 'number') return undefined;
  return plural(count, {
    one: l10n.t({ message: '{0} comment', args: [numberText(count)], comment: 'plural: one' }),
    few: l10n.t({ message: '{0} comments', args: [numberText(count)], comment: 'plural: few' }),
    many: l10n.t({ message: '{0} comments', args: [numberText(count)], comment: 'plural: many' }),
    other: l10n.t({ message: '{0} comments', args: [numberText(count)], comment: 'plural: other' }),
  });
}

/** A time the service sent, as a date and time in the display language; what it sent (made plain) where that is no time. */
export function timeText(value: unknown): string {
  return dateTimeText(value) ?? labelText(value, 40);
}

/** "3 days ago", from the post's creation time; undefined for a time that cannot be read. */
export function ageText(post: Pick<Post, 'created_at'>, now: number): string | undefined {
  const at = typeof post.created_at === 'string' ? Date.parse(post.created_at) : NaN;
  if (!Number.isFinite(at)) return undefined;
  return relativeTime(Math.round((at - now) / 1000));
}

/**
 * Its facts in the one order every place shows them: kind, status, open or closed, client,
 * comments, age; those it has not left out. Joined with " · " by each user.
 */
export function postFacts(post: Post, context: FactsContext): string[] {
  return [
    kindText(post),
    statusText(post, context.statuses),
    stateText(post),
    clientText(post, context.clients),
    commentsText(post),
    ageText(post, context.now),
  ].filter((fact): fact is string => !!fact);
}

/**
 * The facts of another account's post, whose statuses and clients this window does not know (a
 * number of theirs would name another thing here): kind, open or closed, comments, age.
 */
export function foreignPostFacts(post: Post, now: number): string[] {
  return [kindText(post), stateText(post), commentsText(post), ageText(post, now)].filter((fact): fact is string => !!fact);
}
