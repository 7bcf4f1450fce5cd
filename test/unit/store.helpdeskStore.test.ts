import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Account } from '../../src/api/account';
import { ListKnowledge } from '../../src/api/listKnowledge';
import { HelpdeskClient } from '../../src/api';
import { byName, HelpdeskStore } from '../../src/store/helpdeskStore';
import { type StandIn } from '../server';
import { fake, inLanguage } from './fakeVscode';
import { memoryState } from './memoryState';
import { standInsForSuite } from './support';

/* The store bound to accounts on the stand-in: it reads through the bound one and follows its writes only. */

describe('HelpdeskStore bound to an account', () => {
  let server: StandIn;
  const errors: string[] = [];
  const log = { error: (message: string) => void errors.push(message) };
  const accountOn = (url = server.url) => {
    const api = new HelpdeskClient({ accountUrl: url, token: server.token, retryDelayMs: 10 });
    return new Account(url, {
      api: () => api,
      signal: new AbortController().signal,
      knowledge: new ListKnowledge(memoryState(), url),
      log: () => undefined,
    });
  };
  const statusRequests = () => server.requests.filter((request) => request.path === '/app/statuses.json').length;

  standInsForSuite(([started]) => (server = started!));
  beforeEach(() => {
    fake.reset();
    errors.length = 0;
  });

  it('signed out, a read fails in words; bound, it reads the first page and the statuses beside it', async () => {
    const store = new HelpdeskStore(log);
    await store.posts.ensureStarted();
    assert.match(String(store.posts.state.error), /Not signed in/);
    await assert.rejects(store.dealsOf(1), /Not signed in/);
    store.bind(accountOn());
    await store.posts.ensureStarted();
    assert.equal(store.posts.state.error, undefined);
    assert.ok(store.posts.state.items.length > 0);
    await new Promise((resolve) => store.onDidChangeStatuses(() => resolve(undefined)));
    assert.ok(store.statuses, 'the status names, read beside the first page');
    assert.equal(statusRequests(), 1);
    await store.posts.refresh();
    assert.equal(statusRequests(), 1, 'asked once per account');
  });

  it('a post the account updated: its row and its hover show the answered record at once, with no request', async () => {
    const store = new HelpdeskStore(log);
    const mine = accountOn();
    store.bind(mine);
    await store.posts.ensureStarted();
    const shown = store.posts.state.items.find((post) => post.closed === false)!;
    const before = await store.peeks.get(shown.id, (id) => mine.post(id));
    assert.ok('post' in before && before.post.closed === false);
    const updated = await mine.updatePost(shown.id, { closed: true, responsible_id: 3 });
    assert.deepEqual(store.posts.find(shown.id), updated);
    server.reset();
    const after = await store.peeks.get(shown.id, () => assert.fail('the hover asked the service again'));
    assert.ok('post' in after && after.post.closed === true && after.post.responsible_id === 3);
    assert.equal(server.requests.length, 0);
  });

  it('follows the writes of the account it is bound to, and of no other', async () => {
    const store = new HelpdeskStore(log);
    const mine = accountOn();
    store.bind(mine);
    await store.posts.ensureStarted();
    const other = accountOn();
    // A post filed is shown in the turn after the answer (the person is told first, see Account.filed).
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const elsewhere = await other.createTask({ title: 'Filed for another window', task_kind: 'task' });
    await nextTurn();
    assert.equal(store.posts.find(elsewhere.id), undefined, "another account's write leaves this store alone");
    const task = await mine.createTask({ title: 'Filed here', task_kind: 'task' });
    await nextTurn();
    assert.equal(store.posts.find(task.id)?.title, 'Filed here', 'shown in the next turn');
    const commentsBefore = store.posts.find(task.id)?.comments_cache;
    await mine.addComment(task.id, { title: 'Re: Filed here', content: 'A comment' });
    if (typeof commentsBefore === 'number') assert.equal(store.posts.find(task.id)?.comments_cache, commentsBefore + 1);
    server.store.remove(server.prefix, 'posts', task.id);
    await assert.rejects(mine.post(task.id));
    assert.equal(store.posts.find(task.id), undefined, 'a post found gone leaves the view');
    const dealsChanged: (readonly number[] | undefined)[] = [];
    store.onDidChangeDeals((clientIds) => dealsChanged.push(clientIds));
    const [client, second] = server.store.list(server.prefix, 'clients');
    await other.createDeal({ name: 'Elsewhere', client_id: client!.id });
    assert.deepEqual(dealsChanged, []);
    const deal = await mine.createDeal({ name: 'Here', client_id: client!.id });
    assert.deepEqual(dealsChanged.splice(0), [[client!.id]], "that client's deals are read again");
    await store.dealsOf(client!.id);
    await mine.linkDeal(deal.id, second!.id);
    assert.deepEqual(
      dealsChanged.splice(0),
      [[client!.id, second!.id]],
      'a deal linked elsewhere: the client that listed it, and the one it is under now',
    );
  });

  it('an auto-refresh reads again only the lists a view asked for: none before, then the posts alone', async () => {
    const store = new HelpdeskStore(log);
    store.bind(accountOn());
    await store.refreshStarted();
    assert.deepEqual(
      server.requests.map((r) => r.path),
      [],
      'no view opened: no request',
    );
    await store.posts.ensureStarted();
    server.requests.length = 0;
    await store.refreshStarted();
    assert.ok(
      server.requests.length > 0 && server.requests.every((r) => !r.path.startsWith('/app/clients')),
      server.requests.map((r) => r.path).join(', '),
    );
  });

  it('bound to another account, it starts again and follows the old one no more', async () => {
    const store = new HelpdeskStore(log);
    const first = accountOn();
    store.bind(first);
    await store.posts.ensureStarted();
    const second = accountOn();
    store.bind(second);
    assert.deepEqual(
      [store.posts.state.items, store.posts.state.started, store.statuses],
      [[], false, undefined],
      'what was read before is forgotten',
    );
    const task = await first.createTask({ title: 'Filed with the account before', task_kind: 'task' });
    assert.equal(store.posts.find(task.id), undefined);
    await store.posts.ensureStarted();
    assert.ok(store.posts.find(task.id), 'read from the service');
    store.bind(second);
    assert.ok(store.posts.find(task.id), 'the same account again keeps what was read');
    store.bind(undefined);
    assert.deepEqual(store.posts.state.items, []);
  });
});

describe("the Clients view's order (byName)", () => {
  const names = ['Żaneta', 'Zenon', 'Źródło', 'Ślusarz', 'Sobczak', 'Szymon', 'Łukasz', 'Ludwik', 'Ćma', 'Czajka', 'client 10', 'client 9'];
  const sorted = () =>
    names
      .map((name, id) => ({ id, name }))
      .sort(byName)
      .map((client) => client.name);

  it('in Polish, as a Polish reader sorts: Ć after Cz, Ł after L, Ś after Sz, Ź and Ż after Z; numbers by value', async () => {
    await inLanguage('pl', {}, () =>
      assert.deepEqual(sorted(), [
        'client 9',
        'client 10',
        'Czajka',
        'Ćma',
        'Ludwik',
        'Łukasz',
        'Sobczak',
        'Szymon',
        'Ślusarz',
        'Zenon',
        'Źródło',
        'Żaneta',
      ]),
    );
  });

  it('in English, accents aside', () => {
    assert.deepEqual(sorted().slice(2, 6), ['Ćma', 'Czajka', 'Ludwik', 'Łukasz']);
  });
});
