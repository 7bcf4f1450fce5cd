// Waiting for the extension host to go quiet before timing something in it.
import * as vscode from 'vscode';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once no other extension has become active for `quietMs` and the event loop answers a
 * timer within a few ms (the host is not busy), or after `maxMs` whatever happens.
 */
export async function settle(quietMs = 1000, maxMs = 6000): Promise<void> {
  const deadline = Date.now() + maxMs;
  const active = () => vscode.extensions.all.filter((e) => e.isActive).length;
  let count = active();
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const asked = performance.now();
    await sleep(50);
    const late = performance.now() - asked - 50;
    const now = active();
    if (now !== count || late > 5) {
      count = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) {
      return;
    }
  }
}
