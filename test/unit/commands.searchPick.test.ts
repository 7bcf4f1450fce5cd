import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { pickClient, pickPost } from '../../src/commands/prompts';
import { SEARCH_DELAY_MS } from '../../src/commands/searchPick';
import { SEARCH_RECORDS } from '../../src/search/listSearch';
import { PROFILES, startStandIn, type StandIn } from '../server';
import { fake, type FakeQuickPick } from './fakeVscode';
import { postToolsRig as rig } from './postToolsRig';

/*
 * The picks of posts and clients search the helpdesk, not only the rows loaded: against the
 * stand-in listing 25 records a page, the service's order kept (likely) or ignored (contrary).
 */

const OLD_TITLE = 'Invoice printer jams on Tuesdays';
const POSTS = 600;

/** Waits until `done` holds (polling: the pick's work is asynchronous), failing after 10 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) assert.fail(`waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const labels = (pick: FakeQuickPick) => pick.items.map((item) => item.label);
const postPages = (server: StandIn) => server.requests.filter((request) => request.path === '/app.json').length;

for (const profile of [{ ...PROFILES.likely, maxPerPage: 25 }, PROFILES.contrary]) {
  describe(`pickPost searches the helpdesk (${profile.name}, 25 a page)`, () => {
    let server: StandIn;
    let made: ReturnType<typeof rig>;
    let oldId: number;
    before(async () => {
      server = await startStandIn({ seed: 'empty', profile });
      // The old post: among the bound's newest posts, but far past the first page.
      for (let i = 1; i < POSTS; i++) {
        server.store.insert(server.prefix, 'posts', { title: `Routine post ${i}`, content: 'Nothing to see.', task_kind: 'task' });
        if (i === POSTS - 450)
          oldId = (
            server.store.insert(server.prefix, 'posts', { title: OLD_TITLE, content: 'It happens every week.', task_kind: 'task' }) as Post
          ).id;
      }
    });
    after(() => server.close());
    beforeEach(async () => {
      server.reset();
      made = rig(server);
      fake.config.set('helpdesk.referencePrefix', 'HD-');
      await made.session.whenRestored();
    });
    afterEach(() => made.gateway.dispose());

    /** Opens the pick and waits for its first page. */
    async function open(): Promise<{ pick: FakeQuickPick; picking: Promise<Post | undefined> }> {
      const picking = pickPost(made.gateway, 'Comment on Task');
      const pick = fake.quickPicks.at(-1)!;
      await until(() => !pick.busy && pick.items.length > 0, 'the first page');
      return { pick, picking };
    }

    it('an old post is found by a word of its title, beyond the first page, and picked', async () => {
      const { pick, picking } = await open();
      assert.ok(!labels(pick).some((label) => label.includes(OLD_TITLE)), 'not among the rows loaded at first');
      pick.type('INVOICE printer');
      await until(() => labels(pick).some((label) => label.includes(OLD_TITLE)), 'the old post');
      pick.accept(OLD_TITLE);
      assert.equal((await picking)?.id, oldId);
    });

    const references: [string, (id: number) => string][] = [
      ['#N', (id) => `#${id}`],
      ['HD-N', (id) => `HD-${id}`],
      ['its address', (id) => `${server.url}/app/posts/${id}`],
    ];
    for (const [name, typed] of references) {
      it(`${name} reads the post directly, and nothing else`, async () => {
        const { pick, picking } = await open();
        const pages = postPages(server);
        pick.type(typed(oldId));
        await until(() => labels(pick).some((label) => label.includes(OLD_TITLE)), 'the post named');
        await until(() => !pick.busy, 'the search to end');
        assert.ok(
          server.requests.some((request) => request.path === `/app/posts/${oldId}.json`),
          'read directly',
        );
        assert.equal(postPages(server), pages, 'no page of the list read for it');
        pick.accept(OLD_TITLE);
        assert.equal((await picking)?.id, oldId);
      });
    }

    it('a number of no post says so', async () => {
      const { pick, picking } = await open();
      pick.type('#999999');
      await until(() => labels(pick).some((label) => label.includes('The helpdesk has no post HD-999999')), 'the words');
      pick.hide();
      await picking;
    });

    it(`where the bound is met, the last items say how far it looked; looking further reads on to the end`, async () => {
      const { pick, picking } = await open();
      pick.type('zebra');
      await until(() => labels(pick).some((label) => label.includes(`Searched the ${SEARCH_RECORDS} newest posts`)), 'the bound item');
      assert.equal(made.store.posts.state.items.length, SEARCH_RECORDS, 'read as far as the bound');
      assert.match(labels(pick).at(-1)!, /Open the Helpdesk in the Browser/);
      assert.equal(labels(pick).at(-2), `$(search) Searched the ${SEARCH_RECORDS} newest posts`);
      pick.accept(`Searched the ${SEARCH_RECORDS} newest posts`);
      assert.equal(pick.hidden, false, 'looking further leaves the pick open');
      await until(() => labels(pick).some((label) => label.includes(`Searched all ${POSTS} posts`)), 'the end of the list');
      pick.accept('Open the Helpdesk in the Browser');
      assert.deepEqual(fake.opened, [`${server.url}/app`]);
      assert.equal(await picking, undefined);
    });

    it('hiding the pick stops its reads: the page under way is given up, and none is asked for after', async () => {
      const { pick, picking } = await open();
      const pages = postPages(server);
      server.addFault({ path: '/app.json', hang: true });
      pick.type('zebra');
      await until(() => pick.busy && postPages(server) > pages, 'the search to ask for a page');
      assert.equal(made.store.posts.state.loading, true);
      pick.hide();
      await picking;
      assert.equal(made.store.posts.state.loading, false, 'the page under way given up');
      server.clearFaults();
      const requests = server.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 4 * SEARCH_DELAY_MS));
      assert.equal(
        server.requests.length,
        requests,
        server.requests
          .slice(requests)
          .map((request) => `${request.path}?${new URLSearchParams(request.query).toString()}`)
          .join(', '),
      );
    });

    it('typing never waits on the network: the rows loaded are searched at once, while the pages hang', async () => {
      const { pick, picking } = await open();
      server.addFault({ path: '/app.json', hang: true });
      pick.type(`routine post ${POSTS - 1}`);
      await until(() => labels(pick).some((label) => label.endsWith(`Routine post ${POSTS - 1}`)), 'the loaded row');
      assert.ok(!labels(pick).some((label) => label.endsWith(`Routine post ${POSTS - 2}`)), 'every word must be there: not another post');
      await until(() => pick.busy, 'the search to read further');
      pick.hide();
      await picking;
    });

    it('1 MB pasted: words that say how much a search takes, and no request', async () => {
      const { pick, picking } = await open();
      const requests = server.requests.length;
      pick.type(`HD-${'1'.repeat(1024 * 1024)}`);
      assert.match(labels(pick).join('\n'), /Type at most 500 characters and 20 different words/);
      await new Promise((resolve) => setTimeout(resolve, 2 * SEARCH_DELAY_MS));
      // The statuses the rows' labels read may come late on a loaded machine: not the search's.
      assert.deepEqual(
        server.requests
          .slice(requests)
          .map((r) => `${r.method} ${r.path}`)
          .filter((r) => r !== 'GET /app/statuses.json'),
        [],
      );
      assert.equal(pick.busy, false);
      pick.hide();
      await picking;
    });

    it('typing fast makes one search, not one per key', async () => {
      const { pick, picking } = await open();
      for (const text of ['#', `#${String(oldId)[0]}`, `#${oldId}`]) pick.type(text);
      await until(() => labels(pick).some((label) => label.includes(OLD_TITLE)), 'the post named');
      await until(() => !pick.busy, 'the search to end');
      const reads = server.requests.filter((request) => /^\/app\/posts\/\d+\.json$/.test(request.path)).map((request) => request.path);
      assert.deepEqual(reads, [`/app/posts/${oldId}.json`]);
      pick.hide();
      await picking;
    });
  });
}

describe('pickClient searches the helpdesk (25 a page)', () => {
  let server: StandIn;
  before(async () => {
    server = await startStandIn({ seed: 'empty', profile: { ...PROFILES.likely, maxPerPage: 25 } });
    for (let i = 0; i < 120; i++)
      server.store.insert(server.prefix, 'clients', {
        name: `Client ${String(i).padStart(3, '0')}`,
        city: i === 117 ? 'Zanzibar' : 'Berlin',
      });
  });
  after(() => server.close());

  it('a client past the first page is found by its city', async () => {
    const made = rig(server);
    try {
      await made.session.whenRestored();
      const picking = pickClient(made.gateway, 'Link Deal');
      const pick = fake.quickPicks.at(-1)!;
      await until(() => !pick.busy && pick.items.length > 0, 'the first page');
      assert.ok(!labels(pick).includes('Client 117'));
      pick.type('zanzibar');
      await until(() => labels(pick).includes('Client 117'), 'the client');
      pick.accept('Client 117');
      assert.equal((await picking)?.name, 'Client 117');
    } finally {
      made.gateway.dispose();
    }
  });
});
