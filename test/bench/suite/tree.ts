// The Helpdesk tree's first page after a refresh, against a bare fetch of the same page.
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { HelpdeskNode } from '../../../src/views/nodes';
import type { BenchAccount, TreeCase } from '../results';
import { signIn } from './session';
import { countByPath, StandInControl } from './standIn';

export const LATENCIES_MS = [0, 50];
export const POSTS_PATH = '/app.json';

interface FirstPage {
  ms: number;
  nodes: HelpdeskNode[];
  /** The refresh as a whole (the command also reloads the clients list). */
  done: Promise<unknown>;
}

/**
 * Starts a refresh and resolves when the provider's getChildren() returns the new first page.
 * It asks the provider the way the tree view does: when the list says it changed (the load has
 * started), getChildren() joins the load in flight and resolves once the page is in.
 */
async function timeFirstPage(api: TestApi, refresh: () => Thenable<unknown>): Promise<FirstPage> {
  const list = api.store.posts;
  let subscription: { dispose(): void } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const asked = new Promise<HelpdeskNode[]>((resolve, reject) => {
    subscription = list.onDidChange(() => {
      if (!list.state.loading) return;
      subscription?.dispose();
      api.posts.getChildren().then(resolve, reject);
    });
    timer = setTimeout(() => reject(new Error('The first page did not come within 30 s.')), 30_000);
  });
  const started = performance.now();
  const done = Promise.resolve(refresh());
  try {
    const nodes = await asked;
    return { ms: performance.now() - started, nodes, done };
  } finally {
    clearTimeout(timer);
    subscription?.dispose();
  }
}

async function bareFetch(url: string): Promise<{ ms: number; posts: Array<{ id: number; closed?: unknown }> }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const posts = JSON.parse(await response.text()) as Array<{ id: number; closed?: unknown }>;
  const ms = performance.now() - started;
  if (!response.ok || !Array.isArray(posts)) throw new Error(`GET ${POSTS_PATH} answered ${response.status}.`);
  return { ms, posts };
}

const postRows = (nodes: HelpdeskNode[]) => nodes.filter((n) => n.contextValue?.startsWith('post')).map((n) => n.id);
/** The Helpdesk view's refresh button. */
const refreshView = () => vscode.commands.executeCommand('helpdesk.refreshPosts');
/** "Helpdesk: Refresh" in the palette: both views. */
const refreshAll = () => vscode.commands.executeCommand('helpdesk.refresh');

/** Adds the requests recorded since the last call to `counts` (the most seen in one refresh, by path), and clears the record. */
async function countRequests(control: StandInControl, counts: Record<string, number>): Promise<void> {
  for (const [path, count] of Object.entries(countByPath(await control.requests()))) counts[path] = Math.max(counts[path] ?? 0, count);
  await control.clearRequests();
}

async function measureCase(api: TestApi, control: StandInControl, account: BenchAccount, latencyMs: number, reps: number): Promise<TreeCase> {
  // Warm-up (not counted), which also finds the first page's URL, exactly as the extension asks it.
  await control.clearRequests();
  await (await timeFirstPage(api, refreshView)).done;
  const first = (await control.requests()).find((r) => r.path === POSTS_PATH && r.query.page === '1');
  if (!first) throw new Error(`The refresh asked no first page of ${POSTS_PATH}.`);
  const url = new URL(account.url + first.path);
  for (const [key, value] of Object.entries(first.query)) url.searchParams.set(key, value);
  await bareFetch(url.href);
  await (await timeFirstPage(api, refreshAll)).done;

  const result: TreeCase = { posts: account.posts, latencyMs, perPage: Number(first.query.per_page), refreshMs: [], refreshAllMs: [], bareMs: [], requestsPerRefresh: {}, requestsPerRefreshAll: {}, rows: 0 };
  for (let i = 0; i < reps; i++) {
    await control.clearRequests();
    const refresh = await timeFirstPage(api, refreshView);
    await refresh.done;
    result.refreshMs.push(refresh.ms);
    await countRequests(control, result.requestsPerRefresh);
    const all = await timeFirstPage(api, refreshAll);
    await all.done;
    result.refreshAllMs.push(all.ms);
    await countRequests(control, result.requestsPerRefreshAll);
    const bare = await bareFetch(url.href);
    result.bareMs.push(bare.ms);

    // The provider's rows are the open posts of the very page the bare fetch read.
    const rows = postRows(refresh.nodes);
    const expected = bare.posts.filter((p) => p.closed !== true).map((p) => `post:${p.id}`);
    if (rows.join() !== expected.join()) throw new Error(`The tree's first page (${rows.length} rows) is not the fetched page (${expected.length} open posts).`);
    result.rows = rows.length;
  }
  return result;
}

export async function measureTree(accounts: BenchAccount[], reps: number): Promise<TreeCase[]> {
  const cases: TreeCase[] = [];
  for (const account of [...accounts].sort((a, b) => a.posts - b.posts)) {
    const api = await signIn(account);
    const control = new StandInControl(account.url);
    try {
      for (const latencyMs of LATENCIES_MS) {
        await control.clearFaults();
        if (latencyMs > 0) await control.addFault({ latencyMs });
        cases.push(await measureCase(api, control, account, latencyMs, reps));
        console.log(`bench: tree, ${account.posts} posts, ${latencyMs} ms latency: done`);
      }
    } finally {
      await control.clearFaults();
    }
  }
  return cases;
}
