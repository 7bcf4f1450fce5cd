// Shared by the integration test files: the extension's test API, the stand-in server the
// launcher started (through its /__standin/ control endpoints), and waiting for conditions.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { Post } from '../../../src/api';
import { standInVariable } from '../../codeServer/workspace';
import { limitMs, nearLimit, nearLimitWarning, type Guarded } from '../../limits';
import { PROFILES, type FaultRule, type ProfileName, type RecordedRequest } from '../../server';

export const EXTENSION_ID = 'helpdesk-bridge.helpdesk-bridge';

export type Profile = ProfileName;

/** The stand-ins the launcher started, one per profile: the same demo data, every side of every "likely" (test/server/profile.ts). */
const STAND_INS = Object.fromEntries(
  (Object.keys(PROFILES) as Profile[]).map((profile) => [
    profile,
    { url: process.env[standInVariable(profile, 'URL')] ?? '', token: process.env[standInVariable(profile, 'TOKEN')] ?? '' },
  ]),
) as Record<Profile, { url: string; token: string }>;

/** The address and token of the stand-in of a profile (each on a port of its own: another account). */
export function standInOf(profile: Profile): { url: string; token: string } {
  return STAND_INS[profile];
}

/** The stand-in the tests talk to: the `likely` one, or the one `forEachProfile` switched to. */
export const standIn = {
  ...STAND_INS.likely,
  profile: 'likely' as Profile,
  async requests(): Promise<RecordedRequest[]> {
    return (await (await fetch(`${this.url}/__standin/requests`)).json()) as RecordedRequest[];
  },
  async clearRequests(): Promise<void> {
    await fetch(`${this.url}/__standin/requests`, { method: 'DELETE' });
  },
  async addFault(rule: Omit<FaultRule, 'path'> & { path?: string; pathPattern?: string }): Promise<void> {
    const response = await fetch(`${this.url}/__standin/faults`, { method: 'POST', body: JSON.stringify(rule) });
    assert.equal(response.status, 201, await response.text());
  },
  async clearFaults(): Promise<void> {
    await fetch(`${this.url}/__standin/faults`, { method: 'DELETE' });
  },
  /** Lets the requests a `hold` fault holds go on; resolves with how many there were. */
  async release(): Promise<number> {
    return ((await (await fetch(`${this.url}/__standin/release`, { method: 'POST' })).json()) as { released: number }).released;
  },
  /** As if someone changed it in the web app: the record as it is now. */
  async changeRecord<T>(collection: string, id: number, fields: Record<string, unknown>): Promise<T> {
    const response = await fetch(`${this.url}/__standin/records/${collection}/${id}`, { method: 'PATCH', body: JSON.stringify(fields) });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return JSON.parse(text) as T;
  },
  /** As if someone deleted it in the web app. */
  async deleteRecord(collection: string, id: number): Promise<void> {
    const response = await fetch(`${this.url}/__standin/records/${collection}/${id}`, { method: 'DELETE' });
    assert.equal(response.status, 200, await response.text());
  },
};

/** The run on another VS Code version than the main one (see ONE_VERSION_FILES in index.ts). */
export function versionsScope(): boolean {
  return process.env.HELPDESK_TEST_SCOPE === 'versions';
}

/**
 * Declares the groups in `define` once for each stand-in profile, each group signed in to that
 * stand-in: the extension must be right on either side of what the service notes call "likely".
 * On the other VS Code versions, once, on the likely one: what differs there is VS Code, not the service.
 */
export function forEachProfile(define: (profile: Profile) => void): void {
  const profiles = versionsScope() ? (['likely'] as Profile[]) : (Object.keys(STAND_INS) as Profile[]);
  for (const profile of profiles) {
    describe(`[${profile} service]`, () => {
      before(async () => {
        assert.ok(STAND_INS[profile].url, `the launcher started no ${profile} stand-in (${standInVariable(profile, 'URL')})`);
        Object.assign(standIn, STAND_INS[profile], { profile });
        await signInToStandIn();
      });
      after(async () => {
        Object.assign(standIn, STAND_INS.likely, { profile: 'likely' });
        await signInToStandIn();
      });
      define(profile);
    });
  }
}

export async function extensionApi(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  const exports = await extension.activate();
  assert.ok(exports, 'the extension exports its test API in test mode');
  return exports;
}

/**
 * Signed in to the stand-in the tests talk to. A window on it already, with its token stored and
 * nothing met since (state signedIn), is left as it is: a sign-in again with the same token keeps
 * the session's objects as they are (see Session.save), and would cost each test the check, the
 * progress notification and the writes of a sign-in.
 */
export async function signInToStandIn(): Promise<TestApi> {
  const api = await extensionApi();
  if (await onStandInAlready(api)) return api;
  const ok = await api.actions.signIn({ accountUrl: standIn.url, token: standIn.token });
  assert.equal(ok, true, 'signing in to the stand-in server');
  return api;
}

/** Where the session keeps an account's token in the secret storage (src/accounts/session.ts). */
export const secretKeyOf = (accountUrl: string) => `helpdesk.token:${accountUrl}`;

async function onStandInAlready(api: TestApi): Promise<boolean> {
  const { session } = api;
  return (
    session.state === 'signedIn' &&
    session.credentials?.accountUrl === standIn.url &&
    session.credentials.token === standIn.token &&
    vscode.workspace.getConfiguration('helpdesk').get('accountUrl') === standIn.url &&
    (await api.context.secrets.get(secretKeyOf(standIn.url))) === standIn.token
  );
}

/** A tree item's label as text: a TreeItemLabel's text, else the label (String(): none is 'undefined'). */
export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'object' ? item.label.label : String(item.label);
}

/**
 * What the Helpdesk view's description says besides the account it names while several are
 * signed in (the suite signs in to a stand-in of each profile): undefined for nothing.
 */
export function viewFilters(api: TestApi): string | undefined {
  const description = api.postsView.description ?? '';
  const host = api.session.accountUrl ? new URL(api.session.accountUrl).host : undefined;
  const rest = host && description.startsWith(host) ? description.slice(host.length).replace(/^ · /, '') : description;
  return rest || undefined;
}

/** A post made on the stand-in the tests talk to, as someone in the web app would (not through the extension). */
export async function createPost(post: Record<string, unknown>): Promise<Post> {
  const response = await fetch(`${standIn.url}/app/posts.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_token: standIn.token, post }),
  });
  assert.ok(response.ok, `POST /app/posts.json: ${response.status}`);
  return (await response.json()) as Post;
}

/** The posts `/app.json` lists on the stand-in the tests talk to, every page, as it answers them (the fields a test reads). */
export async function serverPosts<T extends { id: number }>(): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${standIn.url}/app.json?api_token=${encodeURIComponent(standIn.token)}&per_page=100&page=${page}`);
    // A page past the end may be a 404 (the sparse profile).
    if (response.status === 404 && page > 1) return all;
    const items = (await response.json()) as T[];
    if (items.length === 0 || all.some((p) => p.id === items[0]!.id)) return all;
    all.push(...items);
  }
}

let waiting: string | undefined;

/** What a test is waiting for now (its `waitFor`), for the message of a limit that is hit. */
export function waitingFor(): string | undefined {
  return waiting;
}

/** Waits longer than a third of their limit, said once the run ends (see test/limits.ts). */
export const slowWaits: string[] = [];

/** How long the suite waited for each kind of thing (`what`, its numbers left out), said once the run ends. */
export const waited = new Map<string, { ms: number; times: number }>();

/**
 * Polls until `check` returns a truthy value, or fails naming `what` once the limit of `guarded`
 * (test/limits.ts) has passed.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  guarded: Guarded = 'condition',
): Promise<NonNullable<Awaited<T>>> {
  const limit = limitMs(guarded);
  const started = Date.now();
  waiting = what;
  try {
    for (;;) {
      const value = await check();
      if (value) {
        const took = Date.now() - started;
        const kind = what.replace(/\d+/g, '#').slice(0, 100);
        const sum = waited.get(kind) ?? { ms: 0, times: 0 };
        waited.set(kind, { ms: sum.ms + took, times: sum.times + 1 });
        if (nearLimit(took, limit)) slowWaits.push(nearLimitWarning(`waiting for ${what}`, took, limit));
        return value;
      }
      if (Date.now() - started > limit) assert.fail(`timed out after ${limit / 1000} s waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    waiting = undefined;
  }
}

/** A function that says whether `promise` has settled yet. */
export function settled(promise: Thenable<unknown>): () => boolean {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return () => done;
}

/** Presses Enter in the box that is open (a command's title box takes its suggestion) until `until` holds. */
export async function acceptBoxesUntil(what: string, until: () => unknown): Promise<void> {
  await waitFor(what, async () => {
    if (until()) return true;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return false;
  });
}

/** Every form of the token that must never be written anywhere. */
export function tokenForms(token = standIn.token): string[] {
  return [token, encodeURIComponent(token), token.split('/')[0]!];
}

export function assertNoTokenIn(what: string, text: string): void {
  for (const form of tokenForms()) assert.ok(!text.includes(form), `the token appears in ${what}`);
}

/**
 * For tests that write: signed in with no faults and no recorded requests before each test;
 * after it, faults cleared, drafts and what was filed lately forgotten, and editors closed.
 */
export function useCleanSlate(): void {
  beforeEach('signed in, no faults, no requests', async () => {
    await signInToStandIn();
    await standIn.clearFaults();
    await standIn.clearRequests();
  });

  afterEach('faults, drafts and what was filed forgotten, editors closed', async () => {
    await standIn.clearFaults();
    const api = await extensionApi();
    for (const draft of api.drafts.all()) await api.drafts.remove(draft.id);
    // What was filed lately (a write of the same title asks first): each test starts without it, as in a new profile.
    await Promise.resolve(
      vscode.workspace.fs.delete(vscode.Uri.joinPath(api.context.globalStorageUri, 'filed'), { recursive: true }),
    ).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
}

/** `helpdesk.watch.intervalMinutes` in the user settings (undefined: the default). */
export async function setWatchInterval(minutes: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('helpdesk').update('watch.intervalMinutes', minutes, vscode.ConfigurationTarget.Global);
}

/** Waits for the output channel to show `pattern`; a timeout names the log's last lines. */
export async function logShows(api: TestApi, pattern: RegExp): Promise<void> {
  try {
    await waitFor(`the output channel to show ${pattern}`, () => pattern.test(outputLog(api)));
  } catch (error) {
    const tail = logTail(api, 8);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nThe log ends:\n${tail}`, { cause: error });
  }
}

/** The output channel's last `lines` lines, for a failure to say what happened before it. */
export function logTail(api: TestApi, lines: number): string {
  return outputLog(api).trimEnd().split('\n').slice(-lines).join('\n');
}

/** Everything the output channel ("Helpdesk") wrote so far: requests, errors, notifications. */
export function outputLog(api: TestApi): string {
  const read = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? read(path) : [readFileSync(path, 'utf8')];
    });
  try {
    return read(api.context.logUri.fsPath).join('\n');
  } catch {
    return '';
  }
}

/** A filed post's content without the marker line the extension starts it with; fails when that line is missing. */
export function withoutRef(content: unknown): string {
  const match = /^Sent from VS Code · hb-[0-9a-z]{10}(?:\n\n)?([\s\S]*)$/.exec(String(content));
  assert.ok(match, `the content starts with the marker line: ${JSON.stringify(content)}`);
  return match[1]!;
}
