// Heap growth of the extension host after loading every page of an account through the tree.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { BenchAccount, HeapFigures } from '../results';
import { signIn } from './session';
import { StandInControl } from './standIn';
import { POSTS_PATH } from './tree';

/** global.gc when the host exposes it; else V8's flag set at run time (a known Node idiom); else none. */
function garbageCollector(): { kind: HeapFigures['gc']; collect(): Promise<void> } {
  let gc = (globalThis as { gc?: () => void }).gc;
  let kind: HeapFigures['gc'] = gc ? 'global.gc' : 'none';
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

export async function measureHeap(account: BenchAccount): Promise<HeapFigures> {
  const api = await signIn(account);
  const control = new StandInControl(account.url);
  await control.clearFaults();
  const gc = garbageCollector();

  await vscode.commands.executeCommand('helpdesk.refresh');
  let nodes = await api.posts.getChildren();
  await gc.collect();
  const heapBefore = process.memoryUsage().heapUsed;

  await control.clearRequests();
  const started = performance.now();
  let clicks = 0;
  // What clicking "Load more…" until it is gone does: the command, then the view asks again.
  while (nodes.some((node) => node.contextValue === 'loadMore')) {
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
    nodes = await api.posts.getChildren();
    clicks++;
  }
  const loadAllMs = performance.now() - started;
  const requests = (await control.requests()).filter((r) => r.path === POSTS_PATH).length;
  const loaded = api.store.posts.state.items.length;
  if (loaded !== account.posts) throw new Error(`Loaded ${loaded} of ${account.posts} posts; the last node says "${String(nodes.at(-1)?.label)}".`);

  await gc.collect();
  const heapAfter = process.memoryUsage().heapUsed;
  // The nodes stay referenced until here, as the view's would.
  if (nodes.length === 0) throw new Error('No nodes after loading every page.');
  return { posts: account.posts, loadMoreClicks: clicks, requests, loadAllMs, heapBefore, heapAfter, gc: gc.kind };
}
