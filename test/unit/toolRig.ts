/**
 * The write tools (writeTools.ts) of one window against stand-ins, the editor faked: the real
 * accounts, drafts, sender and notifier; the gateway a plain object that hands out the rig's
 * accounts. What VS Code does around them is the test's: ask (`confirmation`, prepareInvocation)
 * and, on yes, `write` (invoke).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { Account } from '../../src/api/account';
import { DraftStore } from '../../src/drafts/drafts';
import { FiledIntents } from '../../src/drafts/filedIntents';
import { DraftSender } from '../../src/drafts/sendDraft';
import type { PresenceFolder } from '../../src/drafts/windowPresence';
import { Log } from '../../src/log';
import type { SignedIn } from '../../src/accounts/signedIn';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import type { Services } from '../../src/services';
import { writeTools, type WriteInput, type WriteTool } from '../../src/agent/tools/writeTools';
import { Notifier } from '../../src/ui/notifier';
import type { StandIn } from '../server';
import { fake, Uri, type Memento } from './fakeVscode';
import { MemoryFolder, memoryState } from './memoryState';
import { accountOn, standInsForSuite } from './support';

type Token = { isCancellationRequested: boolean; onCancellationRequested: (listener: (e: unknown) => unknown) => { dispose(): void } };
export const never: Token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

export const filed = (server: StandIn) => server.requests.filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
export const sentPost = (server: StandIn, i = -1) => (filed(server).at(i)!.body as { post: Record<string, unknown> }).post;
export const withoutRef = (content: unknown) => String(content).replace(/^Sent from VS Code · hb-[0-9a-z]{10}(?:\n\n)?/, '');
/** The message outside its code fences: what a MarkdownString renders as Markdown. */
export const outsideFences = (text: string) => text.replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, '');
/** The code blocks of a message, in order. */
export const fences = (text: string) => [...text.matchAll(/^(`{3,})\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!);

export interface ToolRigOptions {
  /** The global state the windows of a test share. */
  state?: Memento;
  /** The folders the windows of a test share: drafts, presence, and what was filed lately. */
  draftsFolder?: MemoryFolder;
  presence?: PresenceFolder;
  filedFolder?: PresenceFolder;
}

/**
 * The tools of one window signed in to the first server; `switchTo` signs the window in to
 * another (the first stays signed in); `signInAgain` signs in to the same address anew (another
 * user, or the same token again: a new account either way).
 */
export function toolRig(servers: StandIn[], options: ToolRigOptions = {}) {
  const state = options.state ?? memoryState();
  const accounts = servers.map((server) => accountOn(server, state));
  let current: Account | undefined = accounts[0];
  const store = new HelpdeskStore(new Log());
  const signedIn = (): SignedIn | undefined => current && { url: current.url, usable: true, account: current, store };
  const gateway = {
    get current() {
      return signedIn();
    },
    ready: async () => signedIn(),
    accountFor: async (url: string) => (current?.url === url ? current : accounts.find((a) => a.url === url)),
  };
  const log = new Log();
  const drafts = new DraftStore(state, options.draftsFolder ?? new MemoryFolder(), options.presence ?? new MemoryFolder());
  const ui = new Notifier(log);
  const sender = new DraftSender(gateway as never, drafts, ui, log, undefined, new FiledIntents(options.filedFolder ?? new MemoryFolder()));
  /** What the commands are given (the parts a write needs). */
  const services = { gateway, drafts, sender, ui, log } as unknown as Services;
  const tools = writeTools(services);
  /** What VS Code does: ask (prepareInvocation), and on yes, invoke. */
  const confirmed = async (tool: WriteTool, input: WriteInput) => {
    const asked = await tools.confirmation(tool, input, never);
    return { asked, answer: await tools.write(tool, input, never) };
  };
  return {
    tools,
    services,
    drafts,
    sender,
    confirmed,
    account: () => current,
    switchTo: (i: number) => void (current = accounts[i]),
    signOut: () => void (current = undefined),
    signInAgain: (i = 0) => void (current = accounts[i] = accountOn(servers[i]!, state)),
    /** The window's signed-in context now, as the command table hands it to a command. */
    signedIn,
  };
}

export type ToolRig = ReturnType<typeof toolRig>;

/**
 * The hooks of a describe() of the write tools: two demo stand-ins (the second with the prefix
 * `other`), started once; before each test, both reset, the editor faked anew, a workspace folder
 * of its own, and a window signed in to the first (see toolRig); the folder removed after it.
 */
export function writeToolsSuite(folderPrefix: string) {
  const suite = {} as { server: StandIn; other: StandIn; r: ToolRig; folder: string };
  standInsForSuite(([server, other]) => Object.assign(suite, { server, other }), { seed: 'demo' }, { seed: 'demo', prefix: 'other' });
  beforeEach(() => {
    suite.server.clearFaults();
    fake.reset();
    fake.config.set('helpdesk.requestTimeoutSeconds', 3);
    suite.folder = mkdtempSync(join(tmpdir(), folderPrefix));
    fake.folders.push({ uri: Uri.file(suite.folder), name: 'ws', index: 0 });
    suite.r = toolRig([suite.server, suite.other]);
  });
  afterEach(() => rmSync(suite.folder, { recursive: true, force: true }));
  return suite;
}
