// The agent's tool to close, reopen, assign a post or set its status (helpdesk_updatePost). Asked
// like the other writes (see Questions): the person is shown exactly which fields change, from
// what to what, and the yes sends that and nothing else, once. The post is read again before the
// write: if it changed since the person was asked, nothing is written and the agent is told.
import vscode = require('vscode');
import type { Post, PostChanges } from '../../api';
import type { Account } from '../../api/account';
import { changedFields, isEmpty } from '../../api/postChanges';
import { referenceText } from '../../code/postReferences';
import { updatePostTo, type UpdateShown } from '../../commands/updatePost';
import type { Identity } from '../../accounts/identity';
import type { Services } from '../../services';
import { readSettings } from '../../settings';
import { inlineCode } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import { postTitle, statusName, userText } from '../../text/postFacts';
import { postIdOf } from '../../search/postIdOf';
import { abortOn, failureAnswer, isInput, NO_INPUT, onAccount, quoted, SIGN_IN, type Confirmation } from './tool';
import type { SignedIn } from '../../accounts/signedIn';
import { callKey, Questions } from './questions';

const { l10n } = vscode;

/** What the agent asks (any JSON value reaches the tool, whatever the schema says). */
export interface UpdatePostInput {
  post: number | string;
  closed?: boolean;
  /** A post status by its name (as the account names it) or id; null: none. */
  status?: string | number | null;
  /** A user id, "me" (the person), or null: no one. */
  assignTo?: number | 'me' | null;
}

export interface UpdatePostTools {
  /** What the person is asked before the update; undefined where the call can only answer why not. */
  updatePostConfirmation(input: unknown, token: vscode.CancellationToken): Promise<Confirmation | undefined>;
  /** The update, once the person said yes: what was done, or why not, in words for the agent. */
  updatePost(input: unknown, token: vscode.CancellationToken): Promise<string>;
}

/** An update made ready, as its question shows it; or why not. */
type Composed = { post: Post; changes: PostChanges; shown: string } | { problem: string };

const STATUS_CHARS = 100;
const NOT_ASKED =
  'Nothing was changed: VS Code did not ask the person about this update first (the helpdesk was signed out then, or the question was lost). Call the tool again, so that they are asked.';
const AMBIGUOUS =
  'Nothing was changed: two questions about this very call were open at once and showed different things, so it cannot be told which one the person said yes to. Call the tool again, so that they are asked once.';

export function updatePostTool(services: Services, identity: Identity, documents: UpdateShown): UpdatePostTools {
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);
  const questions = new Questions<Composed, Account>();
  const keyOf = (input: Readonly<Record<string, unknown>>) =>
    callKey('helpdesk_updatePost', input, ['post', 'closed', 'status', 'assignTo']);
  /** Updates under way, by account and call: the same call made again meanwhile joins it. */
  const writing = new Map<string, Promise<string>>();

  /** The statuses the window's store has read, while it is this account's still (it follows the window), else asked. */
  async function statusesOf({ account, store }: SignedIn): Promise<ReadonlyMap<number, string>> {
    return store.showing(account)?.statuses ?? (await account.statuses());
  }

  async function compose(input: Readonly<Record<string, unknown>>, here: SignedIn, token: vscode.CancellationToken): Promise<Composed> {
    const { account: signedIn } = here;
    if (signedIn.postUpdatesRefused)
      return {
        problem:
          "This helpdesk refused updating posts through its API when it was last tried: nothing was changed. The person can do it on the post's web page (or refresh the posts in VS Code to try again).",
      };
    const id = postIdOf(input.post, signedIn.url, readSettings().referencePrefix);
    if (id === undefined)
      return {
        problem: `"${labelText(String(input.post).slice(0, 200), 40)}" names no post: give its number (123), or a reference such as ${reference(123)}. Nothing was changed.`,
      };
    const wanted: PostChanges = {};
    if (input.closed !== undefined) {
      if (typeof input.closed !== 'boolean')
        return { problem: 'closed must be true (close the post) or false (reopen it). Nothing was changed.' };
      wanted.closed = input.closed;
    }
    if (input.assignTo !== undefined) {
      const to = input.assignTo;
      if (to === 'me') {
        const me = identity.me(signedIn.url);
        if (!me)
          return {
            problem:
              'Who the person is in this helpdesk is not known yet: ask them to run "Helpdesk: Set Who I Am…", or give a user id. Nothing was changed.',
          };
        wanted.responsible_id = me.id;
      } else if (to === null || (typeof to === 'number' && Number.isSafeInteger(to) && to > 0)) {
        wanted.responsible_id = to;
      } else return { problem: 'assignTo must be a user id (a positive whole number), "me", or null (no one). Nothing was changed.' };
    }
    let statuses: ReadonlyMap<number, string> | undefined;
    if (input.status !== undefined) {
      try {
        statuses = await statusesOf(here);
      } catch (error) {
        return { problem: failureAnswer('The post statuses could not be read, so nothing was changed.', error) };
      }
      const status = statusOf(input.status, statuses);
      if (typeof status === 'string') return { problem: status };
      wanted.status_id = status;
    }
    if (isEmpty(wanted)) return { problem: 'Say what to change: closed, status or assignTo. Nothing was changed.' };
    let post: Post;
    try {
      post = await signedIn.post(id, abortOn(token));
    } catch (error) {
      return { problem: failureAnswer(`Post ${reference(id)} could not be read, so nothing was changed.`, error) };
    }
    const changes = changedFields(post, wanted);
    // Without the status names: server text in an answer goes only under the "quoted" line.
    if (isEmpty(changes))
      return {
        problem: `${reference(id)} is so already (${factsOf(post, wanted, undefined, identity.me(signedIn.url)?.id).join('; ')}): nothing was changed.`,
      };
    const lines = changeLines(post, changes, statuses, identity.me(signedIn.url)?.id);
    const shown = [
      l10n.t(
        'Post {0} {1} in {2}, seen by everyone who sees that post:',
        reference(id),
        inlineCode(labelText(postTitle(post), 120)),
        inlineCode(signedIn.url),
      ),
      '',
      ...lines.map((line) => `- ${line}`),
      '',
      l10n.t('Nothing else is changed. If someone changes the post before you continue, nothing is written.'),
    ].join('\n');
    return { post, changes, shown };
  }

  async function writeShown(input: Readonly<Record<string, unknown>>, signedIn: Account, token: vscode.CancellationToken): Promise<string> {
    const answered = questions.answer(keyOf(input), signedIn);
    if ('refused' in answered) {
      if (answered.refused === 'notAsked') return NOT_ASKED;
      if (answered.refused === 'ambiguous') return AMBIGUOUS;
      return 'Nothing was changed: the person was asked about this update for the account signed in then, and this window has signed in since. Call the tool again, so that they are asked about the account in use now.';
    }
    const composed = answered.asked.what;
    if ('problem' in composed) return composed.problem;
    if (token.isCancellationRequested) return 'Cancelled: nothing was changed.';
    const { post, changes } = composed;
    const page = `Web page: ${signedIn.link('posts', post.id)}`;
    try {
      const outcome = await updatePostTo(signedIn, identity, post, changes, () => Promise.resolve(false), abortOn(token));
      if ('declined' in outcome)
        return `Nothing was changed: ${reference(post.id)} was changed by someone else after the person was asked. Call the tool again (with the same wish), so that they are asked about it as it is now. ${page}`;
      if ('unchanged' in outcome) return `${reference(post.id)} was so already: nothing was changed. ${page}`;
      if ('refused' in outcome)
        return `The helpdesk refused to update ${reference(post.id)}: it does not let posts be updated through its API. Nothing was changed; the person can do it on the post's web page. ${page}`;
      documents.showUpdated(signedIn.url, outcome.updated);
      return `${reference(post.id)} updated: ${changeLines(post, changes, undefined, undefined).join('; ')}. ${page}`;
    } catch (error) {
      services.log.error(`The helpdesk_updatePost tool could not update ${reference(post.id)}`, error);
      return failureAnswer(`${reference(post.id)} may not have been updated.`, error);
    }
  }

  /** What the person is asked about this update on `here`, kept for the yes (see Questions). */
  async function ask(input: Readonly<Record<string, unknown>>, key: string, here: SignedIn, token: vscode.CancellationToken) {
    const signedIn = here.account;
    const composed = await compose(input, here, token);
    if ('problem' in composed) {
      questions.asked(key, { what: composed, account: signedIn, shown: composed.problem });
      return undefined;
    }
    questions.asked(key, { what: composed, account: signedIn, shown: composed.shown });
    return { title: l10n.t('Update {0}?', reference(composed.post.id)), message: composed.shown };
  }

  /** The update of this call on `signedIn`, joined by the same call made again meanwhile. */
  function writeOnce(input: Readonly<Record<string, unknown>>, signedIn: Account, token: vscode.CancellationToken): Promise<string> {
    const key = `${signedIn.url}\n${keyOf(input)}`;
    const under = writing.get(key);
    if (under) return under;
    const written = writeShown(input, signedIn, token).finally(() => writing.delete(key));
    writing.set(key, written);
    return written;
  }

  return {
    async updatePostConfirmation(input, token) {
      if (!isInput(input)) return undefined;
      const key = keyOf(input);
      return onAccount(
        services.gateway,
        (here) => ask(input, key, here, token),
        () => void questions.notAsked(key),
      )();
    },

    async updatePost(input, token) {
      if (!isInput(input)) return `${NO_INPUT} Nothing was changed.`;
      return onAccount(
        services.gateway,
        ({ account }) => writeOnce(input, account, token),
        () => SIGN_IN,
      )();
    },
  };
}

/** A status the agent named: its id, null for none, or why it names none (bounded, compared as text, never as a pattern). */
/** How many statuses a wrong name is answered with: a helpdesk may have thousands. */
const STATUSES_NAMED = 100;

function statusOf(value: unknown, statuses: ReadonlyMap<number, string>): number | null | string {
  if (value === null) return null;
  if (typeof value === 'number')
    return statuses.has(value)
      ? value
      : `There is no post status ${value}. Nothing was changed. The statuses, by name and id:\n${namesOf(statuses)}`;
  if (typeof value !== 'string' || value.length > STATUS_CHARS * 4)
    return `status must be the name of a post status (at most ${STATUS_CHARS} characters), its id, or null. Nothing was changed.`;
  const wanted = value.trim().toLowerCase();
  const found = [...statuses].filter(([, name]) => name.trim().toLowerCase() === wanted);
  if (found.length === 1) return found[0]![0];
  return `${found.length ? 'Several post statuses are' : 'No post status is'} named "${labelText(value, 60)}": give one of these by its name or id. Nothing was changed. The statuses, by name and id:\n${namesOf(statuses)}`;
}

/** The statuses' names are the service's text: quoted, as every server text in an answer is. */
function namesOf(statuses: ReadonlyMap<number, string>): string {
  if (!statuses.size) return '(none)';
  const shown = [...statuses].slice(0, STATUSES_NAMED);
  const names = quoted(shown.map(([id, name]) => `${id}: ${labelText(name, 40)}`).join('\n'));
  const more = statuses.size - shown.length;
  return more > 0
    ? `${names}\n(The first ${shown.length} of ${statuses.size.toLocaleString('en-US')} statuses; ${more.toLocaleString('en-US')} more are not listed.)`
    : names;
}

/** Each change, from what to what: the question shows exactly these. */
function changeLines(
  post: Post,
  changes: PostChanges,
  statuses: ReadonlyMap<number, string> | undefined,
  me: number | undefined,
): string[] {
  const status = (id: unknown) => (typeof id === 'number' ? `${inlineCode(statusName(id, statuses))} (${id})` : 'none');
  const user = (id: unknown) => (typeof id === 'number' ? `${userText(id)}${id === me ? ' (you)' : ''}` : 'no one');
  const lines: string[] = [];
  if (changes.closed !== undefined) lines.push(changes.closed ? 'State: open → **closed**' : 'State: closed → **open** (reopened)');
  if (changes.status_id !== undefined) lines.push(`Status: ${status(post.status_id)} → **${status(changes.status_id)}**`);
  if (changes.responsible_id !== undefined) lines.push(`Assigned to: ${user(post.responsible_id)} → **${user(changes.responsible_id)}**`);
  return lines;
}

/** What the post holds of what was asked, for an answer that nothing needs changing. */
function factsOf(post: Post, wanted: PostChanges, statuses: ReadonlyMap<number, string> | undefined, me: number | undefined): string[] {
  return changeLines(post, wanted, statuses, me).map((line) => line.replace(/: .* → /, ': ').replace(/ \(reopened\)$/, ''));
}
