import assert from 'node:assert/strict';
import { beforeEach, describe, it, mock } from 'node:test';
import { HelpdeskClient } from '../../src/api';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { carriesDraftRef } from '../../src/drafts/draftRef';
import type { Draft } from '../../src/drafts/drafts';
import { PROFILES, startStandIn, type StandIn } from '../server';
import { PROGRESS_AFTER_MS } from '../../src/ui/progress';
import { limitMs } from '../limits';
import { fake } from './fakeVscode';
import { MemoryFolder, memoryState } from './memoryState';
import { rig, type Rig } from './senderRig';
import { standInsForSuite } from './support';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Log } from '../../src/log';

/* DraftSender with the real account, store and notifier against the stand-in (see senderRig.ts). */

const posts = (server: StandIn) => server.requests.filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
const messages = () => fake.messages.map((m) => m.text).join('\n');
/** Resolves once `done` holds (it is asked every few milliseconds). */
/** A state whose writes that `holds` picks wait until released (`held`, in order); the rest go through. */
function stateHolding(holds: (key: string, value: unknown) => boolean) {
  const state = memoryState();
  const update = state.update.bind(state);
  const held: (() => void)[] = [];
  state.update = (key: string, value: unknown) =>
    holds(key, value) ? new Promise<void>((resolve) => held.push(() => void update(key, value).then(resolve))) : update(key, value);
  return { state, held };
}

/** Remembering the post for later searches, the first write after the service's answer. */
const rememberingPost = (key: string) => key.startsWith('helpdesk.listKnowledge:');

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('DraftSender', () => {
  let server: StandIn;
  let r: Rig;
  const task = (title: string, content = 'Typed with care'): Promise<Draft> =>
    r.drafts.create({ kind: 'task', text: formatDraftDocument(title, content), accountUrl: server.url });

  standInsForSuite(([started]) => (server = started!));
  beforeEach(() => {
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
    assert.match(content, /^Sent from VS Code · hb-[0-9a-z]{10}\n\nTyped with care$/);
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft is gone');
    assert.match(messages(), new RegExp(`Task #${post.id} created`));
  });

  it('a post filed is filed, even where remembering it for later searches fails', async () => {
    const state = memoryState();
    const update = state.update.bind(state);
    state.update = (key: string, value: unknown) =>
      key.startsWith('helpdesk.listKnowledge:') ? Promise.reject(new Error('storage full')) : update(key, value);
    r = rig(server, state);
    r.signIn();
    const draft = await task('Remembered or not');
    const post = await r.sender.send(draft.id);
    assert.ok(post, 'reported as filed');
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft is gone');
    assert.doesNotMatch(messages(), /Not sent/);
    assert.equal(posts(server).length, 1);
  });

  it('says the post is filed the moment the service confirms it, before the draft is removed and the post remembered', async () => {
    // The bookkeeping after the answer: remembering the post for later searches, removing the draft.
    const { state, held } = stateHolding(rememberingPost);
    // Removing the draft's file waits too.
    const drafts = new MemoryFolder();
    const remove = drafts.remove.bind(drafts);
    drafts.remove = (name: string) =>
      name.endsWith('.json') ? new Promise<void>((resolve) => held.push(() => void remove(name).then(resolve))) : remove(name);
    r = rig(server, state, new MemoryFolder(), drafts);
    r.signIn();
    const draft = await task('Told at once');
    const sending = r.sender.send(draft.id);
    const deadline = Date.now() + 2000;
    await until(() => /Task #\d+ created/.test(messages()) || Date.now() > deadline);
    assert.match(messages(), /Task #\d+ created/, 'told while the bookkeeping is still being written');
    assert.ok(held.length > 0, 'the bookkeeping had started');
    let settled = false;
    void sending.finally(() => (settled = true));
    while (!settled) {
      for (const release of held.splice(0)) release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const post = await sending;
    assert.ok(post, 'the send resolves with the post once all is written');
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft is gone');
    assert.equal(posts(server).length, 1);
  });

  it('says the post is filed before the views follow it and before it is remembered for later searches; every view shows it after', async () => {
    // What runs after the answer only to keep views and later searches up to date waits for the announcement.
    const told = () => /Task #\d+ created/.test(messages());
    const order: string[] = [];
    const state = memoryState();
    const update = state.update.bind(state);
    state.update = (key: string, value: unknown) => {
      if (rememberingPost(key)) order.push(`remembered, told: ${told()}`);
      return update(key, value);
    };
    r = rig(server, state);
    r.signIn();
    const store = new HelpdeskStore(new Log());
    store.bind(r.account());
    r.account()!.onDidChange((change) => void (change.kind === 'filed' && order.push(`view followed, told: ${told()}`)));
    const draft = await task('Told before the views');
    const post = await r.sender.send(draft.id);
    assert.ok(post, 'filed');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order.sort(), ['remembered, told: true', 'view followed, told: true']);
    assert.equal(store.posts.find(post.id)?.id, post.id, 'the Helpdesk view has the new post');
    assert.equal(posts(server).length, 1);
  });

  it("says the post is filed once the service's answer is in, before the draft's file is read again for edits made meanwhile; and once", async () => {
    // Every read of the drafts' folder after the POST went out waits until released.
    const drafts = new MemoryFolder();
    const read = drafts.read.bind(drafts);
    const held: (() => void)[] = [];
    drafts.read = (name: string) =>
      posts(server).length > 0 ? new Promise((resolve) => held.push(() => void read(name).then(resolve))) : read(name);
    r = rig(server, memoryState(), new MemoryFolder(), drafts);
    r.signIn();
    const draft = await task('Told before the read');
    const sending = r.sender.send(draft.id);
    const created = () => fake.messages.filter((m) => /Task #\d+ created/.test(m.text)).length;
    const deadline = Date.now() + limitMs('condition');
    await until(() => created() > 0 || Date.now() > deadline);
    assert.equal(created(), 1, `told with the draft's file not read yet (${held.length} reads waiting)`);
    let settled = false;
    void sending.finally(() => (settled = true));
    while (!settled) {
      for (const release of held.splice(0)) release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.ok(await sending, 'filed');
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft is gone');
    assert.equal(created(), 1, 'told once');
  });

  it('a draft saved into after the service answered, while the post is being remembered, is kept with that text, not removed', async () => {
    const { state, held } = stateHolding(rememberingPost);
    r = rig(server, state);
    r.signIn();
    const draft = await task('Title', 'first');
    const sending = r.sender.send(draft.id);
    await until(() => held.length > 0);
    let resolved = false;
    void sending.then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(resolved, false, 'the send resolves only once the post is remembered');
    // The person saves more into the draft (its editor's save, or another window) meanwhile.
    await r.drafts.update(draft.id, formatDraftDocument('Title', 'first, and a second thought'));
    for (const release of held.splice(0)) release();
    assert.ok(await sending, 'filed');
    assert.equal(r.drafts.get(draft.id)?.text, formatDraftDocument('Title', 'first, and a second thought'), 'the edit is kept');
    assert.equal(r.drafts.get(draft.id)?.unconfirmed, undefined, 'as a draft that waits on no attempt');
    assert.match(
      messages(),
      /was filed with the text the draft had when you sent it\. You edited the draft since, so it is kept and not sent\./,
    );
  });

  it('a draft edited while its post was on the way and put back before it was removed is removed, and the person told it was filed', async () => {
    const { state, held } = stateHolding(rememberingPost);
    r = rig(server, state);
    r.signIn();
    const draft = await task('Put back', 'as sent');
    server.addFault({ method: 'POST', path: '/app/posts.json', latencyMs: 150, times: 1 });
    const sending = r.sender.send(draft.id);
    await until(() => posts(server).length > 0);
    await r.drafts.update(draft.id, formatDraftDocument('Put back', 'a second thought'));
    await until(() => held.length > 0);
    await r.drafts.update(draft.id, draft.text);
    for (const release of held.splice(0)) release();
    const post = await sending;
    assert.ok(post, 'filed');
    assert.equal(r.drafts.get(draft.id), undefined, 'the draft holds what was sent: removed');
    assert.equal(fake.messages.filter((m) => m.text.includes(`Task #${post.id} created`)).length, 1, 'and the person is told, once');
  });

  it("a draft made claimed and gone before its send (sent or discarded elsewhere) leaves no claim in the window's file", async () => {
    const draft = await r.drafts.create(
      { kind: 'task', text: formatDraftDocument('Gone at once', 'x'), accountUrl: server.url },
      { claimed: true },
    );
    await r.drafts.remove(draft.id);
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(r.drafts.presence.isSending(draft.id), false, 'no longer said to be sending it');
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

  it('a send answered within PROGRESS_AFTER_MS paints no progress notification; one still under way then shows it, with Cancel', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const draft = await task('Quick');
      server.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 1 });
      const sending = r.sender.send(draft.id);
      // The clock stands still: the POST goes out and waits, held by the stand-in.
      const deadline = performance.now() + limitMs('condition');
      while (posts(server).length === 0 && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(posts(server).length, 1, 'the POST went out');
      mock.timers.tick(PROGRESS_AFTER_MS - 1);
      assert.deepEqual(fake.progress, [], 'nothing painted while the answer may still come at once');
      mock.timers.tick(1);
      assert.deepEqual(fake.progress, ['Creating the task…']);
      server.release();
      assert.ok(await sending, 'filed');
      assert.deepEqual(fake.progress, ['Creating the task…'], 'shown once');
    } finally {
      mock.timers.reset();
    }
  });

  it('Cancel while the post is on its way: kept with its marker, told how to send it again (no error), and the post that arrived all the same is found', async () => {
    const draft = await task('Cancelled');
    // Held until after the Cancel, however long the progress notification takes to show.
    server.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 1 });
    fake.cancelProgress.push({ title: 'Creating the task…', when: until(() => posts(server).length === 1) });
    assert.equal(await r.sender.send(draft.id), undefined);
    server.release();
    const ref = r.drafts.get(draft.id)?.unconfirmed?.ref;
    assert.ok(ref, 'the next send looks first');
    assert.ok(
      fake.messages.some((m) => m.level === 'info' && /^Not sent\. The draft is kept: run the command again/.test(m.text)),
      messages(),
    );
    assert.ok(!fake.messages.some((m) => m.level === 'error'), messages());

    await until(() => server.store.list(server.prefix, 'posts').some((p) => carriesDraftRef(p.content, ref)));
    assert.ok(await r.sender.send(draft.id), 'found');
    assert.equal(posts(server).length, 1, 'not sent again');
    assert.equal(r.drafts.get(draft.id), undefined);
  });

  it('a refusal (422) means not stored: the next send sends at once, without a search', async () => {
    const draft = await task('Refused first');
    server.addFault({
      method: 'POST',
      path: '/app/posts.json',
      status: 422,
      body: { code: 'error', message: { title: ['is too short'] } },
      times: 1,
    });
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(r.drafts.get(draft.id)?.unconfirmed, undefined, 'known not to be stored');
    server.reset();
    assert.ok(await r.sender.send(draft.id));
    assert.deepEqual(
      server.requests.map((q) => `${q.method} ${q.path}`),
      ['POST /app/posts.json'],
      'no search first',
    );
  });

  it("a 200 whose body is the service's error may be stored all the same: kept with its marker, the service's words shown", async () => {
    const draft = await task('Error in a 200');
    server.addFault({ method: 'POST', path: '/app/posts.json', body: { code: 'error', message: 'Title is too long' }, times: 1 });
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.ok(r.drafts.get(draft.id)?.unconfirmed?.ref, 'the next send looks first');
    assert.match(messages(), /Title is too long/);
  });

  it('a draft for an account this window does not use waits, kept, and says for which account, while that account is not signed in to', async () => {
    const draft = await task('For the other account');
    r.signIn('https://other.example.com');
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(posts(server).length, 0);
    assert.ok(r.drafts.get(draft.id));
    assert.match(messages(), new RegExp(`This draft is for ${server.url.replace(/[.:/]/g, '\\$&')}, which you are not signed in to`));
  });

  it('a draft for another account signed in to is sent with that account, and says where it went', async () => {
    const draft = await task('For the other account, signed in');
    r.signIn('https://other.example.com');
    r.signInElsewhere();
    const post = await r.sender.send(draft.id);
    assert.ok(post);
    assert.equal(posts(server).length, 1);
    assert.equal(r.drafts.get(draft.id), undefined);
    assert.match(messages(), new RegExp(server.url.replace(/[.:/]/g, '\\$&')));
  });

  it('signed out: not sent, kept, and Sign In offered', async () => {
    const draft = await task('Signed out');
    r.signOut();
    assert.equal(await r.sender.send(draft.id), undefined);
    assert.equal(server.requests.length, 0);
    assert.ok(r.drafts.get(draft.id));
    assert.ok(fake.messages.some((m) => /You are signed out/.test(m.text) && m.buttons.includes('Sign In…')));
  });

  it('the baseline is the newest post the account saw heading its list sent newest first; none before it read one, or where the service ignored the order', async () => {
    for (const profile of ['likely', 'contrary'] as const) {
      const other = await startStandIn({ seed: 'demo', profile });
      try {
        const here = rig(other);
        here.signIn();
        const baselineOf = async (title: string) => {
          const draft = await here.drafts.create({ kind: 'task', text: formatDraftDocument(title, 'x'), accountUrl: other.url });
          // No answer: it may be stored, so the mark stays, with its baseline.
          other.addFault({ method: 'POST', path: '/app/posts.json', drop: true, times: 1 });
          await here.sender.send(draft.id);
          return here.drafts.get(draft.id)?.unconfirmed?.newestPostId;
        };
        assert.equal(await baselineOf('Before any list was read'), undefined, `${profile}: nothing read, no baseline`);
        const page = await here.account()!.postsPage(1, 20);
        const newest = Math.max(...page.items.map((post) => post.id));
        assert.equal(await baselineOf('After the first page'), profile === 'likely' ? newest : undefined, profile);
        assert.equal(
          await here
            .account()!
            .postsPage(2, 20)
            .then(() => baselineOf('After a later page')),
          profile === 'likely' ? newest : undefined,
          `${profile}: a later page does not head the list`,
        );
        const filed = await here.account()!.createTask({ title: 'Filed since', task_kind: 'task', content: 'x' });
        assert.equal(
          await baselineOf('After a post filed here'),
          profile === 'likely' ? filed.id : undefined,
          `${profile}: a post filed here raises a known baseline, and makes none`,
        );
      } finally {
        await other.close();
      }
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
      const draft = await r.drafts.create({
        kind: 'comment',
        text: 'Re: it\n\nSaid once\n',
        titled: true,
        postId: parent.id,
        accountUrl: server.url,
      });
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

describe('DraftSender: absence is never concluded from what a list may not show', () => {
  const lostThenSendAgain = async (
    server: StandIn,
    file: (r: Rig) => Promise<Draft>,
    loss: 'stored' | 'not stored',
    answer = 'Keep Draft',
  ) => {
    fake.reset();
    const r = rig(server);
    r.signIn();
    const draft = await file(r);
    server.addFault({
      method: 'POST',
      path: '/app/posts.json',
      ...(loss === 'stored' ? { dropAfterHandling: true } : { drop: true }),
      times: 1,
    });
    assert.equal(await r.sender.send(draft.id), undefined, 'the first answer is lost');
    fake.answers.push(answer);
    const again = await r.sender.send(draft.id);
    return { r, draft, again, filed: posts(server).length };
  };
  const bug = (r: Rig) => r.drafts.create({ kind: 'bug', text: formatDraftDocument('Crash on save', 'It crashed'), accountUrl: r.url });
  const taskOf = (content: string) => (r: Rig) =>
    r.drafts.create({ kind: 'task', text: formatDraftDocument('Long task', content), accountUrl: r.url });

  it('a list that cuts content to an abstract (sparse): the stored task is found by the marker at its head, not filed again', async () => {
    const server = await startStandIn({ seed: 'demo', profile: 'sparse' });
    try {
      const { again, filed } = await lostThenSendAgain(server, taskOf('word '.repeat(200)), 'stored');
      assert.ok(again, 'found');
      assert.equal(filed, 1, 'filed once');
    } finally {
      await server.close();
    }
  });

  it('a list that does not show bug reports (sparse): not found is no proof, so the person is asked, and Keep Draft sends nothing', async () => {
    const server = await startStandIn({ seed: 'demo', profile: 'sparse' });
    try {
      const { r, draft, again, filed } = await lostThenSendAgain(server, bug, 'stored');
      assert.equal(again, undefined);
      assert.equal(filed, 1, 'not filed a second time');
      assert.ok(r.drafts.get(draft.id), 'the draft is kept');
      assert.ok(
        fake.messages.some(
          (m) => m.modal && /may have been filed/.test(m.text) && m.buttons.join() === 'Open Helpdesk,Send Anyway,Keep Draft',
        ),
        messages(),
      );
    } finally {
      await server.close();
    }
  });

  for (const listContent of ['omitted', 'unsigned'] as const) {
    it(`a list that ${listContent === 'omitted' ? 'leaves content out' : 'strips a trailing "Sent from" line'}: a stored task is not filed twice`, async () => {
      const server = await startStandIn({ seed: 'demo', profile: { ...PROFILES.likely, listContent } });
      try {
        const { again, filed } = await lostThenSendAgain(server, taskOf('Typed once'), 'stored');
        assert.equal(filed, 1, 'filed once');
        if (listContent === 'unsigned') assert.ok(again, 'found: the marker heads the content');
      } finally {
        await server.close();
      }
    });
  }

  it('an order the service refuses (.asc, 422) does not make a draft impossible to send', async () => {
    const server = await startStandIn({ seed: 'demo', profile: 'sparse' });
    try {
      const { again, filed } = await lostThenSendAgain(server, taskOf('Not stored the first time'), 'not stored', 'Send Anyway');
      assert.ok(again, 'sent (after the question, the list having never shown a task of ours)');
      assert.equal(filed, 2, 'the first try was never stored: one post in the end');
      assert.equal(
        server.store.list(server.prefix, 'posts').filter((p) => String(p.content).includes('Not stored the first time')).length,
        1,
      );
    } finally {
      await server.close();
    }
  });

  it("a comment on a service that does not list comments: a colleague's comment deleted meanwhile does not make it look unsent", async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      const parent = server.store.list(server.prefix, 'posts').find((p) => !p.post_id && p.task_kind !== 'comment')!;
      const api = new HelpdeskClient({ accountUrl: server.url, token: server.token });
      const other = await api.posts.addComment(parent.id, { title: 'Re: colleague', content: 'Soon deleted' });
      const comment = (r: Rig) =>
        r.drafts.create({ kind: 'comment', text: 'Re: it\n\nSaid once\n', titled: true, postId: parent.id, accountUrl: r.url });
      fake.reset();
      const r = rig(server);
      r.signIn();
      // The account read its list's first page, as when the person commented from a row of it.
      await r.account()!.postsPage(1, 50);
      const draft = await comment(r);
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await r.sender.send(draft.id), undefined);
      server.store.remove(server.prefix, 'posts', other.id);
      fake.answers.push('Keep Draft');
      assert.equal(await r.sender.send(draft.id), undefined, 'asked, and kept');
      assert.equal(posts(server).length, 2, "the colleague's and ours: ours not filed twice");
      assert.ok(r.drafts.get(draft.id));
    } finally {
      await server.close();
    }
  });
});

describe('DraftSender: two windows', () => {
  it('a draft claimed by a window of an earlier version (which does not say it is alive) is refused with the two minutes its claim holds', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      fake.reset();
      const drafts = new MemoryFolder();
      const r = rig(server, memoryState(), new MemoryFolder(), drafts);
      r.signIn();
      const draft = await r.drafts.create({
        kind: 'task',
        text: formatDraftDocument('Claimed by an old window', 'Once'),
        accountUrl: server.url,
      });
      await drafts.write(
        `${draft.id}.json`,
        JSON.stringify({ ...r.drafts.get(draft.id), sending: { by: 'an-earlier-version', since: Date.now() } }),
      );
      assert.equal(await r.sender.send(draft.id), undefined, 'not sent');
      assert.equal(posts(server).length, 0);
      assert.match(messages(), /being sent from another window\. If that window was closed, the draft is free again within 2 minutes\./);
    } finally {
      await server.close();
    }
  });

  it('a draft one window is sending is not sent by another (both offered it after a reload)', async () => {
    const server = await startStandIn({ seed: 'demo' });
    try {
      fake.reset();
      const shared = memoryState();
      const [presence, drafts] = [new MemoryFolder(), new MemoryFolder()];
      const one = rig(server, shared, presence, drafts);
      const other = rig(server, shared, presence, drafts);
      one.signIn();
      other.signIn();
      const draft = await one.drafts.create({
        kind: 'task',
        text: formatDraftDocument('From two windows', 'Once'),
        accountUrl: server.url,
      });
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
