// Load more at depth: every page of a large account loaded through the Helpdesk view, each
// page timed, and the extension host's heap before and after.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { HelpdeskNode } from '../../../src/views/nodes';
import type { BenchAccount, DepthFigures } from '../results';
import { signIn } from './session';
import { StandInControl } from './standIn';

const POSTS_PATH = '/app.json';
const BARE_REPS = 10;

/** global.gc when the host exposes it; else V8's flag set at run time (a known Node idiom); else none. */
function garbageCollector(): { kind: DepthFigures['gc']; collect(): Promise<void> } {
  let gc = (globalThis as { gc?: () => void }).gc;
  let kind: DepthFigures['gc'] = gc ? 'global.gc' : 'none';
  if (!gc) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
      kind = 'v8 flag';
    } catch {
      gc = undefined;
    }
  }
  return {
    kind,
    async collect() {
      for (let i = 0; i < 3; i++) {
        gc?.();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Past the stand-in's keep-alive (Node's http server: 5 s), with a second of undici's timer granularity. */
const CONNECTIONS_CLOSED_MS = 6_000;

/**
 * The extension host's heapUsed, collected, once the connections that the measured requests
 * opened have closed. In VS Code's extension host every fetch gets an undici Agent of its own
 * (the proxy and certificate support, @vscode/proxy-agent's fetch patch): a pool, a 2,048-slot
 * queue and a socket per request, kept until that connection's keep-alive ends. Read before
 * then, the heap counts as many of them as requests were sent in the last seconds: a figure of
 * how fast the pages came, the floor's and ours alike, not of the posts. (The idle sockets are
 * unref'd, so Node's list of active resources does not show them: the wait is a fixed one.)
 */
async function settledHeap(gc: { collect(): Promise<void> }): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, CONNECTIONS_CLOSED_MS));
  await gc.collect();
  return process.memoryUsage().heapUsed;
}

async function bareFetch(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const posts = JSON.parse(await response.text()) as unknown;
  const ms = performance.now() - started;
  if (!response.ok || !Array.isArray(posts) || posts.length === 0)
    throw new Error(`GET ${url.replace(/api_token=[^&]*/, 'api_token=…')} answered ${response.status}.`);
  return ms;
}

/** The children VS Code holds of the Helpdesk view, asked again as its change events say. */
class ViewChildren {
  private readonly children = new Map<HelpdeskNode | undefined, HelpdeskNode[]>();

  constructor(private readonly provider: vscode.TreeDataProvider<HelpdeskNode>) {}

  async askAgain(nodes: readonly (HelpdeskNode | undefined)[]): Promise<void> {
    for (const node of new Set(nodes)) {
      if (node === undefined) {
        this.children.clear();
        const root = await this.ask(undefined);
        for (const child of root) if (child.collapsibleState === vscode.TreeItemCollapsibleState.Expanded) await this.ask(child);
      } else {
        await this.ask(node);
      }
    }
  }

  showsLoadMore(): boolean {
    return this.all().some((node) => node.contextValue === 'loadMore');
  }

  all(): HelpdeskNode[] {
    return [...this.children.values()].flat();
  }

  private async ask(node: HelpdeskNode | undefined): Promise<HelpdeskNode[]> {
    const children = (await this.provider.getChildren(node)) ?? [];
    this.children.set(node, children);
    return children;
  }
}

/**
 * What holding the account's posts costs at the least: every page fetched and JSON.parse'd,
 * kept, with the extension's list signed out and collected first.
 */
async function bareHeap(
  pages: number,
  url: (page: number) => string,
  heap: () => Promise<number>,
  api: { store: { posts: { reset(): void } } },
): Promise<number> {
  api.store.posts.reset();
  const before = await heap();
  const kept: unknown[][] = [];
  for (let page = 1; page <= pages; page++)
    kept.push(JSON.parse(await (await fetch(url(page), { headers: { accept: 'application/json' } })).text()) as unknown[]);
  const after = await heap();
  const posts = kept.reduce((n, page) => n + page.length, 0);
  return posts > 0 ? (after - before) / posts : NaN;
}

export async function measureDepth(account: BenchAccount, pageSize: number): Promise<DepthFigures> {
  await vscode.workspace.getConfiguration('helpdesk').update('pageSize', pageSize, vscode.ConfigurationTarget.Global);
  const api = await signIn(account);
  const control = new StandInControl(account.url);
  await control.clearFaults();
  const gc = garbageCollector();
  const heap = () => settledHeap(gc);

  // What VS Code does with the view's change events: it asks again for the children of each
  // node named (of the whole view for none, and then of every node open in it).
  const view = new ViewChildren(api.posts);
  const pageMs: number[] = [];
  let started = performance.now();
  await vscode.commands.executeCommand('helpdesk.refreshPosts');
  await view.askAgain([undefined]);
  pageMs.push(performance.now() - started);
  const heapBefore = await heap();

  // What clicking "Load more…" until it is gone does: the command, then the view asks again.
  await control.clearRequests();
  const fired: (HelpdeskNode | undefined)[] = [];
  const listening = api.posts.onDidChangeTreeData((e) => fired.push(...(Array.isArray(e) ? e : [e])));
  while (view.showsLoadMore()) {
    fired.length = 0;
    started = performance.now();
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
    await view.askAgain(fired);
    pageMs.push(performance.now() - started);
  }
  listening.dispose();
  const nodes = view.all();
  const loaded = api.store.posts.state.items.length;
  if (loaded !== account.posts) {
    const last = nodes.at(-1)?.label;
    throw new Error(
      `Loaded ${loaded} of ${account.posts} posts; the last node says "${typeof last === 'object' ? last.label : String(last)}".`,
    );
  }
  const heapAfter = await heap();
  // The nodes stay referenced until here, as the view's would.
  if (nodes.length === 0) throw new Error('No nodes after loading every page.');

  // The same URLs, bare, for the first page and the last: how much the stand-in's own answer moves with depth.
  const asked = (await control.requests()).filter((r) => r.path === POSTS_PATH);
  const last = asked.at(-1);
  if (!last) throw new Error(`No request for ${POSTS_PATH} was recorded.`);
  const url = (page: number) => {
    const u = new URL(account.url + POSTS_PATH);
    for (const [key, value] of Object.entries({ ...last.query, page: String(page) })) u.searchParams.set(key, value);
    return u.href;
  };
  const lastPage = Math.ceil(account.posts / pageSize);
  const bareFirstMs: number[] = [];
  const bareLastMs: number[] = [];
  for (let i = 0; i < BARE_REPS; i++) {
    bareFirstMs.push(await bareFetch(url(1)));
    bareLastMs.push(await bareFetch(url(lastPage)));
  }
  const bareHeapPerPost = await bareHeap(lastPage, url, heap, api);
  return { posts: account.posts, pageSize, pageMs, bareFirstMs, bareLastMs, heapBefore, heapAfter, loaded, gc: gc.kind, bareHeapPerPost };
}
