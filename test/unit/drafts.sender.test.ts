import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { HelpdeskClient, type Post } from '../../src/api';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { carriesDraftRef } from '../../src/drafts/draftRef';
import { DraftStore, type Draft } from '../../src/drafts/drafts';
import { DraftSender } from '../../src/drafts/sendDraft';
import { Account, type Connection } from '../../src/gateway/account';
import type { Gateway } from '../../src/gateway/gateway';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { startStandIn, type StandIn } from '../server';
import { fake, type Memento } from './fakeVscode';

/* DraftSender with the real account, store and notifier against the stand-in; the editor's part
 * (documents, notifications) is test/unit/fakeVscode.ts. */

class MemoryState implements Memento {
  private readonly data = new Map<string, unknown>();
  keys = () => [...this.data.keys()];
  get = <T>(key: string, fallback?: T) => (this.data.has(key) ? structuredClone(this.data.get(key) as T) : fallback);
  update = (key: string, value: unknown) => {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, structuredClone(value));
    return Promise.resolve();
  };
}

interface Rig {
  sender: DraftSender;
  drafts: DraftStore;
  /** What the posts view holds, as the sender reads it for the baseline. */
  view: { items: Post[]; sortedByService: boolean };
  signIn(url?: string): void;
  signOut(): void;
}

function rig(server: StandIn, state: Memento = new MemoryState()): Rig {
  let account: Account | undefined;
  const view = { items: [] as Post[], sortedByService: true };
  const gateway = { get account() { return account; }, store: { posts: { get state() { return view; } } } } as unknown as Gateway;
  const log = new Log();
  const drafts = new DraftStore(state as never);
  const api = new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
  const connection: Connection = { api: () => api, signal: new AbortController().signal, noteOutcome: () => undefined, store: () => undefined, noteOnce: () => undefined };
  return {
    sender: new DraftSender(gateway, drafts, new Notifier(log), log),
    drafts,
    view,
    signIn: (url = server.url) => void (account = new Account(url, connection)),
    signOut: () => void (account = undefined),
  };
}

const posts = (server: StandIn) => server.requests.filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
const messages = () => fake.messages.map((m) => m.text).join('\n');

describe('DraftSender', () => {
  let server: StandIn;
  let r: Rig;
  const task = (title: string, content = 'Typed with care'): Promise<Draft> =>
    r.drafts.create({ kind: 'task', text: formatDraftDocument(title, content), accountUrl: server.url });

  before(async () => {
    server = await startStandIn({ seed: 'demo' });
  });
  after(() => server.close());
  beforeEach(() => {
    server.reset();
    fake.reset();
    r = rig(server);
    r.signIn();
  });

  it('files the draft once, with the marker it saved first, and then forgets the draft', async () => {
    const draft = await task('Once');
    const sending = r.sender.send(draft.id);
    const post = await sending;
    assert.ok(post, 'sent');
    assert.equal(posts(server).length, 1);
    const content = (posts(server)[0]!.body as { post: { content: string } }).post.content;
    assert.match(content, /^Typed with care\n\nSent from VS Code · hb-[0-9a-z]{10}$/);
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft is gone');
    assert.match(messages(), new RegExp(`Task #${post.id} created`));
  });

  it('two sends of one draft at once make one request, and both get its post', async () => {
    const draft = await task('Pressed twice');
    server.addFault({ method: 'POST', path: '/app/posts.json', latencyMs: 200, times: 1 });
    const [a, b] = await Promise.all([r.sender.send(draft.id), r.sender.send(draft.id)]);
    assert.equal(posts(server).length, 1);
    assert.equal(a?.id, b?.id);
  });

  it('an answer lost: the draft is kept with its marker, and the next send finds that very post instead of filing it again', async () => {
    const draft = await task('Lost answer');
    server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
    assert.equal(await r.sender.send(draft.id), undefined);
    const kept = r.drafts.get(draft.id);
    assert.ok(kept?.unconfirmed?.ref, 'kept, with the marker the attempt carried');
    const filed = server.store.list(server.prefix, 'posts').filter((p) => carriesDraftRef(p.content, kept.unconfirmed!.ref!));
    assert.equal(filed.length, 1, 'the service has it');

    const found = await r.sender.send(draft.id);
    assert.equal(found?.id, filed[0]!.id);
    assert.equal(posts(server).length, 1, 'not sent again');
    assert.equal(r.drafts.get(draft.id), undefined);
    assert.match(messages(), /was on the helpdesk already/);
  });

  it('text typed into the draft while it was on its way is kept, not closed with the sent draft', async () => {
    const draft = await task('Typed on');
    server.addFault({ method: 'POST', path: '/app/posts.json', latencyMs: 300, times: 1 });
    const sending = r.sender.send(draft.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await r.drafts.update(draft.id, formatDraftDocument('Typed on', 'Typed with care, and more'));
    const post = await sending;
    assert.ok(post, 'the text it had when sent was filed');
    assert.equal(posts(server).length, 1);
    const kept = r.drafts.get(draft.id);
    assert.match(kept?.text ?? '', /and more/, 'what was typed since is kept');
    assert.equal(kept?.unconfirmed, undefined, 'no longer waiting on that attempt');
    assert.match(messages(), /You edited the draft since/);
  });

  it('a refusal (422) means not stored: the next send sends at once, without a search', async () => {
    const draft = await task('Refused first');
    server.addFault({ method: 'POST', path: '/app/posts.json', status: 422, body: { code: 'error', message: { title: ['is too short'] } }, times: 1 });
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(r.drafts.get(draft.id)?.unconfirmed, undefined, 'known not to be stored');
    server.reset();
    assert.ok(await r.sender.send(draft.id));
    assert.deepEqual(server.requests.map((q) => `${q.method} ${q.path}`), ['POST /app/posts.json'], 'no search first');
  });

  it('a 200 whose body is the service\'s error may be stored all the same: kept with its marker, the service\'s words shown', async () => {
    const draft = await task('Error in a 200');
    server.addFault({ method: 'POST', path: '/app/posts.json', body: { code: 'error', message: 'Title is too long' }, times: 1 });
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.ok(r.drafts.get(draft.id)?.unconfirmed?.ref, 'the next send looks first');
    assert.match(messages(), /Title is too long/);
  });

  it('a draft for another account is not sent, and kept', async () => {
    const draft = await task('For the other account');
    r.signIn('https://other.example.com');
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(posts(server).length, 0);
    assert.ok(r.drafts.get(draft.id));
    assert.match(messages(), /This draft is for .*, and you are signed in to https:\/\/other\.example\.com/);
  });

  it('signed out: not sent, kept, and Sign In offered', async () => {
    const draft = await task('Signed out');
    r.signOut();
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(server.requests.length, 0);
    assert.ok(r.drafts.get(draft.id));
    assert.ok(fake.messages.some((m) => /You are signed out/.test(m.text) && m.buttons.includes('Sign In…')));
  });

  it('the newest id of the view is a baseline only where the service sent it newest first', async () => {
    r.view.items = [{ id: 40 } as Post, { id: 7 } as Post];
    for (const sortedByService of [true, false]) {
      r.view.sortedByService = sortedByService;
      const draft = await task(`Baseline ${sortedByService}`);
      // No answer: it may be stored, so the mark stays.
      server.addFault({ method: 'POST', path: '/app/posts.json', drop: true, times: 1 });
      await r.sender.send(draft.id);
      assert.equal(r.drafts.get(draft.id)?.unconfirmed?.newestPostId, sortedByService ? 40 : undefined);
    }
  });

  it('an empty title is not sent; the person is told why', async () => {
    const draft = await r.drafts.create({ kind: 'task', text: '\n\nOnly a body\n', accountUrl: server.url });
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(server.requests.length, 0);
    assert.match(messages(), /The first line, the title, is empty/);
  });

  it('a draft sent or discarded meanwhile (in another window) is not sent', async () => {
    const draft = await task('Gone');
    await r.drafts.remove(draft.id);
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(server.requests.length, 0);
  });
});

describe('DraftSender: a comment whose answer was lost', () => {
  it('where comments are listed, the marker finds it even after a colleague deleted another comment', async () => {
    const server = await startStandIn({ seed: 'demo', profile: 'contrary' });
    try {
      fake.reset();
      const r = rig(server);
      r.signIn();
      const parent = server.store.list(server.prefix, 'posts').find((p) => !p.post_id && p.task_kind !== 'comment')!;
      const api = new HelpdeskClient({ accountUrl: server.url, token: server.token });
      const other = await api.posts.addComment(parent.id, { title: 'Re: colleague', content: 'Soon deleted' });
      const before = (await api.posts.get(parent.id)).comments_cache as number;
      const draft = await r.drafts.create({ kind: 'comment', text: 'Re: it\n\nSaid once\n', titled: true, postId: parent.id, parentComments: before, accountUrl: server.url });
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await r.sender.send(draft.id), undefined);
      server.store.remove(server.prefix, 'posts', other.id);
      server.reset();
      const found = await r.sender.send(draft.id);
      assert.ok(found, 'found, not sent again');
      assert.equal(server.requests.filter((q) => q.method === 'POST').length, 0);
    } finally {
      await server.close();
    }
  });
});

describe('DraftSender: two windows', () => {
  it('a draft one window is sending is not sent by another (both offered it after a reload)', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      fake.reset();
      const shared = new MemoryState();
      const one = rig(server, shared);
      const other = rig(server, shared);
      one.signIn();
      other.signIn();
      const draft = await one.drafts.create({ kind: 'task', text: formatDraftDocument('From two windows', 'Once'), accountUrl: server.url });
      server.addFault({ method: 'POST', path: '/app/posts.json', latencyMs: 300, times: 1 });
      const first = one.sender.send(draft.id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await other.sender.send(draft.id), undefined, 'the other window leaves it');
      assert.ok(await first);
      assert.equal(posts(server).length, 1, 'filed once');
      assert.match(messages(), /being sent from another window/);
    } finally {
      await server.close();
    }
  });
});
