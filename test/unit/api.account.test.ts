import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { ApiError, HelpdeskClient, isApiError, type NewComment } from '../../src/api';
import { Account, type AccountChange, type Met } from '../../src/api/account';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { memoryState } from './memoryState';
import { startStandIn, type ProfileName, type StandIn } from '../server';

/* The account's calls that must not depend on what the service does where the notes say only
 * "likely": run against both stand-in profiles (test/server/profile.ts), seeded with the demo.
 * Account imports no vscode at run time: this file runs under node's test runner. */

/** An account on the stand-in, with the lines it logged, what its calls met and what its writes changed. */
function accountOn(server: StandIn, state = memoryState()) {
  const noted: string[] = [];
  const outcomes: Met[] = [];
  const changes: AccountChange[] = [];
  const api = new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
  const knowledge = new ListKnowledge(state, server.url);
  const account = new Account(server.url, {
    api: () => api,
    signal: new AbortController().signal,
    knowledge,
    log: (message) => void noted.push(message),
  });
  account.onDidMeet((met) => void outcomes.push(met));
  account.onDidChange((change) => void changes.push(change));
  return { account, api, noted, outcomes, changes, knowledge };
}

/** The newest id among the account's posts, comments included: what "after" is before a send. */
const newestPostId = (server: StandIn) => Math.max(...server.store.list(server.prefix, 'posts').map((post) => post.id));
/** What the sender looks for after a lost answer: a post of `kind` carrying `ref`, filed by this version (marker first). */
const sought = (
  kind: 'bug' | 'task' | 'comment',
  ref: string,
  after: number | undefined,
  more: { parentId?: number; markerAtHead?: boolean } = {},
) => ({ kind, ref, after, markerAtHead: true, ...more });
const helpdeskPages = (server: StandIn) =>
  server.requests.filter((request) => request.path === '/app.json').map((request) => Number(request.query.page));

for (const profile of ['likely', 'contrary'] as const satisfies readonly ProfileName[]) {
  describe(`Account against the ${profile} stand-in`, () => {
    let server: StandIn;
    let clientA: number;
    let clientB: number;

    before(async () => {
      server = await startStandIn({ seed: 'demo', profile });
      const { api } = accountOn(server);
      // More deals than one contrary page holds (25), so that a client's deals stand on two pages.
      clientA = (await api.clients.create({ name: 'Many Deals Ltd' })).id;
      clientB = (await api.clients.create({ name: 'No Deals Ltd' })).id;
      for (let i = 1; i <= 30; i++) await api.deals.create({ name: `Deal ${i}`, client_id: clientA });
    });
    after(() => server.close());
    beforeEach(() => server.reset());

    it("dealsOf(clientId) returns that client's deals only, every one of them", async () => {
      const { account, noted } = accountOn(server);
      const stored = server.store.list(server.prefix, 'deals');
      const demoClient = stored.find((deal) => deal.client_id !== null && deal.client_id !== clientA)!.client_id!;
      for (const clientId of [clientA, demoClient]) {
        const { items: deals, error } = await account.dealsOf(clientId);
        assert.equal(error, undefined);
        assert.ok(deals.length > 0);
        assert.ok(
          deals.every((deal) => deal.client_id === clientId),
          `only client ${clientId}'s deals`,
        );
        assert.deepEqual(
          deals.map((deal) => deal.id).sort((a, b) => a - b),
          stored.filter((deal) => deal.client_id === clientId).map((deal) => deal.id),
        );
      }
      assert.deepEqual(await account.dealsOf(clientB), { items: [], error: undefined });
      const unfiltered = noted.filter((message) => /ignore "client_id"/.test(message));
      if (profile === 'likely') assert.deepEqual(noted, [], 'a service that filters: nothing to note');
      else assert.equal(unfiltered.length, 1, 'a service that ignores client_id is noted, once');
      assert.deepEqual(noted, unfiltered);
    });

    it('dealsOf: a page after the first fails: the deals read before it, and the error (a 500 does not move the session)', async () => {
      const { account, outcomes } = accountOn(server);
      // The first page passes (a rule with a latency only), the second fails.
      server.addFault({ method: 'GET', path: '/app/deals.json', latencyMs: 1, times: 1 });
      server.addFault({ method: 'GET', path: '/app/deals.json', status: 500, times: 1 });
      const read = await account.dealsOf(clientA);
      assert.ok(isApiError(read.error, 'server'), String(read.error));
      assert.ok(read.items.length > 0 && read.items.every((deal) => deal.client_id === clientA), "the deals of page 1, the client's own");
      assert.equal(server.requests.filter((r) => r.path === '/app/deals.json').length, 2);
      assert.deepEqual(outcomes, [], 'a 500 is neither an answer nor a refused token');
    });

    it('dealsOf: the first page fails: an error, nothing read', async () => {
      const { account } = accountOn(server);
      server.addFault({ method: 'GET', path: '/app/deals.json', status: 500, times: 1 });
      await assert.rejects(account.dealsOf(clientA), (error) => isApiError(error, 'server'));
    });

    it('findFiled finds the post that carries the marker, not an older one with the same title and content', async () => {
      const { account, api } = accountOn(server);
      const same = { title: `Crash in parser (${profile})`, content: 'parse() throws on an empty file', task_kind: 'task' as const };
      await api.posts.createTask(same);
      const baseline = newestPostId(server);
      const filed = await api.posts.createTask({ ...same, content: `Sent from VS Code · hb-abcdefghij\n\n${same.content}` });
      await api.posts.createTask(same);
      const found = await account.findFiled(sought('task', 'hb-abcdefghij', baseline));
      assert.equal(typeof found === 'object' && found.id, filed.id);
    });

    it('findFiled: nothing carries the marker: "absent" where this search sees a task of ours listed with its marker, "unproven" where it sees none; where the service sorts by id it stops once past both', async () => {
      const { account, api } = accountOn(server);
      const ours = await api.posts.createTask({
        title: `Filed here (${profile})`,
        task_kind: 'task',
        content: 'Sent from VS Code · hb-ourownpost\n\nEarlier',
      });
      await account.noteFiled('task', ours.id, 'hb-ourownpost');
      const baseline = newestPostId(server);
      await api.posts.createTask({ title: 'Something else', task_kind: 'task', content: 'Filed after the baseline, but does not match' });
      server.reset();
      assert.equal(await account.findFiled(sought('task', 'hb-0000000000', baseline)), 'absent');
      const pages = helpdeskPages(server);
      if (profile === 'likely') {
        assert.deepEqual(
          pages,
          [1, 1],
          'newest first: stops once past the baseline, after one post oldest first shows the service sorts by id',
        );
        assert.equal(server.requests.at(-1)?.query.order, 'id', 'ascending as the sister product spells it, not id.asc');
      } else {
        const listed = server.store.list(server.prefix, 'posts').length;
        const full = Array.from({ length: Math.ceil(listed / 25) + 1 }, (_, i) => i + 1);
        assert.deepEqual(
          pages,
          [...full, full.length],
          'in id order: every page of 25, to the empty one, read twice to be sure it is the end',
        );
      }
      const { account: fresh } = accountOn(server);
      assert.equal(
        await fresh.findFiled(sought('task', 'hb-0000000000', baseline)),
        'unproven',
        'an account that filed nothing here knows nothing of the list',
      );
      assert.equal(
        await account.findFiled(sought('task', 'hb-0000000000', baseline, { markerAtHead: false })),
        'unproven',
        'a marker at the end (an earlier version) may be cut or stripped where a first line is not',
      );
    });

    it('findFiled: a match is that very post, with or without a baseline', async () => {
      const { account, api } = accountOn(server);
      const mine = await api.posts.createTask({
        title: `No baseline (${profile})`,
        task_kind: 'task',
        content: 'Sent from VS Code · hb-0123456789',
      });
      await api.posts.createTask({ title: 'Filed since', task_kind: 'task', content: 'not mine' });
      const found = await account.findFiled(sought('task', 'hb-0123456789', undefined));
      assert.equal(typeof found === 'object' && found.id, mine.id);
      assert.notEqual(await account.findFiled(sought('task', 'hb-nopostwith', undefined)), 'absent', 'never learned: never absent');
    });

    it('a comment is sent with its title, and the service takes it', async () => {
      const { account, api } = accountOn(server);
      const parent = await api.posts.createTask({ title: 'Parent task', task_kind: 'task' });
      server.reset();
      const comment = await account.addComment(parent.id, { title: 'Re: Parent task', content: 'Looking into it' });
      assert.equal(comment.post_id, parent.id);
      assert.equal(comment.title, 'Re: Parent task');
      const [request] = server.requests;
      assert.equal(request?.path, '/app/posts.json');
      assert.deepEqual((request?.body as { post: Record<string, unknown> }).post, {
        title: 'Re: Parent task',
        content: 'Looking into it',
        post_id: parent.id,
        task_kind: 'comment',
      });
    });

    it(`a comment without a title is ${profile === 'contrary' ? 'refused (422, naming title)' : 'taken'}`, async () => {
      const { account, api, outcomes } = accountOn(server);
      const parent = await api.posts.createTask({ title: 'Parent task', task_kind: 'task' });
      const untitled = { content: 'No title' } as NewComment;
      if (profile === 'likely') {
        assert.equal((await account.addComment(parent.id, untitled)).post_id, parent.id);
        return;
      }
      await assert.rejects(account.addComment(parent.id, untitled), (error) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.kind, 'validation');
        assert.equal(error.status, 422);
        assert.match(error.message, /title/i);
        return true;
      });
      assert.deepEqual(outcomes, [], 'a refused comment is neither an answer nor a refused token');
    });
  });
}

/** A task of ours, filed here with its marker first: a search that sees it listed so knows the list shows markers. */
async function listShowsTasks(knowledge: ListKnowledge, server: StandIn, id = 1): Promise<void> {
  server.store.update(server.prefix, 'posts', id, {
    content: 'Sent from VS Code · hb-taughtpost\n\n…',
    task_kind: 'task',
    kind: null,
    post_id: null,
  });
  await knowledge.noteFiled('task', id, 'hb-taughtpost');
}

describe('findFiled: where it gives up', () => {
  let big: StandIn;
  before(async () => {
    // 1,100 posts, 25 a page, in id order: the search's 1,000 posts do not reach the end.
    big = await startStandIn({ seed: { posts: 1100 }, profile: 'contrary' });
  });
  after(() => big.close());

  it('"unsure" once it has read 30 pages without reaching the end', async () => {
    const { account } = accountOn(big);
    const result = await account.findFiled(sought('task', 'hb-0000000000', newestPostId(big)));
    assert.equal(result, 'unsure');
    assert.deepEqual(
      helpdeskPages(big),
      Array.from({ length: 30 }, (_, i) => i + 1),
      '30 pages of 25',
    );
  });
});

describe('findFiled: paging back past the first try', () => {
  let big: StandIn;
  before(async () => {
    big = await startStandIn({ seed: { posts: 1300 }, profile: 'likely' });
  });
  after(() => big.close());

  it('finds the very post with more than 1,000 posts filed since, on a service that sorts by id', async () => {
    const { account } = accountOn(big);
    const newest = newestPostId(big);
    const mine = newest - 1100;
    big.store.update(big.prefix, 'posts', mine, { content: 'Sent from VS Code · hb-minemine00\n\nOld' });
    big.reset();
    big.store.update(big.prefix, 'posts', mine, { task_kind: 'task', kind: null, post_id: null });
    big.reset();
    const found = await account.findFiled(sought('task', 'hb-minemine00', mine - 1));
    assert.equal(typeof found === 'object' && found.id, mine);
    assert.deepEqual(
      helpdeskPages(big),
      Array.from({ length: 12 }, (_, i) => i + 1),
      '12 pages of 100, newest first, to reach it',
    );
  });

  it('"absent" once past the first try, however far back that is, where it saw on the way a task of ours with its marker', async () => {
    const { account, knowledge } = accountOn(big);
    const baseline = newestPostId(big) - 1150;
    await listShowsTasks(knowledge, big, baseline - 20);
    big.reset();
    assert.equal(await account.findFiled(sought('task', 'hb-0000000000', baseline)), 'absent');
    assert.deepEqual(
      helpdeskPages(big),
      [...Array.from({ length: 12 }, (_, i) => i + 1), 1],
      'pages of 100 back to our task, and the order check',
    );
  });

  it('a service that answers the ascending order with []: the order is not trusted, and the search reads to the end', async () => {
    const { account, knowledge } = accountOn(big);
    await listShowsTasks(knowledge, big, 3);
    big.reset();
    big.addFault({ path: '/app.json', query: { order: 'id' }, body: [] });
    assert.equal(await account.findFiled(sought('task', 'hb-0000000000', newestPostId(big) - 5)), 'absent');
    const asked = big.requests.filter((r) => r.path === '/app.json');
    assert.equal(asked.filter((r) => r.query.order === 'id').length, 1, 'the order is checked once per search');
    assert.equal(asked.length, 14 + 1 + 1, '13 pages of 100, the empty one twice, and the check');
  });
});

describe('findFiled: a list that refuses order=….asc or hides the marker (the sparse stand-in)', () => {
  let server: StandIn;
  beforeEach(async () => {
    server = await startStandIn({ seed: 'demo', profile: 'sparse' });
  });
  afterEach(() => server.close());

  it('checks the order with order=id (no .asc), and a bug report, never listed, is "unproven" however far it reads', async () => {
    const { account, api } = accountOn(server);
    const bug = await api.posts.reportError({ title: 'Crash', content: 'Sent from VS Code · hb-bugbugbug0\n\nIt crashed' });
    await account.noteFiled('bug', bug.id, 'hb-bugbugbug0');
    const task = await api.posts.createTask({
      title: 'Task',
      task_kind: 'task',
      content: `Sent from VS Code · hb-tasktask00\n\n${'long '.repeat(100)}`,
    });
    await account.noteFiled('task', task.id, 'hb-tasktask00');
    server.reset();
    assert.equal(await account.findFiled(sought('bug', 'hb-bugbugbug1', bug.id - 1)), 'unproven', 'bug reports are not listed here');
    assert.ok(!server.requests.some((r) => r.query.order?.endsWith('.asc')), 'never asks .asc');
    assert.ok(server.requests.every((r) => r.path !== '/app.json' || r.query.order === undefined || /^id(\.desc)?$/.test(r.query.order)));
    assert.equal(
      await account.findFiled(sought('task', 'hb-tasktask01', task.id - 1)),
      'absent',
      'tasks are listed, their marker in the abstract',
    );
  });

  it('a service that refuses order=id.desc too: asked once more without it, and from then on never with it', async () => {
    const { account, noted } = accountOn(server);
    server.addFault({
      path: '/app.json',
      query: { order: 'id.desc' },
      status: 422,
      body: { code: 'error', message: { order: ['is not included in the list'] } },
    });
    const page = await account.postsPage(1, 10);
    assert.ok(page.items.length > 0);
    await account.postsPage(2, 10);
    const orders = server.requests.filter((r) => r.path === '/app.json').map((r) => r.query.order ?? '-');
    assert.deepEqual(orders, ['id.desc', '-', '-']);
    assert.ok(noted.some((message) => message.includes('refused "order=')));
    const result = await account.findFiled(sought('task', 'hb-0000000000', 1));
    assert.equal(result, 'unproven', 'the order cannot be trusted, and the list reads to its end (a 404)');
  });
});

describe('the order a list is asked in', () => {
  it('a 422 is taken for a refusal of "order" only where the same page without it is answered', async () => {
    const server = await startStandIn();
    try {
      const { account, knowledge } = accountOn(server);
      server.addFault({ path: '/app.json', query: { order: 'id.desc' }, status: 422, times: 1 });
      server.addFault({ path: '/app.json', status: 403, times: 1 });
      await assert.rejects(account.postsPage(1, 10));
      assert.equal(knowledge.orderRefused, false, 'the 422 was about something else');
      await account.postsPage(1, 10);
      assert.equal(server.requests.at(-1)?.query.order, 'id.desc', 'asked with the order again');
    } finally {
      await server.close();
    }
  });
});

describe('the posts changed latest, for the news watcher', () => {
  it('asked with order=updated_at.desc: an old post changed comes first; refused (422), asked again without it, and said', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      const { account, noted } = accountOn(server);
      const old = server.store.list(server.prefix, 'posts').find((post) => post.post_id === null)!;
      server.store.update(server.prefix, 'posts', old.id, { closed: !old.closed });
      const page = await account.changedPostsPage(1, 10);
      assert.equal(page.items[0]?.id, old.id);
      assert.equal(server.requests.at(-1)?.query.order, 'updated_at.desc');
      assert.equal(account.orderRefused, false);
      server.addFault({
        path: '/app.json',
        query: { order: 'updated_at.desc' },
        status: 422,
        body: { code: 'error', message: { order: ['is not included in the list'] } },
      });
      assert.ok((await account.changedPostsPage(1, 10)).items.length > 0);
      assert.equal(account.orderRefused, true);
      assert.deepEqual(
        server.requests.slice(-2).map((r) => r.query.order ?? '-'),
        ['updated_at.desc', '-'],
      );
      assert.ok(noted.some((message) => message.includes('refused "order=')));
    } finally {
      await server.close();
    }
  });
});

describe('findFiled: never "absent" without having read to the end', () => {
  let server: StandIn;
  beforeEach(async () => {
    server = await startStandIn();
  });
  afterEach(() => server.close());

  it('a service that ignores "page" (the same page again): "unsure", not "absent"', async () => {
    server.addFault({
      path: '/app.json',
      body: [
        { id: 1, title: 'old' },
        { id: 2, title: 'older' },
      ],
    });
    const { account, knowledge } = accountOn(server);
    await listShowsTasks(knowledge, server);
    assert.equal(await account.findFiled(sought('task', 'hb-0000000000', 0)), 'unsure');
  });

  it('a page with a record it could not read (it may be the one): "unsure"', async () => {
    server.addFault({
      path: '/app.json',
      body: [
        { id: 'x', title: 'mine' },
        { id: 2, title: 'older' },
      ],
      times: 1,
    });
    const { account, knowledge } = accountOn(server);
    await listShowsTasks(knowledge, server);
    assert.equal(await account.findFiled(sought('task', 'hb-0000000000', 0)), 'unsure');
  });
});

describe('findFiled: trusts an order only the service shows it keeps', () => {
  it('a service that lists newest first whatever it is asked: past the baseline it reads on, and cannot be sure', async () => {
    const server = await startStandIn();
    try {
      server.addFault({
        path: '/app.json',
        body: [
          { id: 5, title: 'a' },
          { id: 4, title: 'b' },
        ],
      });
      const { account, knowledge } = accountOn(server);
      await listShowsTasks(knowledge, server);
      assert.equal(await account.findFiled(sought('task', 'hb-0000000000', 4)), 'unsure');
      assert.ok(
        server.requests.some((r) => r.path === '/app.json' && r.query.order === 'id'),
        'it asked for the oldest post to check the order',
      );
    } finally {
      await server.close();
    }
  });
});

describe('Account.statuses', () => {
  it('does not move the session, whatever it meets (a token may see posts without statuses)', async () => {
    const server = await startStandIn();
    try {
      server.addFault({ path: '/app/statuses.json', status: 401 });
      const { account, outcomes } = accountOn(server);
      await assert.rejects(account.statuses(), (error: Error) => error instanceof ApiError && error.kind === 'auth');
      assert.deepEqual(outcomes, []);
    } finally {
      await server.close();
    }
  });
});

describe('Account after sign-out', () => {
  it('refuses to call once its signal is aborted', async () => {
    const server = await startStandIn();
    try {
      const controller = new AbortController();
      const api = new HelpdeskClient({ accountUrl: server.url, token: server.token });
      const account = new Account(server.url, {
        api: () => api,
        signal: controller.signal,
        knowledge: new ListKnowledge(memoryState(), server.url),
        log: () => undefined,
      });
      controller.abort();
      await assert.rejects(account.dealsOf(1), (error: Error) => error.name === 'SignedOutError');
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});

describe('what the account tells', () => {
  it('what each call met: an answer, a refused token (401), no service reached; nothing for other failures', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      const { account, outcomes } = accountOn(server);
      await account.postsPage(1, 10);
      server.addFault({ path: '/app.json', status: 401, times: 1 });
      await assert.rejects(account.postsPage(1, 10));
      server.addFault({ path: '/app.json', status: 500, times: 1 });
      await assert.rejects(account.postsPage(1, 10));
      server.addFault({ path: '/app.json', drop: true });
      await assert.rejects(account.postsPage(1, 10));
      assert.deepEqual(outcomes, ['answered', 'rejected', 'unreachable']);
    } finally {
      await server.close();
    }
  });

  it('what each write changed, and what a read found afresh or gone', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      const { account, changes } = accountOn(server);
      const task = await account.createTask({ title: 'Told as filed', task_kind: 'task' });
      assert.deepEqual(changes.splice(0), [], 'told in the next turn: the caller tells the person first');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(changes.splice(0), [{ kind: 'filed', post: task }]);
      await account.addComment(task.id, { title: 'Re: Told as filed', content: 'A comment' });
      assert.deepEqual(changes.splice(0), [{ kind: 'commented', parentId: task.id }]);
      const read = await account.post(task.id);
      assert.deepEqual(changes.splice(0), [{ kind: 'read', post: read }]);
      server.store.remove(server.prefix, 'posts', task.id);
      await assert.rejects(account.post(task.id), (error) => isApiError(error, 'notFound'));
      assert.deepEqual(changes.splice(0), [{ kind: 'gone', id: task.id }]);
      const client = server.store.list(server.prefix, 'clients')[0]!;
      const deal = await account.createDeal({ name: 'Told as deals', client_id: client.id });
      const linked = await account.linkDeal(deal.id, client.id);
      assert.deepEqual(changes.splice(0), [
        { kind: 'deals', deal },
        { kind: 'deals', deal: linked },
      ]);
      const { account: other, changes: otherChanges } = accountOn(server);
      await other.postsPage(1, 10);
      assert.deepEqual([changes, otherChanges], [[], []], 'a read of a page changes nothing, and one account tells only its own');
    } finally {
      await server.close();
    }
  });

  it('a disposed listener is told no more', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      const { account, outcomes } = accountOn(server);
      const heard: Met[] = [];
      account.onDidMeet((met) => void heard.push(met)).dispose();
      await account.postsPage(1, 10);
      assert.deepEqual([heard, outcomes], [[], ['answered']]);
    } finally {
      await server.close();
    }
  });
});
