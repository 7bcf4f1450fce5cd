/**
 * The MCP door against a stand-in, the editor faked: the window's real tools (read, write,
 * update: one HelpdeskTools, as src/extension.ts makes it) and its endpoint on a real socket, for
 * the agents of test/agent/mcpAgent.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DraftStore } from '../../src/drafts/drafts';
import { FiledIntents } from '../../src/drafts/filedIntents';
import { DraftSender } from '../../src/drafts/sendDraft';
import { Identity } from '../../src/accounts/identity';
import { Log } from '../../src/log';
import { mcpDispatch, type Ask } from '../../src/agent/mcp/dispatch';
import { openEndpoint, type Endpoint, type EndpointCall } from '../../src/agent/mcp/endpoint';
import type { Services } from '../../src/services';
import { postTools } from '../../src/agent/tools/postTools';
import type { HelpdeskTools } from '../../src/agent/tools/registerTools';
import { updatePostTool } from '../../src/agent/tools/updatePost';
import { writeTools } from '../../src/agent/tools/writeTools';
import { Notifier } from '../../src/ui/notifier';
import type { StandIn } from '../server';
import { MemoryFolder, memoryState } from './memoryState';
import { postToolsRig } from './postToolsRig';
import { filed } from './toolRig';
import { limitMs } from '../limits';

/** The stdio entry, as `node esbuild.mjs --unit` builds it (out/unit/x.test.js → dist/mcp.js). */
export const ENTRY = join(__dirname, '..', '..', 'dist', 'mcp.js');

/** Waits until `done()` holds: something the test's own action brings about (a hang guard: test/limits.ts). */
export async function until(done: () => boolean, ms = limitMs('condition')): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One window signed in to the stand-in, its endpoint open in a fresh folder. `answers` are the
 * person's answers to the next questions, in order (true: Continue); every question is kept.
 */
export async function mcpRig(server: StandIn) {
  const { session, gateway } = postToolsRig(server);
  const log = new Log();
  const ui = new Notifier(log);
  const identity = new Identity(memoryState());
  const drafts = new DraftStore(memoryState(), new MemoryFolder(), new MemoryFolder());
  const sender = new DraftSender(gateway, drafts, ui, log, undefined, new FiledIntents(new MemoryFolder()));
  const services = { session, gateway, drafts, sender, ui, log } as unknown as Services;
  const tools: HelpdeskTools = {
    ...postTools(gateway, identity),
    ...writeTools(services),
    ...updatePostTool(services, identity, { showUpdated: () => undefined, shownIn: () => undefined }),
  };
  const questions: { question: string; detail: string }[] = [];
  const answers: (boolean | Promise<boolean>)[] = [];
  const ask: Ask = async (question, detail) => {
    questions.push({ question, detail });
    return (await answers.shift()) ?? false;
  };
  const calls: EndpointCall[] = [];
  const dispatch = mcpDispatch(tools, ask);
  const folder = mkdtempSync(join(tmpdir(), 'hb-mcp-test-'));
  const logLines: string[] = [];
  const endpoint: Endpoint = await openEndpoint({
    folder,
    log: (line) => logLines.push(line),
    handle: (call, signal) => {
      calls.push(call);
      return dispatch(call, signal);
    },
  });
  return {
    session,
    gateway,
    tools,
    drafts,
    folder,
    endpoint,
    questions,
    answers,
    calls,
    logLines,
    /** The person's answer to the next question, held until the test gives it (true: Continue). */
    heldAnswer(): (yes: boolean) => void {
      let give!: (yes: boolean) => void;
      answers.push(new Promise<boolean>((resolve) => (give = resolve)));
      return give;
    },
    /** After one write: the person was asked once, its draft was sent, and `server` holds the one post it filed. */
    async askedOnceFiledOnce(server: StandIn): Promise<void> {
      assert.equal(questions.length, 1, 'one question');
      await until(() => drafts.all().length === 0);
      assert.equal(filed(server).length, 1, 'one post');
    },
    async close() {
      await endpoint.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
