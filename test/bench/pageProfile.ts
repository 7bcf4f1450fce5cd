// With --profile: a CPU profile of the workbench page's main thread (Chromium's, through the
// DevTools protocol) over one timed step, and what it was busy with, in words. The extension
// host's profile (cpuProfileHook.ts) says what the host did; this says what the window did with
// what the host sent: each call the host makes on the window arrives as one `$name` message
// (`$showMessage`, `$createOrUpdate`, `$refresh`…), whose handling is named after it here; a
// tree's rows redrawn and the notifications' toasts drawn (at the window's next frame, later) are
// named apart.
import type { CDPSession, Page } from 'playwright-core';

/** The DevTools protocol's Profiler.Profile, as far as it is read here. */
export interface PageProfile {
  nodes: { id: number; callFrame: { functionName: string }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** 0.1 ms between samples: a step of about 100 ms has a thousand. */
const SAMPLING_US = 100;

/** Starts profiling the page; the function returned stops it and gives the profile. */
export async function startPageProfile(page: Page): Promise<() => Promise<PageProfile>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await cdp.send('Profiler.start');
  return async () => {
    try {
      return (await cdp.send('Profiler.stop')).profile as PageProfile;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  };
}

const NOT_RUNNING = new Set(['(idle)', '(root)']);
/** Frames whose presence on a stack says what the sample was part of, other than a host's call. */
const PARTS: readonly [frame: string, part: string][] = [
  ['setChildren', "a tree's rows"],
  ['updateNotificationsList', 'the toasts'],
];

export interface PageBusy {
  /** The main thread running (ms): script, the engine's own work, garbage collection. */
  busyMs: number;
  /** Busy ms by what it was part of: a host's call (`$name`), a tree's rows, the toasts; the rest is not listed. */
  parts: Map<string, number>;
}

/** What the page's main thread was busy with over the whole profile (a step's profile runs on a moment past its paint, until its timer is read). */
export function pageBusy(profile: PageProfile): PageBusy {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // A node's part, found once: the outermost host call on its stack, else the innermost named part.
  const partOf = new Map<number, string | undefined>();
  const part = (id: number): string | undefined => {
    if (partOf.has(id)) return partOf.get(id);
    const name = byId.get(id)?.callFrame.functionName ?? '';
    const parent = parentOf.get(id);
    const above = parent === undefined ? undefined : part(parent);
    const own = /^\$[A-Za-z]{2,}$/.test(name) ? name : PARTS.find(([frame]) => frame === name)?.[1];
    const found = above?.startsWith('$') ? above : (own ?? above);
    partOf.set(id, found);
    return found;
  };
  const parts = new Map<string, number>();
  let busyUs = 0;
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((id, i) => {
    // A sample stands for the time until the next one.
    const us = (times[i + 1] ?? times[i]!) - times[i]!;
    if (NOT_RUNNING.has(byId.get(id)?.callFrame.functionName ?? '(idle)')) return;
    busyUs += us;
    const named = part(id);
    if (named) parts.set(named, (parts.get(named) ?? 0) + us / 1000);
  });
  return { busyMs: busyUs / 1000, parts };
}

/** E.g. "busy 82.1 ms: a tree's rows 15.5, $createOrUpdate 9.8, the toasts 4.4" (the largest `listed` parts). */
export function pageBusyText({ busyMs, parts }: PageBusy, listed = 5): string {
  const largest = [...parts].sort((a, b) => b[1] - a[1]).slice(0, listed);
  const list = largest.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
  return `busy ${busyMs.toFixed(1)} ms${list ? `: ${list}` : ''}`;
}
