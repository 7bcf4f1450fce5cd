// Shared by the integration test files: the extension's test API, the stand-in server the
// launcher started (through its /__standin/ control endpoints), and waiting for conditions.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { Post } from '../../../src/api';
import { standInVariable } from '../../codeServer/workspace';
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
  /** As if someone deleted it in the web app. */
  async deleteRecord(collection: string, id: number): Promise<void> {
    const response = await fetch(`${this.url}/__standin/records/${collection}/${id}`, { method: 'DELETE' });
    assert.equal(response.status, 200, await response.text());
  },
};

/**
 * Declares the groups in `define` once for each stand-in profile, each group signed in to that
 * stand-in: the extension must be right on either side of what the service notes call "likely".
 */
export function forEachProfile(define: (profile: Profile) => void): void {
  for (const profile of Object.keys(STAND_INS) as Profile[]) {
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

export async function signInToStandIn(): Promise<TestApi> {
  const api = await extensionApi();
  const ok = await api.actions.signIn({ accountUrl: standIn.url, token: standIn.token });
  assert.equal(ok, true, 'signing in to the stand-in server');
  return api;
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

/** Polls until `check` returns a truthy value, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, ms = 5000): Promise<NonNullable<Awaited<T>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
  beforeEach(async () => {
    await signInToStandIn();
    await standIn.clearFaults();
    await standIn.clearRequests();
  });

  afterEach(async () => {
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
export async function logShows(api: TestApi, pattern: RegExp, ms = 8000): Promise<void> {
  try {
    await waitFor(`the output channel to show ${pattern}`, () => pattern.test(outputLog(api)), ms);
  } catch (error) {
    const tail = outputLog(api).trimEnd().split('\n').slice(-8).join('\n');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nThe log ends:\n${tail}`, { cause: error });
  }
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
