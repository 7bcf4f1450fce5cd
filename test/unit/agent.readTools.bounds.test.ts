import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStandIn, type StandIn } from '../server';
import { never, postToolsRig } from './postToolsRig';

/*
 * Time bounds of the read tools at 1 MB for every input an agent controls: nothing it sends holds
 * the extension host. An event-loop probe (a 1 ms interval) measures the longest stretch of
 * synchronous work during the call, which includes the stand-in's own (it runs in this process).
 * A stretch is the time between two ticks of the probe, counted as the CPU time the process used
 * in it where that is less: a machine busy with other work may leave this process waiting, which
 * is not work of the tool's.
 */

const MB = 1024 * 1024;
/** The longest the extension host may be held at once, and a whole call (of pure work on loopback). */
const LONGEST_MS = 50;
const CALL_MS = 2000;

async function timed(work: () => Promise<string>): Promise<{ answer: string; longest: number; total: number }> {
  const started = performance.now();
  let last = { at: started, cpu: process.cpuUsage() };
  let longest = 0;
  const stretch = () => {
    const cpu = process.cpuUsage(last.cpu);
    const now = performance.now();
    longest = Math.max(longest, Math.min(now - last.at, (cpu.user + cpu.system) / 1000));
    last = { at: now, cpu: process.cpuUsage() };
  };
  const probe = setInterval(stretch, 1);
  try {
    const answer = await work();
    stretch();
    return { answer, longest, total: performance.now() - started };
  } finally {
    clearInterval(probe);
  }
}

/** Each post's content: 2,000 characters of words a query can name. */
const WORDS = Array.from({ length: 200 }, (_, i) => `word${i}`);

/** 1 MB of words every post holds, of distinct words, of one word, of blanks around digits; ~1 MB of array and of object. */
const hostileValues: [string, () => unknown][] = [
  ['1 MB of words every post holds', () => `${WORDS.join(' ')} `.repeat(Math.ceil(MB / 1000)).slice(0, MB)],
  ['1 MB of distinct words', () => Array.from({ length: MB / 8 }, (_, i) => `w${i.toString(36).padStart(6, '0')}`).join(' ')],
  ['1 MB of one letter', () => 'x'.repeat(MB)],
  ['1 MB of digits', () => '9'.repeat(MB)],
  ['1 MB of blanks around a number', () => `${' '.repeat(MB / 2)}12${' '.repeat(MB / 2)}`],
  ['1 MB of a reference prefix', () => `HD-${'0'.repeat(MB)}1`],
  ['an array of 200,000 strings', () => Array.from({ length: 200_000 }, () => 'word')],
  ['an object of 100,000 keys', () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))],
];

describe('the read tools at 1 MB of every input', () => {
  let server: StandIn;
  let made: ReturnType<typeof postToolsRig>;
  before(async () => {
    server = await startStandIn({ seed: 'empty' });
    for (let i = 0; i < 500; i++)
      server.store.insert(server.prefix, 'posts', { title: `Post ${i}`, content: WORDS.join(' ').padEnd(2000, ' filler').slice(0, 2000) });
    made = postToolsRig(server);
    await made.tools.searchPosts({ state: 'all' }, never);
  });
  after(async () => {
    made.gateway.dispose();
    await server.close();
  });

  const fields: [tool: 'searchPosts' | 'getPost', field: string][] = [
    ['searchPosts', 'query'],
    ['searchPosts', 'kind'],
    ['searchPosts', 'state'],
    ['searchPosts', 'scope'],
    ['searchPosts', 'limit'],
    ['getPost', 'post'],
  ];
  for (const [tool, field] of fields) {
    for (const [name, value] of hostileValues) {
      it(`${tool} with ${field}: ${name}`, async () => {
        const input = { [field]: value(), ...(tool === 'searchPosts' && field !== 'state' ? { state: 'all' } : {}) };
        const { answer, longest, total } = await timed(() =>
          tool === 'searchPosts' ? made.tools.searchPosts(input, never) : made.tools.getPost(input, never),
        );
        assert.ok(longest < LONGEST_MS, `held the event loop ${longest.toFixed(1)} ms at once`);
        assert.ok(total < CALL_MS, `answered after ${total.toFixed(0)} ms`);
        assert.ok(answer.length < 20_000, `an answer of ${answer.length} characters`);
      });
    }
  }

  it('searchPosts with the longest query it takes, every word in every post', async () => {
    const query = WORDS.slice(0, 20).join(' ');
    const { answer, longest, total } = await timed(() => made.tools.searchPosts({ query, state: 'all', limit: 50 }, never));
    assert.match(answer, /^The 50 newest of 500 posts matched/, answer.slice(0, 200));
    assert.ok(longest < LONGEST_MS, `held the event loop ${longest.toFixed(1)} ms at once`);
    assert.ok(total < CALL_MS, `answered after ${total.toFixed(0)} ms`);
  });
});
