// What the window does with an MCP call: the very tools VS Code's agent calls (HelpdeskTools, one
// set per window), through the same two steps. A write is asked first with the question its
// language model tool shows (the same Questions, drafts, marker and "filed already" rules), in a
// modal dialog of this window that names the client; refused, the answer says so and nothing is
// written or kept. The same call made again while one is under way (a client that timed out and
// retried, or two at once) joins it: one question, one write.
import { createHash } from 'node:crypto';
import vscode = require('vscode');
import type { HelpdeskTools } from '../tools/registerTools';
import type { WriteTool } from '../tools/writeTools';
import type { CallHandler, EndpointCall } from './endpoint';
import type { McpToolName } from './protocol';

/** Shows `question` (one line, naming the client) with `detail` (the tool's whole question) modally; true for a yes. */
export type Ask = (question: string, detail: string) => Promise<boolean>;

export const DECLINED =
  'The person declined in VS Code: nothing was written, and nothing of it is kept. Do not call again for this unless they ask you to.';
/** A yes that came after the agent had gone: its question stays open, for the same call made again. */
export const GONE = 'The call was cancelled before the person answered: nothing was written.';

/** The question's first line: who asks, and the title of the tool's question. */
export function questionLine(client: string, title: string): string {
  return vscode.l10n.t('{0} asks: {1}', client, title);
}

export function mcpDispatch(tools: HelpdeskTools, ask: Ask): CallHandler {
  /** Calls under way, by client, tool and input: the same call again joins it. */
  const underWay = new Map<string, { answer: Promise<string>; callers: number; controller: AbortController }>();

  async function run({ tool, input, client }: EndpointCall, token: vscode.CancellationToken): Promise<string> {
    if (tool === 'helpdesk_searchPosts') return tools.searchPosts(input, token);
    if (tool === 'helpdesk_getPost') return tools.getPost(input, token);
    if (tool === 'helpdesk_updatePost') {
      const asked = await tools.updatePostConfirmation(input, token);
      // Nothing to ask (signed out, or a call that can only answer why not): the tool says it, as after VS Code's own.
      if (asked && !(await ask(questionLine(client, asked.title), asked.message))) return DECLINED.replace('written', 'changed');
      if (asked && token.isCancellationRequested) return GONE;
      return tools.updatePost(input, token);
    }
    const write: WriteTool = tool;
    const asked = await tools.confirmation(write, input, token);
    if (asked && !(await ask(questionLine(client, asked.title), asked.message))) return DECLINED;
    // Not handed to the tool: its question stays open, and the same call made again (the agent
    // retrying after its timeout) is answered by the yes to its own question, once.
    if (asked && token.isCancellationRequested) return GONE;
    return tools.write(write, input, token);
  }

  return (call, signal) => {
    const key = keyOf(call);
    let entry = underWay.get(key);
    // A call whose callers all went is not joined: its answer may be "cancelled".
    if (!entry || entry.controller.signal.aborted) {
      const controller = new AbortController();
      const made: typeof entry = { answer: run(call, tokenOf(controller.signal)), callers: 0, controller };
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

/** Which tools write (and are asked): the others only read. */
export const WRITES: Readonly<Record<McpToolName, boolean>> = {
  helpdesk_searchPosts: false,
  helpdesk_getPost: false,
  helpdesk_fileBug: true,
  helpdesk_createTask: true,
  helpdesk_commentOnPost: true,
  helpdesk_updatePost: true,
};
