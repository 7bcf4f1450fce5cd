// The machinery of the helpdesk's write tools for VS Code's agent and MCP (file a bug, create a
// task, comment on a post: fileBug.ts, createTask.ts, commentOnPost.ts). Each asks the person
// first: its confirmation shows the whole text and where it goes, and nothing is saved or sent
// before the person says yes (VS Code calls `write` only then). A write then goes the way of
// every other: saved as a draft, sent once with its marker. An answer lost on the way leaves the
// draft; the same call again sends that draft, which looks for its post before it sends, so an
// agent that retries never files twice.
import vscode = require('vscode');
import type { Account } from '../../api/account';
import { referenceText } from '../../code/postReferences';
import type { Draft } from '../../drafts/drafts';
import { twinsOf, type FiledIntent } from '../../drafts/filedIntents';
import { filedText } from '../../drafts/filing';
import { agoWords, draftDocument, type Sent } from '../../drafts/sendDraft';
import type { Services } from '../../services';
import { readSettings } from '../../settings';
import { codeBlock } from '../../text/markdown';
import { commentOnPost } from './commentOnPost';
import { createTask } from './createTask';
import { fileBug } from './fileBug';
import { callKey, Questions } from './questions';
import { failureAnswer, isInput, isSignInFailure, NO_INPUT, onAccount, quoted, SIGN_IN, type Confirmation } from './tool';
import { FIELDS, writeFieldsOf, type Fresh, type WriteFields, type WriteKind, type WriteTool } from './write';
import { relativeTime } from '../../text/intl';

const { l10n } = vscode;

export type { CommentOnPostInput, FileInput, WriteInput, WriteTool } from './write';

/** Each input is what VS Code (or the MCP endpoint) hands over as the agent wrote it: any JSON value, whatever the schema says. */
export interface WriteTools {
  /**
   * What the person is asked before `tool` writes (nothing is saved or sent by asking); undefined
   * where there is nothing to ask, because the call can only answer why it cannot write.
   */
  confirmation(tool: WriteTool, input: unknown, token: vscode.CancellationToken): Promise<Confirmation | undefined>;
  /** The write, once the person said yes: its post, or why not, in words for the agent. */
  write(tool: WriteTool, input: unknown, token: vscode.CancellationToken): Promise<string>;
}

/** What each tool adds to the machinery. */
const KINDS: Readonly<Record<WriteTool, WriteKind>> = {
  helpdesk_fileBug: fileBug,
  helpdesk_createTask: createTask,
  helpdesk_commentOnPost: commentOnPost,
};

/**
 * A write made ready, as its question shows it: a new draft to send (after a twin the person is
 * asked to file again), a kept draft to send, a post filed lately to answer with, or why not.
 */
type Composed =
  | Fresh
  | { kept: Draft; ref: string; title: string; where: string }
  | { answerWith: FiledIntent; title: string; where: string }
  | { problem: string };

const NOT_ASKED =
  'Nothing was written: VS Code did not ask the person about this write first (the helpdesk was signed out then, or the question was lost). Call the tool again, so that they are asked.';
const AMBIGUOUS =
  'Nothing was written: the person was asked about this very call more than once (in two chats, or once refused), and the questions showed different things, so it cannot be told which one they said yes to. Call the tool again, so that they are asked once.';
const EDITING =
  'Nothing was sent: the person is editing the draft of this very write in VS Code (kept from an earlier attempt). They can send it from there with "Send Draft"; do not call the tool again for it.';
const NOT_WRITTEN = `${NO_INPUT} Nothing was written.`;

export function writeTools(services: Services): WriteTools {
  const { gateway, drafts, sender, log } = services;
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);
  const filedIntents = sender.filedIntents;
  // A yes sends what its question showed, and only that (the file may change in between, the
  // window may switch accounts, two chats may ask at once): see Questions.
  const questions = new Questions<Composed, Account>();
  const keyOf = (tool: WriteTool, input: Readonly<Record<string, unknown>>) => callKey(tool, input, FIELDS);
  /** Writes under way, by account and call: the same call made again meanwhile joins it. */
  const writing = new Map<string, Promise<string>>();

  /** The agent's input (read at its entry: its fields, or why not) made ready on `signedIn`. */
  async function compose(
    tool: WriteTool,
    fields: WriteFields | string,
    signedIn: Account,
    token: vscode.CancellationToken,
  ): Promise<Composed> {
    if (typeof fields === 'string') return { problem: `${fields} Nothing was written.` };
    const made = await KINDS[tool].compose(fields, signedIn, token, log);
    if ('problem' in made) return made;
    return againstTwin(tool, fields, made);
  }

  /**
   * The same intent written lately (see twinOf): a kept draft of it is what is sent (the question
   * shows it); a post filed with it is what the agent is answered with, unless it asked to file
   * again, and then the question names that post.
   */
  async function againstTwin(tool: WriteTool, fields: WriteFields, made: Fresh): Promise<Composed> {
    const now = Date.now();
    const twins = await twinsOf({ ...made.draft, id: '', createdAt: now, updatedAt: now }, drafts.all(), filedIntents);
    const { kept, filed } = twins ?? {};
    // A kept draft with its marker is what is sent: if its attempt reached the helpdesk, its post is found, not filed again.
    const keptRef = kept && (kept.unconfirmed?.ref ?? kept.ref);
    if (kept && keptRef) {
      // Its open editor would be saved and sent with it: what the person types there is theirs to send.
      if (draftDocument(kept.id)?.isDirty) return { problem: EDITING };
      const where = kept.unconfirmed
        ? l10n.t(
            '{0}. This sends the draft kept in VS Code from an earlier attempt whose answer was lost (it may be on the helpdesk: sending looks for its post first, and files nothing twice), as it is now',
            made.where,
          )
        : l10n.t('{0}. This sends the draft kept in VS Code from an earlier call, not sent yet, as it is now', made.where);
      return { kept, ref: keptRef, title: made.title, where };
    }
    if (!filed) return made;
    const named = KINDS[tool].twin(reference(filed.postId), agoWords(now - filed.at));
    if (fields.fileAgain === true)
      return {
        ...made,
        again: filed,
        title: KINDS[tool].again(),
        where: l10n.t('{0}. Continue files another one: {1}', named, made.where),
      };
    return {
      answerWith: filed,
      title: l10n.t('Answer with {0}?', reference(filed.postId)),
      where: l10n.t(
        '{0}. Continue tells the agent about {1} and writes nothing new (to file another one, the agent can call again with fileAgain: true)',
        named,
        reference(filed.postId),
      ),
    };
  }

  /** The question: where it goes, and the title and content exactly as they are sent. */
  function questionOf(composed: Exclude<Composed, { problem: string }>): Confirmation {
    const intro = `${composed.where}.`;
    if ('answerWith' in composed)
      return { title: composed.title, message: `${intro} ${l10n.t('If you do not continue, nothing is written.')}` };
    const sent = 'kept' in composed ? filedText(composed.kept, composed.ref) : filedText(composed.draft, composed.draft.ref);
    const message = [
      `${intro} ${l10n.t('It is saved as a draft and sent once; if you do not continue, nothing is written.')}`,
      '',
      l10n.t('Title, as sent:'),
      '',
      codeBlock(sent.title),
      '',
      l10n.t('Content, as sent:'),
      '',
      codeBlock(sent.content),
      '',
      l10n.t(
        'Its first line, "Sent from VS Code · hb-…", marks the post, so that a retry after a lost answer finds it instead of filing it twice.',
      ),
    ].join('\n');
    return { title: composed.title, message };
  }

  /** Sends what the person was shown for this call, with the account it was shown for. */
  async function writeShown(
    tool: WriteTool,
    input: Readonly<Record<string, unknown>>,
    signedIn: Account,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const answered = questions.answer(keyOf(tool, input), signedIn);
    if ('refused' in answered) {
      if (answered.refused === 'notAsked') return NOT_ASKED;
      if (answered.refused === 'ambiguous') return AMBIGUOUS;
      return `Nothing was written: the person was asked about this write for ${answered.asked?.account.url ?? 'another account'} as signed in then, and this window has signed in since (another account, or again). Call the tool again, so that they are asked about the account in use now.`;
    }
    const composed = answered.asked.what;
    if ('problem' in composed) return composed.problem;
    if (token.isCancellationRequested) return 'Cancelled: nothing was written.';
    if ('answerWith' in composed) {
      const { postId, at } = composed.answerWith;
      return `${reference(postId)} was filed with this intent ${englishAgo(Date.now() - at)} from VS Code; the person chose to answer with it. Nothing new was written. Web page: ${signedIn.link('posts', postId)}`;
    }
    let draft: Draft;
    if ('kept' in composed) {
      const now = await drafts.read(composed.kept.id);
      if (!now)
        return 'Nothing was written: the draft the person was shown was sent or discarded in VS Code since. Call the tool again to be told which.';
      if (now.text !== composed.kept.text || (now.unconfirmed?.ref ?? now.ref) !== composed.ref)
        return 'Nothing was written: the draft the person was shown was edited since. Call the tool again, so that they are asked about it as it is now.';
      if (draftDocument(now.id)?.isDirty) return EDITING;
      draft = now;
    } else {
      draft = await drafts.create(composed.draft, { claimed: true });
    }
    try {
      return answer(
        tool,
        draft,
        await sender.sendSaying(draft.id, { fileAgainAfter: 'again' in composed ? composed.again?.postId : undefined }),
        signedIn,
      );
    } catch (error) {
      log.error(`The ${tool} tool could not send draft ${draft.id}`, error);
      return failureAnswer('Not sent; the draft is kept in VS Code.', error);
    }
  }

  /** The answer to the agent once the sender is done. */
  function answer(tool: WriteTool, draft: Draft, sent: Sent, signedIn: Account): string {
    if ('post' in sent) {
      const { post } = sent;
      const page = `Web page: ${signedIn.link('posts', draft.postId ?? post.id)}`;
      if (sent.earlier)
        return `${reference(post.id)} was on the helpdesk already: an earlier attempt with this text reached it, only its answer was lost. Nothing was sent twice. ${page}`;
      return `${KINDS[tool].filed(post, draft, reference)} ${page}`;
    }
    const kept = drafts.get(draft.id)
      ? 'The draft is kept in VS Code, where the person can edit or send it. Calling this tool again with the same input sends that same draft: it looks first whether an earlier attempt reached the helpdesk, so nothing is filed twice.'
      : 'No draft of it is left.';
    if (isSignInFailure(sent.error)) return `${SIGN_IN} Not sent. ${kept}`;
    return [`Not sent. ${kept} Why:`, quoted(sent.notSent)].join('\n');
  }

  /** What the person is asked about this call on `signedIn`, kept for the yes (see Questions). */
  async function ask(
    tool: WriteTool,
    fields: WriteFields | string,
    key: string,
    signedIn: Account,
    token: vscode.CancellationToken,
  ): Promise<Confirmation | undefined> {
    const made = await compose(tool, fields, signedIn, token);
    // Asked again while a question of this call is open, with the same text: the same marker, so both show what is sent.
    const composed =
      ('draft' in made &&
        questions.same(
          key,
          signedIn,
          (what) => 'draft' in what && what.draft.text === made.draft.text && what.again?.postId === made.again?.postId,
        )) ||
      made;
    if ('problem' in composed) {
      questions.asked(key, { what: composed, account: signedIn, shown: composed.problem });
      return undefined;
    }
    const question = questionOf(composed);
    questions.asked(key, { what: composed, account: signedIn, shown: `${question.title}\n${question.message}` });
    return question;
  }

  /** The write of this call on `signedIn`, joined by the same call made again meanwhile. */
  function writeOnce(
    tool: WriteTool,
    input: Readonly<Record<string, unknown>>,
    signedIn: Account,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const key = `${signedIn.url}\n${keyOf(tool, input)}`;
    const under = writing.get(key);
    if (under) return under;
    const written = writeShown(tool, input, signedIn, token).finally(() => writing.delete(key));
    writing.set(key, written);
    return written;
  }

  return {
    async confirmation(tool, input, token) {
      if (!isInput(input)) return undefined;
      const key = keyOf(tool, input);
      // Read into its fields where it enters; what is wrong with them is told as the composition's problem.
      const fields = writeFieldsOf(input);
      return onAccount(
        gateway,
        ({ account }) => ask(tool, fields, key, account, token),
        () => void questions.notAsked(key),
      )();
    },

    async write(tool, input, token) {
      if (!isInput(input)) return NOT_WRITTEN;
      return onAccount(
        gateway,
        ({ account }) => writeOnce(tool, input, account, token),
        () => SIGN_IN,
      )();
    },
  };
}

/** How long ago, in the English of the answers agents read (the question shows the person's language). */
function englishAgo(ms: number): string {
  return ms < 60_000 ? 'just now' : relativeTime(-Math.floor(ms / 60_000) * 60, 'en');
}
