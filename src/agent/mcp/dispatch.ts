// What the window does with an MCP call: the very tools VS Code's agent calls (HelpdeskTools, one
// set per window), through the same two steps. A write is asked first with the question its
// language model tool shows (the same Questions, drafts, marker and "filed already" rules), in a
// modal dialog of this window that names the client; refused, the answer says so and nothing is
// written or kept. The same call made again while one is under way (two at once) joins it, and one
// made again after its client gave up on it waits for the question still open: one question, one write.
import { createHash } from 'node:crypto';
import vscode = require('vscode');
import type { ReadTool } from '../tools/postTools';
import type { HelpdeskTools } from '../tools/registerTools';
import { TOOL_ANSWER_CHARS, type Confirmation } from '../tools/tool';
import { cutMarkdown } from '../../text/markdown';
import type { CallHandler, EndpointCall } from './endpoint';
import { MCP_WRITES, type Answer, type McpToolName } from './protocol';

/** Shows `question` (one line, naming the client) with `detail` (the tool's whole question) modally; true for a yes. */
export type Ask = (question: string, detail: string) => Promise<boolean>;

export const DECLINED =
  'The person declined in VS Code: nothing was written, and nothing of it is kept. Do not call again for this unless they ask you to.';
/** A yes that came after the agent had gone (and no call the same joined it): nothing is written. */
export const GONE = 'The call was cancelled before the person answered: nothing was written.';

/** How many questions may wait for the person at once: each is a dialog of its own. */
const QUESTIONS_WAITING = 8;
export const TOO_MANY_QUESTIONS = `The person has ${QUESTIONS_WAITING} questions from agents waiting in VS Code already: this one was not asked, and nothing was written. Call again once they have answered.`;

type Consent = 'yes' | 'no' | 'nothingAsked' | 'tooMany';

/** The question's first line: who asks, and the title of the tool's question. */
export function questionLine(client: string, title: string): string {
  return vscode.l10n.t('{0} asks: {1}', client, title);
}

export function mcpDispatch(tools: HelpdeskTools, ask: Ask): CallHandler {
  /** Calls under way, by client, tool and input: the same call again joins it. */
  const underWay = new Map<string, { answer: Promise<Answer>; callers: number; controller: AbortController }>();

  /** Questions waiting for the person, by call: the same call made again (after its client gave up on it) waits for the same one. */
  const waiting = new Map<string, Promise<boolean>>();

  /**
   * Whether the person said yes to this call: the question still waiting for the same call, or the
   * one `compose` makes (composed once: a retry composes nothing again), or nothing to ask.
   */
  async function consent(key: string, client: string, compose: () => Promise<Confirmation | undefined>): Promise<Consent> {
    const open = waiting.get(key);
    if (open) return (await open) ? 'yes' : 'no';
    if (waiting.size >= QUESTIONS_WAITING) return 'tooMany';
    const asked = await compose();
    // Nothing to ask (signed out, or a call that can only answer why not): the tool says it, as after VS Code's own.
    if (!asked) return 'nothingAsked';
    const question = waiting.get(key) ?? ask(questionLine(client, asked.title), asked.message);
    waiting.set(key, question);
    void question.finally(() => waiting.get(key) === question && waiting.delete(key)).catch(() => undefined);
    return (await question) ? 'yes' : 'no';
  }

  async function run({ tool, input, client }: EndpointCall, key: string, token: vscode.CancellationToken): Promise<Answer> {
    // A read answers its data too (the read tools' output schemas); a write, words.
    if (tool === 'helpdesk_searchPosts' || tool === 'helpdesk_getPost') return tools.read(tool, input, token);
    return { text: await write(tool, input, client, key, token) };
  }

  async function write(
    tool: Exclude<McpToolName, ReadTool>,
    input: unknown,
    client: string,
    key: string,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const update = tool === 'helpdesk_updatePost';
    const said = await consent(key, client, () =>
      update ? tools.updatePostConfirmation(input, token) : tools.confirmation(tool, input, token),
    );
    if (said === 'tooMany') return TOO_MANY_QUESTIONS;
    if (said === 'no') return update ? DECLINED.replace('written', 'changed') : DECLINED;
    // Not handed to the tool: the same call made again (the agent retrying after its timeout)
    // waits for the same question, and its yes writes once, for the call that is still there.
    if (said === 'yes' && token.isCancellationRequested) return GONE;
    return update ? tools.updatePost(input, token) : tools.write(tool, input, token);
  }

  /** Answers by idempotency key (client, tool and key): the same key again is the first call's answer, never a second write. */
  const byKey = new Map<string, { answer: Promise<Answer>; at: number }>();

  const joinCall: CallHandler = (call, signal) => {
    const key = keyOf(call);
    let entry = underWay.get(key);
    // A call whose callers all went is not joined: its answer may be "cancelled".
    if (!entry || entry.controller.signal.aborted) {
      const controller = new AbortController();
      const answer = run(call, key, tokenOf(controller.signal)).then(({ text, data }) => ({
        text: cutMarkdown(text, TOOL_ANSWER_CHARS),
        data,
      }));
      const made: typeof entry = { answer, callers: 0, controller };
      void made.answer.finally(() => underWay.get(key) === made && underWay.delete(key)).catch(() => undefined);
      entry = made;
      underWay.set(key, entry);
    }
    const joined = entry;
    joined.callers += 1;
    // Cancelled only when every caller has gone.
    const leave = () => {
      joined.callers -= 1;
      if (joined.callers === 0) joined.controller.abort();
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    return joined.answer.finally(() => signal.removeEventListener('abort', leave));
  };

  return (given, signal) => {
    const { call, idempotency } = withoutKey(given);
    if (idempotency === undefined || !MCP_WRITES[call.tool]) return joinCall(call, signal);
    const now = Date.now();
    for (const [kept, { at }] of byKey) if (now - at > KEYS_KEPT_MS || byKey.size > KEYS_KEPT) byKey.delete(kept);
    const key = createHash('sha256').update(`${call.client}\0${call.tool}\0${idempotency}`).digest('hex');
    const known = byKey.get(key);
    if (known) return known.answer;
    const answer = joinCall(call, signal);
    const entry = { answer, at: now };
    byKey.set(key, entry);
    // A call that did not come to an answer of its own (cancelled, or not asked) is no first call.
    void answer
      .then(({ text }) => (text === GONE || text === TOO_MANY_QUESTIONS) && byKey.get(key) === entry && byKey.delete(key))
      .catch(() => byKey.get(key) === entry && byKey.delete(key));
    return answer;
  };
}

/** How long, and how many, idempotency keys are remembered (a day's retries of one agent's session). */
const KEYS_KEPT_MS = 24 * 60 * 60 * 1000;
const KEYS_KEPT = 500;
/** The longest idempotency key taken; a longer one, or one of another type, is none. */
const KEY_CHARS = 200;

/** The call without its optional idempotency key (the tools never see it), and the key where it is one. */
function withoutKey(call: EndpointCall): { call: EndpointCall; idempotency: string | undefined } {
  const { input } = call;
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !('idempotencyKey' in input))
    return { call, idempotency: undefined };
  const { idempotencyKey, ...rest } = input as Record<string, unknown>;
  const idempotency =
    typeof idempotencyKey === 'string' && idempotencyKey.length > 0 && idempotencyKey.length <= KEY_CHARS ? idempotencyKey : undefined;
  return { call: { ...call, input: rest }, idempotency };
}

/** A call by its client, tool and whole input, hashed (the input came from a bounded line: linear). */
function keyOf({ tool, input, client }: EndpointCall): string {
  return createHash('sha256')
    .update(`${client}\0${tool}\0`)
    .update(JSON.stringify(input) ?? 'undefined')
    .digest('hex');
}

/** A CancellationToken that follows the signal. */
export function tokenOf(signal: AbortSignal): vscode.CancellationToken {
  return {
    get isCancellationRequested() {
      return signal.aborted;
    },
    onCancellationRequested: (listener: (e: unknown) => unknown) => {
      const fire = () => listener(undefined);
      signal.addEventListener('abort', fire, { once: true });
      return { dispose: () => signal.removeEventListener('abort', fire) };
    },
  };
}
