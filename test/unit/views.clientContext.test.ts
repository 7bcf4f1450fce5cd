import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Account } from '../../src/api/account';
import type { Post } from '../../src/api';
import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { showClientPosts } from '../../src/commands/showClientPosts';
import { Gateway } from '../../src/accounts/gateway';
import type { Identity } from '../../src/accounts/identity';
import { whoIs } from './whoIs';
import { postHovers } from '../../src/editor/postHover';
import { Log } from '../../src/log';
import { SEARCH_RECORDS } from '../../src/search/listSearch';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { PostsTreeProvider } from '../../src/views/postsTree';
import { PostDocumentProvider } from '../../src/views/postDocument';
import { PostNode, type HelpdeskNode } from '../../src/views/nodes';
import { postUri } from '../../src/views/postUri';
import { startStandIn, type StandIn } from '../server';
import { Secrets, Signal } from './fakeSession';
import { CancellationTokenSource, EventEmitter, fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';
import { noNews, windowOn } from './fakeWindow';
import { standInsForSuite } from './support';
import { restoredSession, signedInSecrets } from './fakeSession';

/*
 * The customer context of a post: its document and hover name the client, the contact, the
 * client's other open posts (among the posts read, within the search bound) and its deals. The
 * post shows at once; the client part follows.
 */

const HOSTILE = {
  name: 'Evil [click](command:helpdesk.signOut) <img src=x onerror=alert(1)> **Co**',
  first_name: '[Anna](https://attacker.example)',
  last_name: '`Smith`\u202e',
  email: 'anna@attacker.example',
  phone: '+44 `20` <b>7946</b>',
};

/**
 * Markdown in which server text can only read as written: outside inline code, no character that
 * Markdown reads as syntax is left unescaped, no `](` makes a link, no bidi control reorders it.
 */
function assertText(markdown: string): void {
  const outsideCode = markdown.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
  const lines = outsideCode.split('\n').map((line) => line.replace(/^(#+ |\s*- )/, ''));
  for (const line of lines) assert.ok(!/(?<!\\)[<>[\]*`]/.test(line), `markup left in: ${line}`);
  assert.ok(!markdown.includes(']('), 'a link');
  assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(markdown), 'a bidi control');
}

async function gatewayOn(server: StandIn): Promise<{ gateway: Gateway; store: HelpdeskStore }> {
  fake.config.set('helpdesk.accountUrl', server.url);
  const secrets = new Secrets();
  secrets.data.set(`helpdesk.token:${server.url}`, server.token);
  const session = new Session(secrets, new Log(), new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
  await session.whenRestored();
  const store = new HelpdeskStore(new Log());
  return { gateway: new Gateway(session, new Log(), memoryState(), store), store };
}

function documents(gateway: Gateway, server: StandIn) {
  const provider = new PostDocumentProvider(gateway);
  /** The document's first content, and the one it is given once the client part was read. */
  const read = async (id: number) => {
    const uri = postUri(id, server.url);
    fake.documents.push({ uri, isDirty: false, text: '', save: () => Promise.resolve(true) });
    const changed = new Promise<void>((resolve) => provider.onDidChange((u) => u.toString() === uri.toString() && resolve()));
    const first = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
    await changed;
    const postReads = server.requests.filter((r) => r.path === `/app/posts/${id}.json`).length;
    const then = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
    assert.equal(
      server.requests.filter((r) => r.path === `/app/posts/${id}.json`).length,
      postReads,
      'the client part does not read the post again',
    );
    return { first, then };
  };
  return { provider, read };
}

describe("customer context: a post's client in its document and hover", () => {
  let server: StandIn;
  let gateway: Gateway;
  let store: HelpdeskStore;
  let client: { id: number };
  let post: { id: number };
  let other: { id: number };
  let closed: { id: number };

  before(async () => {
    server = await startStandIn({ seed: 'demo' });
    client = server.store.insert(server.prefix, 'clients', HOSTILE);
    post = server.store.insert(server.prefix, 'posts', { title: 'The export fails', task_kind: 'email', client_id: client.id });
    other = server.store.insert(server.prefix, 'posts', {
      title: 'Invoice <b>wrong</b> [x](command:helpdesk.signOut)',
      task_kind: 'help',
      client_id: client.id,
    });
    closed = server.store.insert(server.prefix, 'posts', {
      title: 'Closed question',
      task_kind: 'help',
      client_id: client.id,
      closed: true,
    });
    server.store.insert(server.prefix, 'posts', {
      post_id: other.id,
      task_kind: 'comment',
      content: 'A comment is not a post of its own',
      client_id: client.id,
    });
    server.store.insert(server.prefix, 'deals', { name: 'Support plan `gold`', price: 1200, client_id: client.id });
    server.store.insert(server.prefix, 'deals', { name: 'Training [day](https://attacker.example)', price: 300, client_id: client.id });
  });
  after(() => server.close());
  beforeEach(async () => {
    server.reset();
    fake.reset();
    ({ gateway, store } = await gatewayOn(server));
  });
  afterEach(() => gateway.dispose());

  it('the document shows the post at once, then the client: contact, other open posts and deals, counted and listed', async () => {
    const { provider, read } = documents(gateway, server);
    const { first, then } = await read(post.id);
    assert.match(first, /^# The export fails/);
    assert.match(first, /## Client/);
    assert.match(first, /reading…/, 'the first paint says the rest is coming');
    assert.doesNotMatch(first, /Other open posts:/);
    assert.match(then, /- Other open posts: 1 other open post\n/, 'every post was read: no "among"');
    assert.match(then, new RegExp(`  - #${other.id} Invoice`));
    assert.ok(!then.includes(`#${closed.id} `), 'a closed post is not open');
    assert.ok(
      !then.includes(`#${post.id} The export`) || then.indexOf(`#${post.id}`) < then.indexOf('## Client'),
      'the post itself is not another post',
    );
    assert.match(then, /- Deals: 2 deals\n/);
    assert.match(then, / {2}- #\d+ Support plan \\`gold\\` · 1200/);
    assert.match(then, /- Contact: .*`anna@attacker\.example`/);
    assert.doesNotMatch(then, /reading…/);
    provider.dispose();
  });

  it('hostile client fields stay text: no link, no markup, no command in the document', async () => {
    const { provider, read } = documents(gateway, server);
    const { then } = await read(post.id);
    const section = then.slice(then.indexOf('## Client'));
    assertText(section);
    assert.match(
      section,
      // A word a preview could link (here helpdesk.signOut, a host name by its shape) is inline code.
      /- Name: Evil \\\[click\\\] `\(command:helpdesk\.signOut\)` \\<img src=x onerror=alert\(1\)\\> \\\*\\\*Co\\\*\\\* \(#\d+\)/,
    );
    // Each contact part is inline code, which no preview links or renders, with a fence longer than its backticks.
    assert.ok(
      section.includes('- Contact: `` [Anna] (https://attacker.example) `Smith` `` · `anna@attacker.example` · ``+44 `20` <b>7946</b>``\n'),
      section,
    );
    provider.dispose();
  });

  it('the hover names the client with what is known, reads nothing for it, and keeps every field text', async () => {
    const hovers = postHovers(gateway);
    const before = (await hovers.describe(post.id)).value;
    assert.match(before, new RegExp(`Client&#58; client #${client.id}`), 'clients not loaded: by number');
    assert.doesNotMatch(before, /other open post|deal/, 'nothing counted that was not read');
    assert.ok(
      !server.requests.some((r) => r.path.startsWith('/app/clients') || r.path.startsWith('/app/deals')),
      'the hover read nothing for the client',
    );

    // What the views read since: the clients, every post, the client's deals.
    await store.clients.ensureStarted();
    while (store.clients.state.hasMore) await store.clients.loadMore();
    await store.posts.ensureStarted();
    while (store.posts.state.hasMore) await store.posts.loadMore();
    await store.dealsOf(client.id);
    store.peeks.clear();
    const md = await hovers.describe(post.id);
    const text = md.value;
    assert.match(text, /Client&#58; Evil/);
    assert.match(text, /1 other open post · 2 deals/);
    assert.match(text, /anna&#64;attacker&#46;example/, 'an e-mail address is no link');
    const line = text.split('\n').find((l) => l.startsWith('Client&#58;'))!;
    assertText(line);
    assert.ok(!/https:|command:|anna@/.test(line), `a link a renderer could make: ${line}`);
    store.invalidateDeals();
    store.peeks.clear();
    assert.doesNotMatch(
      (await hovers.describe(post.id)).value,
      /deal/,
      'deals changed since (a deal linked or created): not claimed until read again',
    );
    assert.deepEqual(
      md.isTrusted,
      {
        enabledCommands: [
          'helpdesk.openPost',
          'helpdesk.commentOnTask',
          'helpdesk.openInBrowser',
          'helpdesk.goToCode',
          'helpdesk.startWork',
          'helpdesk.closePost',
          'helpdesk.reopenPost',
          'helpdesk.assignToMe',
        ],
      },
      'no more commands than the hover has without the client part',
    );
  });

  it('a document closed and opened again after its client part came is read afresh, not the post held for it', async () => {
    const { provider, read } = documents(gateway, server);
    await read(post.id);
    const { first } = await read(post.id);
    assert.match(first, /^# The export fails/);
    // The client part comes again (fired), but the document is closed before VS Code asks for it.
    const uri = postUri(post.id, server.url);
    const changed = new Promise<void>((resolve) => provider.onDidChange(() => resolve()));
    await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
    await changed;
    fake.documents.length = 0;
    server.store.update(server.prefix, 'posts', post.id, { title: 'Renamed in the web app' });
    try {
      const again = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
      assert.match(again, /^# Renamed in the web app/);
    } finally {
      server.store.update(server.prefix, 'posts', post.id, { title: 'The export fails' });
    }
    provider.dispose();
  });

  it('a post of no client has no client part, and its document is read once', async () => {
    const lone = server.store.insert(server.prefix, 'posts', { title: 'No client here', task_kind: 'task' });
    const { provider } = documents(gateway, server);
    let changes = 0;
    provider.onDidChange(() => void changes++);
    const text = await provider.provideTextDocumentContent(postUri(lone.id, server.url), new CancellationTokenSource().token as never);
    assert.doesNotMatch(text, /## Client/);
    await store.posts.ensureStarted();
    assert.equal(changes, 0);
    provider.dispose();
  });
});

describe('customer context and two accounts', () => {
  let a: StandIn;
  let b: StandIn;
  standInsForSuite(([x, y]) => ([a, b] = [x!, y!]), { seed: 'demo' }, { seed: 'demo' });

  it('the window switching accounts while the client part is read: the document is read again without it, nothing read from the other account', async () => {
    fake.reset();
    fake.config.set('helpdesk.accountUrl', a.url);
    const session = await restoredSession(signedInSecrets(a, b));
    const gateway = new Gateway(session, new Log(), memoryState(), new HelpdeskStore(new Log()));
    const provider = new PostDocumentProvider(gateway);
    const post = a.store.list(a.prefix, 'posts').find((p) => typeof p.client_id === 'number' && p.post_id === null)!;
    // The client's deals are held until the window uses the other account.
    const onA = gateway.current!.account;
    const dealsOf = onA.dealsOf.bind(onA);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    onA.dealsOf = async (clientId: number) => {
      await held;
      return dealsOf(clientId);
    };
    const uri = postUri(post.id, a.url);
    fake.documents.push({ uri, isDirty: false, text: '', save: () => Promise.resolve(true) });
    const changed = new Promise<void>((resolve) => provider.onDidChange(() => resolve()));
    const first = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
    assert.match(first, /## Client/);
    await session.switchTo(b.url);
    assert.equal(gateway.current?.url, b.url);
    b.reset();
    release();
    await changed;
    const then = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token as never);
    assert.match(then, /^# /, 'the post shows, read with its own account');
    assert.doesNotMatch(then, /## Client|could not be read/, "no client part from a store that is another account's now");
    assert.deepEqual(
      b.requests.map((r) => r.path),
      [],
      'nothing read from the other account for it',
    );
    provider.dispose();
    gateway.dispose();
  });
});

describe('customer context within the search bound', () => {
  let server: StandIn;
  let gateway: Gateway;

  before(async () => {
    server = await startStandIn({ seed: { posts: SEARCH_RECORDS + 300, clients: 3 } });
  });
  after(() => server.close());
  beforeEach(async () => {
    server.reset();
    fake.reset();
    fake.config.set('helpdesk.pageSize', 100);
    ({ gateway } = await gatewayOn(server));
  });
  afterEach(() => gateway.dispose());

  it('a client with posts beyond the bound: counted "among the N newest posts", never the total', async () => {
    const all = server.store.list(server.prefix, 'posts').sort((a, b) => b.id - a.id);
    const newest = all.find((p) => typeof p.client_id === 'number')!;
    const clientId = newest.client_id!;
    const open = (posts: typeof all) => posts.filter((p) => p.client_id === clientId && p.id !== newest.id && p.closed !== true).length;
    const withinBound = open(all.slice(0, SEARCH_RECORDS));
    assert.ok(open(all) > withinBound, 'the client has open posts past the bound');

    const { provider, read } = documents(gateway, server);
    const { then } = await read(newest.id);
    const line = then.split('\n').find((l) => l.startsWith('- Other open posts:'));
    assert.equal(line, `- Other open posts: ${withinBound} other open posts among the ${SEARCH_RECORDS} newest posts`);
    const pages = server.requests.filter((r) => r.path === '/app.json').map((r) => Number(r.query.page));
    assert.ok(Math.max(...pages) <= SEARCH_RECORDS / 100, `read past the bound: pages ${pages.join()}`);
    assert.ok(then.includes(`  - and ${withinBound - 50} more`), 'the list is bounded too, and says how many more');

    // The hover counts among what the views' list holds, and says so too.
    const hovers = postHovers(gateway);
    assert.match(
      (await hovers.describe(newest.id)).value,
      new RegExp(`${withinBound} other open posts among the ${SEARCH_RECORDS} newest posts`),
    );
    provider.dispose();
  });
});

describe('Show Posts of This Client', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    contributes: { menus: Record<string, { command: string; when?: string }[]> };
  };

  it('is on the context menu of the rows of posts of a client, and only there', () => {
    const entry = manifest.contributes.menus['view/item/context']!.find(
      (m) => m.command === 'helpdesk.showClientPosts' && m.when?.includes('helpdesk.posts'),
    )!;
    // Our own manifest's pattern, not server text.
    const pattern = new RegExp(/viewItem =~ \/(.*)\/$/.exec(entry.when!)![1]!);
    const shows = (node: PostNode) => pattern.test(node.contextValue);
    assert.ok(shows(new PostNode({ id: 1, client_id: 4 })));
    assert.ok(shows(new PostNode({ id: 1, client_id: 4, closed: true })));
    assert.ok(shows(new PostNode({ id: 1, client_id: 4 }, undefined, 0, { changes: ['new'], seen: false })));
    assert.ok(!shows(new PostNode({ id: 1 })));
    assert.ok(!shows(new PostNode({ id: 1, client_id: null, closed: true }, undefined, 0, { changes: ['new'], seen: true })));
    assert.ok(!shows(new PostNode({ id: 2, post_id: 1, client_id: 4 })), "a comment's row");
  });
});

describe('Show Posts of This Client: the Helpdesk view filtered by client', () => {
  // The posts view against a store whose service lists 300 posts newest first; client 7 has every 30th.
  function rig() {
    const data: Post[] = Array.from({ length: 300 }, (_, i) => ({
      id: 300 - i,
      title: `P${300 - i}`,
      client_id: (300 - i) % 30 === 0 ? 7 : 8,
    }));
    const asked: number[] = [];
    const account = {
      url: 'https://a.example',
      postsPage: async (page: number, perPage: number) => {
        asked.push(page);
        const items = data.slice((page - 1) * perPage, page * perPage);
        return { items, received: items.length };
      },
      clientsPage: async () => ({ items: [{ id: 7, name: 'Acme <b>Ltd</b>' }], received: 1 }),
      statuses: async () => new Map<number, string>(),
      noteStop: () => undefined,
      onDidChange: () => ({ dispose: () => undefined }),
    } as unknown as Account;
    const store = new HelpdeskStore({ error: () => undefined });
    store.bind(account);
    const { window: accountNow } = windowOn(account, store);
    const view = {
      onDidExpandElement: new EventEmitter().event,
      onDidCollapseElement: new EventEmitter().event,
      description: undefined as string | undefined,
    };
    const identity = {
      me: () => undefined,
      whoIAm: () => whoIs(undefined),
      onDidChange: () => ({ dispose: () => undefined }),
    } as unknown as Identity;
    const provider = new PostsTreeProvider(store, accountNow, identity, noNews());
    provider.showIn(view as never);
    return { store, provider, view, asked };
  }
  const rowIds = (nodes: HelpdeskNode[]) => nodes.filter((n): n is PostNode => n instanceof PostNode).map((n) => n.post.id);

  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.pageSize', 100);
  });

  it("shows the client's posts only, loading pages until the screen is full, and names the client in the title", async () => {
    const r = rig();
    await r.store.clients.ensureStarted();
    const row = (await r.provider.getChildren()).find((n): n is PostNode => n instanceof PostNode && n.post.id === 300);
    assert.ok(row, 'a row of client 7');
    await showClientPosts(r.provider, r.store, row);
    await r.provider.whenFilled();
    const ids = rowIds(await r.provider.getChildren());
    assert.deepEqual(ids, [300, 270, 240, 210, 180, 150, 120, 90, 60, 30], 'every post of the client, read to the end of the list');
    assert.deepEqual(r.asked, [1, 2, 3, 4], 'to the end of the list (an empty page), and no further');
    assert.equal(r.view.description, 'client Acme <b>Ltd</b> (#7)', 'server text as written in the title (plain text there)');

    await showClientPosts(r.provider, r.store, new PostNode({ id: 299, client_id: 8 }));
    assert.match(r.view.description ?? '', /client #8/, 'a client not loaded: by number');
    assert.ok(rowIds(await r.provider.getChildren()).every((id) => id % 30 !== 0));

    r.provider.setFilter({});
    assert.equal(r.view.description, undefined, 'Clear Filter shows every post again');
    assert.equal(rowIds(await r.provider.getChildren()).length > 20, true);
  });

  it('a row of no client changes nothing', async () => {
    const r = rig();
    await r.provider.getChildren();
    await showClientPosts(r.provider, r.store, new PostNode({ id: 5 }));
    assert.deepEqual(r.provider.currentFilter, {});
  });
});
