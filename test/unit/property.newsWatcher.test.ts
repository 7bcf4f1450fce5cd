import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { newsFileOf } from '../../src/watch/newsFileNames';
import { Uri } from './fakeVscode';
import { FakeService, MINUTE, WatchRig, type FakeWindow } from './watchRig';

/*
 * The watcher's promises over random sequences across two or three windows on one storage folder:
 * time passing, 429s with any Retry-After, the network down, the clock set back or ahead, focus
 * moving, sign-outs and switches between two accounts, and files overwritten with what is not a
 * news file. Whatever happens: no account is polled twice within an interval (but where the
 * files were lost or the clock jumped: a poll then may come at once), no post is told twice, a
 * post assigned while the account's news had a baseline is told once polls can go on, no timer
 * overflows, and none is left once every window is signed out.
 */

const ACCOUNTS = ['https://acme.sugester.com', 'https://acme_sugester.com'];

type Step =
  | { kind: 'advance'; minutes: number }
  | { kind: 'rateLimit'; account: number; seconds: number }
  | { kind: 'down'; account: number }
  | { kind: 'heal'; account: number }
  | { kind: 'jump'; minutes: number }
  | { kind: 'focus'; window: number }
  | { kind: 'blur'; window: number }
  | { kind: 'signOut'; account: number }
  | { kind: 'switch'; window: number; account: number }
  | { kind: 'assign'; account: number }
  | { kind: 'corrupt'; account: number; file: 'news' | 'lease' | 'notified' | 'seen'; content: string };

const account = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const window = fc.integer({ min: 0, max: 2 });
const junk = fc.constantFrom(
  '{"items":[null],"seq":1}',
  '{"seq":1e308,"items":[]}',
  '[]',
  'null',
  '{',
  '{"window":"ghost","until":9e15,"minutes":5}',
  '{"seq":-1}',
  '{"marks":{"1":1e308}}',
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 0, max: 40 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rateLimit' as const),
      account,
      seconds: fc.oneof(fc.constantFrom(0, 1, 60, 3600, 3_000_000, 1e12), fc.double({ min: 0, max: 1e300, noNaN: true })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('down' as const), account }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('heal' as const), account }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('jump' as const), minutes: fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('focus' as const), window }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('blur' as const), window }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('signOut' as const), account }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('switch' as const), window, account }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('assign' as const), account }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('corrupt' as const),
      account,
      file: fc.constantFrom('news' as const, 'lease' as const, 'notified' as const, 'seen' as const),
      content: junk,
    }),
  },
);

const scenario = fc.record({
  windows: fc.integer({ min: 2, max: 3 }),
  oldestFirst: fc.boolean(),
  steps: fc.array(step, { minLength: 1, maxLength: 25 }),
});

/** How far the clock was set back or ahead in all: the clock's time less this is time as it passed. */
class Elapsed {
  jumped = 0;
}

describe('property: the news watcher', () => {
  it('never polls an account twice an interval, never tells a post twice, never leaves an assigned post untold, leaves no timer', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ windows: count, oldestFirst, steps }) => {
        const rig = new WatchRig();
        const elapsed = new Elapsed();
        try {
          const services = ACCOUNTS.map((url, i) => new FakeService(url, i === 1 && oldestFirst ? { oldestFirst: true, perPage: 25 } : {}));
          let nextId = 1;
          for (const service of services) for (let i = 0; i < 30; i++) service.add({ id: nextId++ });
          /** Per account: when it was polled (elapsed time), and whether each poll is exempt from the interval (files lost, clock jumped). */
          const polls = services.map(() => [] as { at: number; exempt: boolean }[]);
          const exemptNext = services.map(() => false);
          // Each request noted at the time elapsed (the requests of one poll come at one instant: the fake clock stands still meanwhile).
          for (const [i, service] of services.entries()) {
            for (const method of ['postsPage', 'changedPostsPage'] as const) {
              const read = service[method].bind(service);
              service[method] = (page, perPage) => {
                const at = rig.clock.now - elapsed.jumped;
                if (polls[i]!.at(-1)?.at !== at) {
                  polls[i]!.push({ at, exempt: exemptNext[i]! });
                  exemptNext[i] = false;
                }
                return read(page, perPage);
              };
            }
          }
          const advance = (ms: number) => rig.clock.advance(ms);
          const fileOf = (i: number, kind: 'news' | 'lease' | 'notified' | 'seen') =>
            join(rig.dir, 'news', (newsFileOf(Uri.file('/') as never, ACCOUNTS[i]!, kind) as unknown as Uri).path.slice(1));
          const hasBaseline = (i: number) => {
            try {
              const news = JSON.parse(readFileSync(fileOf(i, 'news'), 'utf8')) as { snapshot?: unknown };
              return news.snapshot !== undefined;
            } catch {
              return false;
            }
          };
          /** Posts assigned while their account had a baseline, and whether the files were lost since (then they may go untold). */
          const mustTell = new Map<number, { account: number; lost: boolean }>();
          const wins: FakeWindow[] = [];
          for (let w = 0; w < count; w++) wins.push(rig.window(`W${w}`, services[w % services.length], { focused: w === 0 }));
          await advance(MINUTE);

          for (const s of steps) {
            switch (s.kind) {
              case 'advance':
                await advance(s.minutes * MINUTE);
                break;
              case 'rateLimit':
                services[s.account]!.retryAfter = s.seconds;
                break;
              case 'down':
                services[s.account]!.down = true;
                break;
              case 'heal':
                services[s.account]!.retryAfter = undefined;
                services[s.account]!.down = false;
                break;
              case 'jump':
                await rig.clock.jump(s.minutes * MINUTE);
                elapsed.jumped += s.minutes * MINUTE;
                exemptNext.fill(true);
                break;
              case 'focus':
                for (const [i, win] of wins.entries()) if (win.focused && i !== s.window % count) win.setFocus(false);
                wins[s.window % count]!.setFocus(true);
                await advance(0);
                break;
              case 'blur':
                wins[s.window % count]!.setFocus(false);
                break;
              case 'signOut':
                // A sign-out is of every window (one session): each on the account is signed out, and its files forgotten.
                for (const win of wins) if (win.account === services[s.account]) await win.switchTo(undefined);
                await rig.windows[0]!.folder.forget(ACCOUNTS[s.account]!);
                exemptNext[s.account] = true;
                for (const entry of mustTell.values()) if (entry.account === s.account) entry.lost = true;
                await advance(0);
                break;
              case 'switch':
                await wins[s.window % count]!.switchTo(services[s.account]);
                await advance(0);
                break;
              case 'assign': {
                const id = nextId++;
                if (hasBaseline(s.account)) mustTell.set(id, { account: s.account, lost: false });
                services[s.account]!.add({ id, responsible_id: 7 });
                break;
              }
              case 'corrupt': {
                const { writeFileSync } = await import('node:fs');
                writeFileSync(fileOf(s.account, s.file), s.content);
                exemptNext[s.account] = true;
                if (s.file === 'news' || s.file === 'notified')
                  for (const entry of mustTell.values()) if (entry.account === s.account) entry.lost = true;
                break;
              }
            }
            assert.equal(rig.clock.overflows, 0, 'no timer over 2^31−1 ms');
          }

          // Then quiet: every service answers, and a window on each account with a post to tell is focused for 80 minutes (the longest wait is an hour).
          for (const service of services) {
            service.retryAfter = undefined;
            service.down = false;
          }
          for (const [i, service] of services.entries()) {
            if (![...mustTell.values()].some((entry) => entry.account === i && !entry.lost)) continue;
            const win = wins.find((w) => w.account === service) ?? wins[i % count]!;
            if (win.account !== service) await win.switchTo(service);
            for (const other of wins) if (other !== win && other.focused) other.setFocus(false);
            win.setFocus(true);
            await advance(80 * MINUTE);
          }

          for (const [i, list] of polls.entries()) {
            for (let p = 1; p < list.length; p++) {
              if (list[p]!.exempt) continue;
              assert.ok(
                list[p]!.at - list[p - 1]!.at >= 5 * MINUTE - 2000,
                `${ACCOUNTS[i]} polled ${(list[p]!.at - list[p - 1]!.at) / 1000} s after the poll before`,
              );
            }
          }
          const ids = rig.shown.flatMap((s) => [...s.text.matchAll(/\(#(\d+)\)/g)].map((m) => Number(m[1])));
          assert.equal(new Set(ids).size, ids.length, `a post told twice: ${rig.shown.map((s) => s.text).join(' | ')}`);
          for (const [id, { lost }] of mustTell) {
            if (lost) continue;
            const withEllipsis = rig.shown.some((s) => s.text.includes('…'));
            assert.ok(ids.includes(id) || withEllipsis, `post #${id} assigned, never told: ${rig.shown.map((s) => s.text).join(' | ')}`);
          }
          for (const win of wins) if (win.account) await win.switchTo(undefined);
          await advance(MINUTE);
          assert.equal(rig.clock.pending, 0, 'no timer once every window is signed out');
        } finally {
          rig.close();
        }
      }),
      { numRuns: Number(process.env.WATCH_RUNS ?? 25) },
    );
  });
});
