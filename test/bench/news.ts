// The news watcher's cost, without a workbench: the reads and the comparison the watcher makes
// each poll (src/watch/changedPosts.ts, src/watch/news.ts), against the stand-in on each profile.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { HelpdeskClient, readPage } from '../../src/api';
import { readChanges, type ChangesSource, type ReadState } from '../../src/watch/changedPosts';
import { NOBODY, type WhoIAm } from '../../src/accounts/identity';
import { compare, type Snapshot } from '../../src/watch/news';
import { PROFILES, startStandIn, type ProfileName, type StandIn } from '../server';

export interface NewsFigures {
  /** Requests of one poll when nothing changed, per profile. */
  idleRequests: Record<string, number>;
  /** The same where the service lists oldest first and its last page is exactly full. */
  boundaryRequests: Record<string, number>;
  /** At the default interval (5 minutes), requests per idle hour, the most of the profiles, the last page exactly full included. */
  idleRequestsPerHour: number;
  polls: number;
  accountPosts: number;
  /** Growth per 1,000 polls (see `heapSlope`) of the watcher's poll, less that of a bare fetch of the same page: the mean of two pairs. */
  heapGrowthPer1000: number;
  heapRuns: { baseline: number; watcher: number }[];
  /** The snapshot's size in posts after the last poll (bounded: the newest page and the person's own). */
  snapshotPosts: number;
}

const DEFAULT_INTERVAL_MINUTES = 5;

function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** What the watcher keeps between polls: the snapshot, how it read (the news file), and whether it checked the order since it started. */
interface PollState {
  snapshot?: Snapshot;
  read: ReadState;
  checked?: boolean;
}

/** One poll as the watcher makes it: what changed since the last one, compared with the last snapshot. */
async function poll(api: HelpdeskClient, state: PollState, me: WhoIAm): Promise<number> {
  const source: ChangesSource = {
    byUpdated: (page) => readPage(page, () => api.posts.listHelpdesk({ page, perPage: 100, order: 'updated_at.desc' })),
    byId: (page, perPage) => readPage(page, () => api.posts.listHelpdesk({ page, perPage: perPage ?? 100, order: 'id.desc' })),
    orderRefused: () => false,
  };
  const { posts, order, newestPage } = await readChanges(source, state.read, state.snapshot, !state.checked);
  state.checked = true;
  const { snapshot, news } = compare(state.snapshot, posts, me, Date.now());
  state.snapshot = snapshot;
  state.read = { order, newestPage };
  return news.length;
}

export async function measureNews(say: (line: string) => void, { accountPosts = 10_000, polls = 1_000 } = {}): Promise<NewsFigures> {
  const idleRequests: Record<string, number> = {};
  const boundaryRequests: Record<string, number> = {};
  for (const name of Object.keys(PROFILES) as ProfileName[]) {
    // A typical count, and one that fills the last page exactly (a multiple of every page size).
    idleRequests[name] = await idlePollRequests(name, accountPosts + 7);
    boundaryRequests[name] = await idlePollRequests(name, accountPosts);
  }
  const list = (figures: Record<string, number>) =>
    Object.entries(figures)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ');
  say(`News: requests of an idle poll: ${list(idleRequests)}; where the last page is exactly full: ${list(boundaryRequests)}.`);

  const gc = forcedGc();
  const me: WhoIAm = { ...NOBODY, me: { id: 1, source: 'set' }, commented: new Set(Array.from({ length: 50 }, (_, i) => i + 1)) };
  const runs: { baseline: number; watcher: number }[] = [];
  let snapshotPosts = 0;
  for (let pair = 0; pair < 2; pair++) {
    const baseline = await heapSlope(
      accountPosts,
      polls,
      gc,
      async (standIn) =>
        void (await (
          await fetch(`${standIn.url}/app.json?api_token=${encodeURIComponent(standIn.token)}&page=1&per_page=100&order=updated_at.desc`)
        ).text()),
    );
    const state: PollState = { read: {} };
    let api: HelpdeskClient | undefined;
    const watcher = await heapSlope(accountPosts, polls, gc, async (standIn) => {
      api ??= new HelpdeskClient({ accountUrl: standIn.url, token: standIn.token });
      await poll(api, state, me);
    });
    snapshotPosts = Object.keys(state.snapshot?.posts ?? {}).length;
    runs.push({ baseline, watcher });
  }
  const differences = runs.map((r) => r.watcher - r.baseline);
  const figures: NewsFigures = {
    idleRequests,
    boundaryRequests,
    idleRequestsPerHour: (60 / DEFAULT_INTERVAL_MINUTES) * Math.max(...Object.values(idleRequests), ...Object.values(boundaryRequests)),
    polls,
    accountPosts,
    heapGrowthPer1000: differences.reduce((a, b) => a + b, 0) / differences.length,
    heapRuns: runs,
    snapshotPosts,
  };
  say(
    `News: heap growth per 1,000 polls, watcher against a bare fetch of the same page: ${runs.map((r) => `${kb(r.watcher)} − ${kb(r.baseline)}`).join('; ')}; snapshot ${snapshotPosts} posts.`,
  );
  return figures;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function idlePollRequests(profile: ProfileName, posts: number): Promise<number> {
  const standIn = await startStandIn({ seed: { posts }, profile: PROFILES[profile] });
  try {
    const api = new HelpdeskClient({ accountUrl: standIn.url, token: standIn.token });
    const state: PollState = { read: {} };
    await poll(api, state, NOBODY);
    // The most of three idle polls: the first after a baseline may differ from the next (the baseline may have left the last page exactly full).
    let most = 0;
    for (let i = 0; i < 3; i++) {
      standIn.requests.length = 0;
      await poll(api, state, NOBODY);
      most = Math.max(most, standIn.requests.length);
    }
    return most;
  } finally {
    await standIn.close();
  }
}

/**
 * Heap growth per 1,000 polls of `pollOnce` against a fresh stand-in (a post made elsewhere every
 * 10th poll): the least-squares slope of heapUsed after a forced GC every 100th poll, from the
 * 200th. A slope, not two samples: heapUsed after a GC moves by megabytes from one sample to the
 * next (code, caches) without growing.
 */
async function heapSlope(
  accountPosts: number,
  polls: number,
  gc: () => void,
  pollOnce: (standIn: StandIn) => Promise<void>,
): Promise<number> {
  const standIn = await startStandIn({ seed: { posts: accountPosts } });
  try {
    const samples: { poll: number; heap: number }[] = [];
    for (let i = 1; i <= polls; i++) {
      if (i % 10 === 0)
        await fetch(`${standIn.url}/__standin/records/posts`, {
          method: 'POST',
          body: JSON.stringify({ title: `News ${i}`, task_kind: 'task' }),
        });
      await pollOnce(standIn);
      standIn.requests.length = 0;
      if (i % 100 === 0) {
        gc();
        samples.push({ poll: i, heap: process.memoryUsage().heapUsed });
      }
    }
    return slope(samples.filter((sample) => sample.poll >= 200)) * 1000;
  } finally {
    await standIn.close();
  }
}

function slope(points: readonly { poll: number; heap: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.poll, 0) / n;
  const my = points.reduce((a, p) => a + p.heap, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.poll - mx) * (p.heap - my), 0);
  const sxx = points.reduce((a, p) => a + (p.poll - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}
