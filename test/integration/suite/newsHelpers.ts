// Shared by the news test files: what another person does in the web app, the notifications
// told, the watcher on for a group of tests, a fresh start, and the news files of an account.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import type { TestApi } from '../../../src/extension';
import type { Log } from '../../../src/log';
import { newsFileOf, newsFolderOf, type NewsFileKind } from '../../../src/watch/newsFileNames';
import { extensionApi, outputLog, setWatchInterval, signInToStandIn, standIn, waitFor } from './helpers';

export const config = () => vscode.workspace.getConfiguration('helpdesk');

/** As another person would in the web app. */
export async function elsewhere(method: 'POST' | 'PATCH', path: string, fields: Record<string, unknown>): Promise<Post> {
  const response = await fetch(`${standIn.url}/__standin/records/${path}`, { method, body: JSON.stringify(fields) });
  const text = await response.text();
  assert.ok(response.ok, text);
  return JSON.parse(text) as Post;
}

/** The notifications written to the log since `before` (the log's length then). */
export const toldSince = (api: TestApi, before: number) =>
  outputLog(api)
    .slice(before)
    .split('\n')
    .filter((line) => line.includes('Notification:'));

/** The watcher on at its default interval for these tests, off again after them (see index.ts). */
export function useWatcher(): void {
  before(() => setWatchInterval(undefined));
  after(() => setWatchInterval(0));
}

/** Signed out and in again: the next poll is a baseline. */
export async function freshStart(): Promise<TestApi> {
  const api = await extensionApi();
  await api.session.signOut();
  await waitFor('the news to be forgotten', () => api.watcher.items.length === 0 && api.watcher.status.off);
  await waitFor('the news files to be deleted', async () => (await newsFilesOf(api, standIn.url)).length === 0);
  await signInToStandIn();
  await api.watcher.pollNow();
  return api;
}

/** An account's news file of one kind, as the windows share it. */
export function newsFile(api: TestApi, accountUrl: string, what: NewsFileKind): vscode.Uri {
  return newsFileOf(newsFolderOf(api.context.globalStorageUri), accountUrl, what);
}

/** Which of an account's news files are there. */
export async function newsFilesOf(api: TestApi, accountUrl: string): Promise<NewsFileKind[]> {
  const kinds: NewsFileKind[] = ['news', 'lease', 'notified', 'seen'];
  const there = await Promise.all(
    kinds.map((what) =>
      Promise.resolve(vscode.workspace.fs.stat(newsFile(api, accountUrl, what))).then(
        () => true,
        () => false,
      ),
    ),
  );
  return kinds.filter((_, i) => there[i]);
}

/**
 * A log in memory, for a watcher of a test's own: a second "Helpdesk" channel in this host shares
 * the first one's file, and disposing it leaves the first one writing nowhere (later tests read that file).
 */
export function memoryLog(): { log: Log; lines: string[] } {
  const lines: string[] = [];
  const log = { info: (line: string) => void lines.push(line), error: (line: string) => void lines.push(line) } as unknown as Log;
  return { log, lines };
}
