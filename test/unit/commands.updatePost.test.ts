import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type Post } from '../../src/api';
import { changedFields, changedSince, differences, laterCopy } from '../../src/api/postChanges';
import { assigneeItems, publishPostUpdatesRefused, statusItems, updatePostFeature, type UpdateShown } from '../../src/commands/updatePost';
import { commandHandlers } from '../../src/commands/feature';
import { Identity } from '../../src/accounts/identity';
import { Log } from '../../src/log';
import type { Services } from '../../src/services';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Notifier } from '../../src/ui/notifier';
import { PostNode } from '../../src/views/nodes';
import { PostDocumentProvider } from '../../src/views/postDocument';
import { postUri } from '../../src/views/postUri';
import { PROFILES, type StandIn } from '../server';
import { CancellationTokenSource, EventEmitter, fake } from './fakeVscode';

/** A cancellation token of the fake editor, as VS Code's type. */
const token = () => new CancellationTokenSource().token as unknown as import('vscode').CancellationToken;
import { memoryState } from './memoryState';
import { accountOn, standInsForSuite } from './support';

/* Close, Reopen, Assign to Me, Assign…, Set Status… as the commands run them on a post's row,
 * the editor faked, against a stand-in that accepts updating posts and one that refuses it. */

let accepting: StandIn;
let refusing: StandIn;
// Both reset before each test.
standInsForSuite(
  ([a, r]) => ([accepting, refusing] = [a!, r!]),
  { seed: 'demo' },
  { seed: 'demo', profile: { ...PROFILES.likely, postUpdates: 'methodNotAllowed' } },
);

/** One window signed in to `server`: its account, store, identity, and the commands. */
async function windowOn(server: StandIn, shownIn: UpdateShown['shownIn'] = () => undefined) {
  const state = memoryState();
  const account = accountOn(server, state);
  const log = new Log();
  const store = new HelpdeskStore(log);
  store.bind(account);
  await store.posts.ensureStarted();
  const changed = new EventEmitter<void>();
  const signedIn = { url: account.url, usable: true, account, store };
  const gateway = {
    current: signedIn,
    ready: async () => signedIn,
    signedInAccounts: async () => [account.url],
    onDidChange: changed.event,
    accountFor: async () => account,
    peek: (id: number) => store.peeks.get(id, (postId) => account.post(postId)),
  };
  const services = { gateway, ui: new Notifier(log), log } as unknown as Services;
  const identity = new Identity(state);
  const shown: Post[] = [];
  const documents: UpdateShown = { showUpdated: (url, post) => void (url === account.url && shown.push(post)), shownIn };
  const feature = updatePostFeature(services, identity, documents);
  const row = (id: number) => new PostNode(store.posts.find(id)!);
  // The commands as VS Code calls them, through the one door (as src/extension.ts makes them).
  const commands = commandHandlers(gateway, feature.commands);
  return { account, store, identity, shown, commands, action: feature.action, row, services, accountNow: changed };
}

const puts = (server: StandIn) => server.requests.filter((request) => request.method === 'PUT');
const sentPost = (server: StandIn) => (puts(server).at(-1)!.body as { post: unknown }).post;
const anOpenPost = (store: HelpdeskStore) =>
  store.posts.state.items.find((post) => post.closed === false && typeof post.post_id !== 'number')!;

describe('updating a post from the editor', () => {
  beforeEach(() => fake.reset());

  it('Close Post on a row: sends only closed, the row shows the answered record, the open documents are told; Reopen sends closed: false', async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    await w.commands['helpdesk.closePost'](w.row(post.id));
    assert.equal(puts(accepting).length, 1);
    assert.deepEqual(sentPost(accepting), { closed: true });
    assert.equal(w.store.posts.find(post.id)?.closed, true);
    assert.equal(w.shown.at(-1)?.closed, true);
    assert.ok(
      fake.statusBar.some((text) => text.includes(`#${post.id}`) && text.includes('closed')),
      fake.statusBar.join('|'),
    );
    assert.equal(fake.messages.length, 0, "the person's own change is no news, and no dialog");
    await w.commands['helpdesk.reopenPost'](w.row(post.id));
    assert.deepEqual(sentPost(accepting), { closed: false });
    assert.equal(w.store.posts.find(post.id)?.closed, false);
    // Remembered for every window's news: the post as the person left it is no news to them.
    assert.equal(w.identity.whoIAm(w.account.url).updated.get(post.id), w.store.posts.find(post.id)?.updated_at);
  });

  it('changed by someone else since the row was read: asked (modal) with what changed; No writes nothing, Yes writes', async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    const row = w.row(post.id);
    (accepting as unknown as { updateRecord(c: string, id: number, v: object): unknown }).updateRecord('posts', post.id, {
      status_id: post.status_id === 3 ? 2 : 3,
      responsible_id: 77,
    });
    fake.answers.push(undefined);
    await w.commands['helpdesk.closePost'](row);
    const asked = fake.messages.at(-1)!;
    assert.equal(asked.modal, true);
    assert.match(asked.text, new RegExp(`#${post.id} .*was changed since you saw it`));
    assert.equal(puts(accepting).length, 0, 'No: nothing written');
    fake.answers.push('Close Post Anyway');
    await w.commands['helpdesk.closePost'](row);
    assert.deepEqual(sentPost(accepting), { closed: true });
  });

  it('Assign… and the modal name the person by the name the loaded posts give them, else by number', async () => {
    const w = await windowOn(accepting);
    const post = w.store.posts.state.items.find((p) => p.closed === false && typeof p.post_id !== 'number' && p.responsible_id !== 2)!;
    // The demo's users: 2 is anna, who wrote some of the loaded posts.
    fake.pickAnswers.push('$(account) anna');
    await w.commands['helpdesk.assignPost'](w.row(post.id));
    assert.deepEqual(sentPost(accepting), { responsible_id: 2 });
    assert.ok(
      fake.statusBar.some((text) => text.includes(`#${post.id} is assigned to anna (user 2).`)),
      fake.statusBar.join('|'),
    );
    const row = w.row(post.id);
    (accepting as unknown as { updateRecord(c: string, id: number, v: object): unknown }).updateRecord('posts', post.id, {
      responsible_id: 77,
    });
    fake.answers.push(undefined);
    await w.commands['helpdesk.closePost'](row);
    assert.match(fake.messages.at(-1)!.detail ?? '', /^Assigned to: anna \(user 2\) → user 77$/m, 'a user no loaded post names: by number');
  });

  it('what the modal says: each changed fact, before and after', () => {
    const seen = {
      id: 1,
      title: 'A',
      closed: false,
      status_id: 1,
      responsible_id: null,
      updated_at: '2026-01-01T00:00:00.000+01:00',
    } as Post;
    const now = { ...seen, title: 'B', closed: true, status_id: 2, responsible_id: 5, updated_at: '2026-01-02T00:00:00.000+01:00' } as Post;
    assert.deepEqual(differences(seen, now), [
      { field: 'title', before: 'A', now: 'B' },
      { field: 'closed', before: false, now: true },
      { field: 'status', before: 1, now: 2 },
      { field: 'assignee', before: null, now: 5 },
    ]);
    assert.equal(changedSince(seen, now), true);
    assert.equal(changedSince(seen, { ...seen }), false);
    assert.equal(
      changedSince({ ...seen, updated_at: null }, { ...seen, updated_at: null, comments_cache: 3 }),
      false,
      'no stamps: only the facts acted on count',
    );
    // Of two copies, the later one: by the time, whatever the zone it is written in; where a time cannot be read, any other.
    assert.equal(laterCopy(seen, now), true);
    assert.equal(laterCopy(now, seen), false, 'an earlier copy, answered late');
    assert.equal(laterCopy(seen, { ...seen }), false);
    assert.equal(laterCopy(seen, { updated_at: '2025-12-31T23:30:00.000Z' }), true, '00:30 +01:00 is later than 00:00 +01:00');
    assert.equal(laterCopy({ updated_at: 'soon' }, seen), true);
    assert.equal(laterCopy({ updated_at: undefined }, { updated_at: undefined }), false);
    assert.deepEqual(
      changedFields(now, { closed: true, status_id: 3, responsible_id: 5 }),
      { status_id: 3 },
      'only what differs from the post now',
    );
  });

  it('asked for what the post holds already (someone else closed it): nothing is sent, and the person is told', async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    const row = w.row(post.id);
    (accepting as unknown as { updateRecord(c: string, id: number, v: object): unknown }).updateRecord('posts', post.id, { closed: true });
    fake.answers.push('Close Post Anyway');
    await w.commands['helpdesk.closePost'](row);
    assert.equal(puts(accepting).length, 0);
    assert.match(fake.messages.at(-1)!.text, /is closed already: nothing was changed/);
    assert.equal(w.store.posts.find(post.id)?.closed, true, 'the row shows it as read again');
  });

  it('Assign to Me: while who I am is unknown, says how to set it and sends nothing; known, sends responsible_id', async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    fake.answers.push('Set Who I Am…');
    await w.commands['helpdesk.assignToMe'](w.row(post.id));
    assert.match(fake.messages.at(-1)!.text, /Helpdesk: Set Who I Am…/);
    assert.ok(fake.executed.some((run) => run.command === 'helpdesk.setWhoIAm'));
    assert.equal(puts(accepting).length, 0);
    await w.identity.set(w.account.url, 42);
    await w.commands['helpdesk.assignToMe'](w.row(post.id));
    assert.deepEqual(sentPost(accepting), { responsible_id: 42 });
    assert.equal(w.store.posts.find(post.id)?.responsible_id, 42);
  });

  it("refused: said in words with Open in Browser (the post's page), remembered, the context key set; the next try sends nothing; a refresh offers it again", async () => {
    const w = await windowOn(refusing);
    const published = publishPostUpdatesRefused(w.services);
    const contextKey = () =>
      fake.executed.filter((run) => run.command === 'setContext' && run.args[0] === 'helpdesk.postUpdatesRefused').at(-1)?.args[1];
    assert.equal(contextKey(), false);
    const post = anOpenPost(w.store);
    fake.answers.push('Open in Browser');
    await w.commands['helpdesk.closePost'](w.row(post.id));
    const said = fake.messages.at(-1)!;
    assert.equal(said.level, 'warn');
    assert.match(said.text, /does not let posts be closed, reopened, assigned or given a status/);
    assert.deepEqual(said.buttons, ['Open in Browser']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(fake.opened, [w.account.link('posts', post.id)]);
    assert.equal(contextKey(), true);
    assert.equal(w.store.posts.find(post.id)?.closed, false);
    const before = refusing.requests.length;
    const messages = fake.messages.length;
    await w.commands['helpdesk.reopenPost'](w.row(post.id));
    await w.commands['helpdesk.closePost'](w.row(post.id));
    assert.equal(refusing.requests.length, before, 'not tried again');
    assert.equal(fake.messages.length, messages + 2);
    assert.match(fake.messages.at(-1)!.text, /does not let posts be closed/);
    await w.account.forgetPostUpdatesRefused();
    assert.equal(contextKey(), false);
    published.dispose();
  });

  it('a 403 on Close Post (this user may not update posts): said as the refused update, remembered, no Sign In offered', async () => {
    const w = await windowOn(accepting);
    const published = publishPostUpdatesRefused(w.services);
    const post = anOpenPost(w.store);
    accepting.addFault({ method: 'PUT', path: `/app/posts/${post.id}.json`, status: 403, times: 1 });
    await w.commands['helpdesk.closePost'](w.row(post.id));
    const said = fake.messages.at(-1)!;
    assert.match(said.text, /does not let posts be closed, reopened, assigned or given a status/);
    assert.doesNotMatch(said.text, /[Ss]ign in/);
    assert.ok(!said.buttons.includes('Sign In Again'));
    assert.equal(w.account.postUpdatesRefused, true);
    const before = puts(accepting).length;
    await w.commands['helpdesk.closePost'](w.row(post.id));
    assert.equal(puts(accepting).length, before, 'not tried again');
    published.dispose();
  });

  it('the action without its boxes: a change since is declined by default, and a refusal is an outcome', async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    const seen = { ...post, updated_at: '2000-01-01T00:00:00.000+01:00' };
    const declined = await w.action({ postId: post.id, seen, changes: { closed: true } });
    assert.ok('declined' in declined);
    assert.equal(puts(accepting).length, 0);
    const updated = await w.action({ postId: post.id, changes: { status_id: 2 } });
    assert.ok('updated' in updated || 'unchanged' in updated);
    const r = await windowOn(refusing);
    const refused = await r.action({ postId: anOpenPost(r.store).id, changes: { closed: true } });
    assert.ok('refused' in refused);
  });

  it('Assign… offers the users seen, the person marked, and no one where someone is assigned; Set Status… the statuses, the current marked', () => {
    const post = { id: 9, responsible_id: 3, status_id: 2 } as Post;
    const items = assigneeItems(
      [
        { id: 3, nick: 'ann', wrote: 1, assigned: 1 },
        { id: 4, wrote: 1, assigned: 0 },
      ],
      7,
      post,
    );
    assert.deepEqual(
      items.map((item) => item.id),
      [7, 3, 4, null],
    );
    assert.match(items[0]!.description ?? '', /you/);
    assert.match(items[1]!.description ?? '', /assigned now/);
    assert.deepEqual(assigneeItems([], undefined, { id: 9 }), [], 'no one assigned: no "No One"');
    const statuses = statusItems(
      new Map([
        [1, 'New'],
        [2, '$(check) In progress'],
      ]),
      post,
    );
    assert.deepEqual(
      statuses.map((item) => item.id),
      [1, 2, null],
    );
    assert.equal(statuses[1]!.description, 'now');
    assert.ok(!statuses[1]!.label.startsWith('$('), 'a status name is text, never an icon');
  });

  it("an open document of the post shows the answered record (state and assignee) without reading the post again; another post's or account's document is left alone", async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    const provider = new PostDocumentProvider(w.services.gateway);
    const mine = postUri(post.id, w.account.url);
    const others = [postUri(post.id + 1, w.account.url), postUri(post.id, 'https://other.example.com')];
    for (const uri of [mine, ...others]) fake.documents.push({ uri, isDirty: false, text: '', save: async () => true });
    const told: string[] = [];
    provider.onDidChange((uri) => void told.push(uri.toString()));
    const updated = await w.account.updatePost(post.id, { closed: true, responsible_id: 42 });
    provider.showUpdated(w.account.url, updated);
    assert.deepEqual(told, [mine.toString()]);
    accepting.reset();
    const text = await provider.provideTextDocumentContent(mine, token());
    assert.match(text, /- State: closed/);
    assert.match(text, /- Assigned to: user 42/);
    assert.equal(accepting.requests.length, 0, 'shown from the answer');
    await provider.provideTextDocumentContent(mine, token());
    // (The client part of a post of a client reads the client's other posts and deals beside it.)
    assert.equal(accepting.requests.filter((r) => r.path === `/app/posts/${post.id}.json`).length, 1, 'opened again later: read fresh');
    provider.dispose();
  });

  it("from a post's document: what the document showed is what the person saw (a change since is asked about)", async () => {
    const post = anOpenPost((await windowOn(accepting)).store);
    const uri = postUri(post.id, accepting.url);
    const stale = { ...post, status_id: null, updated_at: '2000-01-01T00:00:00.000+01:00' };
    const w = await windowOn(accepting, (asked) => (asked.toString() === uri.toString() ? stale : undefined));
    fake.reset();
    fake.answers.push(undefined);
    await w.commands['helpdesk.closePost'](uri);
    assert.equal(fake.messages.at(-1)?.modal, true, 'asked');
    assert.equal(puts(accepting).length, 0);
  });

  it("from a hover's link (the id and the account it was shown from): the window having switched to another account since, nothing is done to that account's post of the same number", async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    (w.services.gateway as unknown as { accountFor: () => Promise<undefined> }).accountFor = async () => undefined;
    await w.commands['helpdesk.closePost'](post.id, 'https://elsewhere.example.com');
    assert.equal(puts(accepting).length, 0);
    assert.match(fake.messages.at(-1)?.text ?? '', /account you are not signed in to/);
    await w.commands['helpdesk.closePost'](post.id, accepting.url);
    assert.deepEqual(sentPost(accepting), { closed: true }, "the hover's own account: done");
  });

  it("the person's own update is no change of someone else's: acting again from the row as it was before is not asked about", async () => {
    const w = await windowOn(accepting);
    const post = anOpenPost(w.store);
    const row = w.row(post.id);
    await w.commands['helpdesk.closePost'](row);
    await w.commands['helpdesk.reopenPost'](row);
    assert.equal(fake.messages.length, 0, 'nothing asked');
    assert.deepEqual(
      puts(accepting).map((request) => (request.body as { post: unknown }).post),
      [{ closed: true }, { closed: false }],
    );
    (accepting as unknown as { updateRecord(c: string, id: number, v: object): unknown }).updateRecord('posts', post.id, {
      responsible_id: 99,
    });
    fake.answers.push(undefined);
    await w.commands['helpdesk.closePost'](row);
    assert.equal(fake.messages.at(-1)?.modal, true, "someone else's change after it still is");
    assert.equal(puts(accepting).length, 2);
  });
});
