import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from '../../src/api';
import { pickPost } from '../../src/commands/prompts';
import { readFurther, SEARCH_RECORDS } from '../../src/search/listSearch';
import { PagedList } from '../../src/store/pagedList';
import { PROFILES, startStandIn, type StandIn } from '../server';
import { fake } from './fakeVscode';
import { never, postToolsRig as rig } from './postToolsRig';

/* The bound every search keeps (the agent's helpdesk_searchPosts and the palette's picks): how far it reads the views' list. */

type Item = { id: number };
const newestFirst = (a: Item, b: Item) => b.id - a.id;

/** A list of `total` records, newest first, `perPage` a page; `pages` counts the pages asked for. */
function listOf(total: number, perPage = 25, fetch?: (page: number, signal: AbortSignal) => Promise<Page<Item>> | undefined) {
  const asked: number[] = [];
  const list = new PagedList<Item>(
    async (page, size, signal) => {
      asked.push(page);
      const forced = fetch?.(page, signal);
      if (forced) return forced;
      const items = Array.from({ length: size }, (_, i) => ({ id: total - (page - 1) * size - i })).filter((item) => item.id > 0);
      return { items, received: items.length };
    },
    () => perPage,
    newestFirst,
  );
  return { list, asked };
}

describe('readFurther: the search bound', () => {
  it(`reads a long list as far as ${SEARCH_RECORDS} records, and says it stopped at the bound`, async () => {
    const { list, asked } = listOf(2000);
    assert.equal(await readFurther(list, { signal: new AbortController().signal }), 'bound');
    assert.equal(list.state.items.length, SEARCH_RECORDS);
    assert.equal(asked.length, SEARCH_RECORDS / 25);
  });

  it('looking further is a larger bound: it reads on from where the list stands', async () => {
    const { list, asked } = listOf(2000);
    await readFurther(list, { signal: new AbortController().signal });
    assert.equal(await readFurther(list, { signal: new AbortController().signal, most: 2 * SEARCH_RECORDS }), 'bound');
    assert.equal(list.state.items.length, 2 * SEARCH_RECORDS);
    assert.equal(new Set(asked).size, asked.length, 'no page read twice');
  });

  it('a short list is read to its end: every record searched', async () => {
    const { list } = listOf(60);
    assert.equal(await readFurther(list, { signal: new AbortController().signal }), 'complete');
    assert.equal(list.state.items.length, 60);
  });

  it("a failed page ends it; a person's new search (retry) tries the page again once", async () => {
    let failing = true;
    const { list, asked } = listOf(200, 25, (page) => (page === 3 && failing ? Promise.reject(new Error('502')) : undefined));
    assert.equal(await readFurther(list, { signal: new AbortController().signal }), 'failed');
    assert.equal(list.state.items.length, 50);
    assert.equal(
      await readFurther(list, { signal: new AbortController().signal }),
      'failed',
      'without retry: the failure stands, nothing asked',
    );
    assert.deepEqual(asked, [1, 2, 3]);
    failing = false;
    assert.equal(await readFurther(list, { signal: new AbortController().signal, retry: true }), 'complete');
  });

  it('aborted while a page hangs: it answers at once, the page is given up, none is asked for after', async () => {
    let hung: AbortSignal | undefined;
    const { list, asked } = listOf(200, 25, (page, signal) =>
      page === 2 ? ((hung = signal), new Promise<never>(() => undefined)) : undefined,
    );
    await list.ensureStarted();
    const controller = new AbortController();
    const reading = readFurther(list, { signal: controller.signal });
    while (!hung) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    assert.equal(await reading, 'cancelled');
    assert.equal(hung.aborted, true, 'the request aborted');
    assert.equal(list.state.loading, false);
    assert.deepEqual(asked, [1, 2]);
  });

  it('a page a view waits for too is not given up by a search that is cancelled', async () => {
    let release: (() => void) | undefined;
    let hung: AbortSignal | undefined;
    const { list } = listOf(200, 25, (page, signal) =>
      page === 2 && !release
        ? ((hung = signal), new Promise<Page<Item>>((resolve) => (release = () => resolve({ items: [{ id: 170 }], received: 1 }))))
        : undefined,
    );
    await list.ensureStarted();
    const controller = new AbortController();
    const reading = readFurther(list, { signal: controller.signal });
    while (!hung) await new Promise((resolve) => setImmediate(resolve));
    const viewLoad = list.loadMore();
    controller.abort();
    assert.equal(await reading, 'cancelled');
    assert.equal(hung.aborted, false);
    release!();
    await viewLoad;
    assert.ok(
      list.state.items.some((item) => item.id === 170),
      'the view got its page',
    );
  });

  it('the list starting again (another account, a refresh) ends the read', async () => {
    const { list } = listOf(2000, 25, (page) => (page === 2 ? (list.reset(), undefined) : undefined));
    await list.ensureStarted();
    assert.equal(await readFurther(list, { signal: new AbortController().signal }), 'cancelled');
  });
});

describe("the agent's search and the pick: one rule (contrary profile, 25 a page)", () => {
  let server: StandIn;
  before(async () => {
    server = await startStandIn({ seed: 'empty', profile: PROFILES.contrary });
    for (let i = 1; i <= 700; i++) {
      // The word is in the content of some posts only, and in titles of others: the rule searches both.
      const marked = i % 37 === 0;
      server.store.insert(server.prefix, 'posts', {
        title: marked && i % 2 ? `Kumquat ${i}` : `Post ${i}`,
        content: marked ? 'about a kumquat' : 'nothing',
        task_kind: 'task',
        closed: i % 74 === 0,
      });
    }
  });
  after(() => server.close());

  it('the same posts, among the same 500 newest', async () => {
    const made = rig(server);
    try {
      const answer = await made.tools.searchPosts({ query: 'KUMQUAT', limit: 50 }, never);
      assert.match(answer, new RegExp(`among the ${SEARCH_RECORDS} newest posts`), answer.slice(0, 200));
      const agentIds = [...answer.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));
      made.store.posts.reset();
      const picking = pickPost(made.gateway, 'Comment on Task');
      const pick = fake.quickPicks.at(-1)!;
      await new Promise((resolve) => setTimeout(resolve, 50));
      pick.type('kumquat');
      for (let i = 0; i < 1000 && !pick.items.some((item) => item.label.includes('Searched the')); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const pickIds = pick.items.flatMap((item) => (/^#(\d+)/.exec(item.description ?? '') ?? []).slice(1).map(Number));
      pick.hide();
      await picking;
      assert.ok(agentIds.length > 5, answer.slice(0, 300));
      assert.deepEqual(pickIds, agentIds);
      assert.equal(made.store.posts.state.items.length, SEARCH_RECORDS);
    } finally {
      made.gateway.dispose();
    }
  });
});
