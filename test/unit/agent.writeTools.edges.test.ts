import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { FiledIntents } from '../../src/drafts/filedIntents';
import { type StandIn } from '../server';
import { fake, Uri } from './fakeVscode';
import { MemoryFolder, memoryState } from './memoryState';
import { fences, filed, never, sentPost, toolRig, writeToolsSuite, type ToolRig } from './toolRig';
import { guardMs } from '../limits';

/*
 * The write tools at their edges: two chats asking and answering at once, kept drafts edited or
 * filed between question and yes, the filed ledger unreadable, dated ahead or ten thousand files
 * long, the clock set back, inputs nested a million deep. Each tries to break one promise (first
 * written in the review of issue 33, 9c13243..c93374b: those under "defects" failed on c93374b).
 */

const markerOf = (content: unknown) => /^Sent from VS Code · (hb-[0-9a-z]{10})/.exec(String(content))?.[1];

describe('the write tools at their edges', () => {
  const suite = writeToolsSuite('hb-review-');
  let server: StandIn, other: StandIn, r: ToolRig, folder: string;
  beforeEach(() => void ({ server, other, r, folder } = suite));

  describe('defects', () => {
    it('two chats asked the same, both say yes one after the other: one post, not two with one marker', async () => {
      const input = { title: 'Asked in two chats, yes in both', description: 'Same words.' };
      const one = await r.tools.confirmation('helpdesk_createTask', input, never);
      const two = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.equal(one?.message, two?.message);
      await r.tools.write('helpdesk_createTask', input, never);
      const second = await r.tools.write('helpdesk_createTask', input, never);
      const markers = filed(server).map((request) => markerOf((request.body as { post: { content: string } }).post.content));
      assert.equal(
        filed(server).length,
        1,
        `the second yes filed the intent again, unasked, with the same marker ${markers.join(', ')}: ${second}`,
      );
    });

    it('two questions showed different code; twenty other questions later, the yes still sends nothing (not the second one)', async () => {
      writeFileSync(join(folder, 'a.ts'), 'const first = 1;\n');
      const input = { title: 'Evicted question', file: 'a.ts', startLine: 1 };
      const one = await r.tools.confirmation('helpdesk_createTask', input, never);
      writeFileSync(join(folder, 'a.ts'), 'const second = 2;\n');
      const two = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(one?.message.includes('first') && two?.message.includes('second'));
      // Another chat asks about 19 other writes meanwhile (open, or refused: a refused question is kept).
      for (let i = 0; i < 19; i++) assert.ok(await r.tools.confirmation('helpdesk_createTask', { title: `Other write ${i}` }, never));
      // The person says yes to the first question, which showed `first`.
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(
        filed(server).length,
        0,
        `a yes sent one of two different questions (the other was evicted): ${answer}\n${JSON.stringify(filed(server).map((q) => q.body))}`,
      );
    });

    it('two chats say yes at once (one joins the other): the next call is answered with the post, not "two questions were open"', async () => {
      const input = { title: 'Both yes at once', description: 'Joined.' };
      await r.tools.confirmation('helpdesk_createTask', input, never);
      await r.tools.confirmation('helpdesk_createTask', input, never);
      const answers = await Promise.all([
        r.tools.write('helpdesk_createTask', input, never),
        r.tools.write('helpdesk_createTask', input, never),
      ]);
      assert.equal(filed(server).length, 1, answers.join('\n'));
      // Later the agent makes the same call again: the question names the post, and yes answers with it.
      const { asked, answer } = await r.confirmed('helpdesk_createTask', input);
      assert.match(asked?.title ?? '', /^Answer with #\d+\?$/);
      assert.match(answer, /was filed with this intent/, `a question the joined yes answered was left open: ${answer}`);
    });

    it('a kept agent draft, filed and then edited: sent again, it names the first post and files with a new marker', async () => {
      const title = 'Edited after it was filed';
      const input = { title, description: 'First words.' };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', input);
      const [kept] = r.drafts.all();
      assert.ok(kept?.unconfirmed);
      // The person edits the kept draft (same title, other words), then presses Send: the first attempt is found.
      await r.drafts.update(kept.id, formatDraftDocument(title, 'Second words.'));
      await r.sender.send(kept.id);
      assert.equal(filed(server).length, 1);
      assert.ok(r.drafts.get(kept.id), 'edited since: kept');
      const firstMarker = markerOf(sentPost(server, 0).content);
      // Sent again (the person's Send Draft): a second post of the intent.
      const before = fake.messages.length;
      fake.answers.push('Send Anyway');
      await r.sender.send(kept.id);
      const named = fake.messages.slice(before).some((m) => m.modal && /was filed with this title/.test(m.text));
      assert.equal(filed(server).length, 2);
      const secondMarker = markerOf(sentPost(server, 1).content);
      assert.notEqual(secondMarker, firstMarker, 'two posts filed with one marker: a lost answer of the second finds the first');
      assert.ok(named, 'the second post of one intent was filed with no question naming the first');
    });

    it('a kept agent draft, filed and then edited, sent again with its answer lost and the POST not stored: the edit is not lost', async () => {
      const title = 'Edit lost by a marker used twice';
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', { title, description: 'First words.' });
      const [kept] = r.drafts.all();
      assert.ok(kept);
      await r.drafts.update(kept.id, formatDraftDocument(title, 'Second words.'));
      await r.sender.send(kept.id);
      assert.ok(r.drafts.get(kept.id));
      // Sent again: the connection drops before the service stores it.
      server.addFault({ method: 'POST', path: '/app/posts.json', drop: true, times: 1 });
      fake.answers.push('Send Anyway');
      await r.sender.send(kept.id);
      // Retry.
      fake.answers.push('Send Anyway', 'Send Anyway');
      await r.sender.send(kept.id);
      const posts = server.store.list(server.prefix, 'posts').filter((p) => p.title === title);
      const second = posts.some((p) => String(p.content).includes('Second words.'));
      assert.ok(
        second || r.drafts.get(kept.id),
        `"Second words." were neither filed nor kept: the retry found the first post by the shared marker (${posts.length} posts)`,
      );
    });

    it('a title in NFD filed, the same title in NFC asked by the agent: the question names the first', async () => {
      const nfd = 'Crash in cafe\u0301 mode';
      await r.confirmed('helpdesk_createTask', { title: nfd, description: 'A.' });
      const { asked, answer } = await r.confirmed('helpdesk_createTask', { title: nfd.normalize('NFC'), description: 'B.' });
      assert.equal(filed(server).length, 1, `filed twice: the titles look the same to the person: ${asked?.title} / ${answer}`);
    });

    it('a ledger file that cannot be read as an entry, with a modification time in the future, is not read on every write forever', async () => {
      let reads = 0;
      const ledger = new (class extends MemoryFolder {
        override read(name: string) {
          reads++;
          return super.read(name);
        }
      })();
      ledger.files.set('hb-0123456789.json', { text: 'x'.repeat(50_000), mtime: Date.now() + 365 * 24 * 60 * 60_000 });
      const filedIntents = new FiledIntents(ledger);
      await filedIntents.recent([{ kind: 'task', accountUrl: server.url, target: 'client:', key: 'a' }]);
      const first = reads;
      for (let i = 0; i < 5; i++) await filedIntents.recent([{ kind: 'task', accountUrl: server.url, target: 'client:', key: 'a' }]);
      assert.ok(
        ledger.files.size === 0 || reads === first,
        `a junk file dated a year ahead is kept and read ${reads - first} times more (${ledger.files.size} left)`,
      );
    });

    it('ten thousand unreadable ledger files (just written, or dated ahead): one write reads a bounded number of them', async () => {
      let reads = 0;
      const ledger = new (class extends MemoryFolder {
        override read(name: string) {
          reads++;
          return super.read(name);
        }
      })();
      for (let i = 0; i < 10_000; i++)
        ledger.files.set(`hb-${String(i).padStart(10, '0')}.json`, { text: 'null', mtime: Date.now() + 3_600_000 });
      const filedIntents = new FiledIntents(ledger);
      const started = performance.now();
      await filedIntents.recent([{ kind: 'task', accountUrl: server.url, target: 'client:', key: 'a' }]);
      const took = performance.now() - started;
      assert.ok(reads <= 1_000, `one look-up read ${reads} files (${took.toFixed(0)} ms), where at most 300 entries are kept`);
    });

    it("an agent's draft kept at the sender's question (never attempted): the next question about it does not say an answer was lost", async () => {
      const title = 'Never attempted twin';
      const input = { title, description: 'Agent.' };
      // The agent is asked (no twin yet); before the yes, the person files the same title themselves.
      assert.ok(await r.tools.confirmation('helpdesk_createTask', input, never));
      const mine = await r.drafts.create({
        kind: 'task',
        text: formatDraftDocument(title, 'Person.'),
        accountUrl: server.url,
        target: 'task',
      });
      assert.ok(await r.sender.send(mine.id));
      // The yes: the sender asks (the title was just filed); dismissed, the agent's draft is kept, never attempted.
      await r.tools.write('helpdesk_createTask', input, never);
      const agentDraft = r.drafts.all().find((d) => d.byAgent);
      assert.ok(agentDraft && agentDraft.unconfirmed === undefined, 'kept, never attempted');
      // The person writes the title once more: what they are asked must be true.
      const again = await r.drafts.create({
        kind: 'task',
        text: formatDraftDocument(title, 'Person again.'),
        accountUrl: server.url,
        target: 'task',
      });
      const before = fake.messages.length;
      await r.sender.send(again.id);
      const question = fake.messages.slice(before).find((m) => m.modal);
      assert.ok(question);
      assert.equal(filed(server).length, 1);
      assert.doesNotMatch(
        question.text,
        /its answer was lost/,
        `told of a lost answer where no attempt was made (and not of the post filed): ${question.text}`,
      );
    });
    it('an input nested 500,000 deep (1 MB of JSON, as VS Code parses it): answered in words, not thrown', async () => {
      const input = { title: 'Deep', description: JSON.parse('['.repeat(500_000) + ']'.repeat(500_000)) as unknown } as never;
      let asked: unknown;
      let answer: unknown;
      try {
        asked = await r.tools.confirmation('helpdesk_createTask', input, never);
        answer = await r.tools.write('helpdesk_createTask', input, never);
      } catch (error) {
        assert.fail(`threw instead of answering: ${String(error)}`);
      }
      assert.equal(asked, undefined);
      assert.match(String(answer), /Nothing was written/);
      assert.equal(filed(server).length, 0);
    });
    it('the clock set back an hour after a post was filed: the post is still named, and its ledger file not removed', async () => {
      let now = Date.UTC(2026, 10, 26, 12);
      const ledger = new MemoryFolder();
      const filedIntents = new FiledIntents(ledger, () => now);
      const intent = { kind: 'task' as const, accountUrl: server.url, target: 'client:', key: 'clock set back' };
      await filedIntents.note(intent, 42, 'hb-abcdefghij');
      now -= 60 * 60_000;
      const found = await filedIntents.recent([intent]);
      assert.equal(
        found?.postId,
        42,
        `forgotten when the clock went back an hour (${ledger.files.size} ledger files left): the same write is filed again unasked`,
      );
    });
  });

  describe('the ledger of posts filed lately', () => {
    it('a look-up (before a send goes out) names the post without waiting for expired files to be removed; they are removed after', async () => {
      let now = Date.UTC(2026, 10, 26, 12);
      const ledger = new MemoryFolder();
      const filedIntents = new FiledIntents(ledger, () => now);
      const intent = { kind: 'bug' as const, accountUrl: server.url, target: '', key: 'removed after' };
      await filedIntents.note(intent, 7, 'hb-0000000001');
      now += 23 * 60 * 60_000;
      await filedIntents.note(intent, 8, 'hb-0000000002');
      now += 2 * 60 * 60_000; // the first is past a day now
      const remove = ledger.remove.bind(ledger);
      const held: (() => void)[] = [];
      ledger.remove = (name: string) => new Promise<void>((resolve) => held.push(() => void remove(name).then(resolve)));
      const found = await Promise.race([
        filedIntents.recent([intent]),
        new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 500)),
      ]);
      assert.equal(found === 'held' ? found : found?.postId, 8, 'named while the removal of the expired file was held');
      assert.equal(held.length, 1, 'that removal had begun');
      held.splice(0).forEach((release) => release());
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual([...ledger.files.keys()], ['hb-0000000002.json'], 'the expired file is gone');
    });
  });

  describe('held', () => {
    it('shown is sent, byte for byte: a bug with code, a comment, and a kept draft after a dropped POST', async () => {
      writeFileSync(join(folder, 'b.ts'), 'const tab =\t"`\u0060`";\r\nlet x = 1;\n');
      const parent = server.insertRecord('posts', { title: 'Parent ``` title', content: 'x' }) as { id: number };
      const calls = [
        [
          'helpdesk_fileBug',
          { title: '#\tHash tab', description: '\n\n  Indented\r\n\u00a0nbsp  \n', file: 'b.ts', startLine: 1, endLine: 2 },
        ],
        ['helpdesk_commentOnPost', { post: parent.id, text: '  ````\nfence\n````  ' }],
        ['helpdesk_createTask', { title: 'Dropped then kept', description: 'Kept words.' }],
      ] as const;
      for (const [tool, input] of calls) {
        const asked = await r.tools.confirmation(tool, input, never);
        assert.ok(asked, tool);
        const [title, content] = fences(asked.message);
        if (tool === 'helpdesk_createTask') server.addFault({ method: 'POST', path: '/app/posts.json', drop: true, times: 1 });
        await r.tools.write(tool, input, never);
        assert.equal(title, sentPost(server).title, `${tool}: title`);
        assert.equal(content, sentPost(server).content, `${tool}: content`);
      }
      // The dropped task: its kept draft is shown and sent as shown.
      fake.answers.push('Send Anyway');
      const input = calls[2][1];
      const asked = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.match(asked?.message ?? '', /draft kept/);
      const [title, content] = fences(asked!.message);
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(sentPost(server).title, title, answer);
      assert.equal(sentPost(server).content, content, answer);
    });

    it('a question whose composition failed, then the file made and asked again, then yes: nothing sent', async () => {
      const input = { title: 'Problem first', file: 'late.ts', startLine: 1 };
      assert.equal(await r.tools.confirmation('helpdesk_createTask', input, never), undefined);
      writeFileSync(join(folder, 'late.ts'), 'const late = 1;\n');
      assert.ok(await r.tools.confirmation('helpdesk_createTask', input, never));
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(filed(server).length, 0, answer);
    });

    it('the kept draft shown, then edited, sent or discarded before the yes: nothing sent', async () => {
      for (const change of ['edit', 'send', 'discard'] as const) {
        server.clearFaults();
        const input = { title: `Kept then ${change}`, description: 'x' };
        server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
        await r.confirmed('helpdesk_createTask', input);
        const kept = r.drafts.all().find((d) => d.text.startsWith(input.title))!;
        const asked = await r.tools.confirmation('helpdesk_createTask', input, never);
        assert.match(asked?.message ?? '', /draft kept in VS Code/);
        const before = filed(server).length;
        if (change === 'edit') await r.drafts.update(kept.id, formatDraftDocument(input.title, 'edited'));
        if (change === 'send') await r.sender.send(kept.id);
        if (change === 'discard') await r.drafts.remove(kept.id);
        const after = filed(server).length;
        const answer = await r.tools.write('helpdesk_createTask', input, never);
        assert.equal(filed(server).length, after, `${change}: ${answer}`);
        assert.ok(after - before <= 1);
      }
    });

    it('a kept draft of another account is not the twin: each account gets its own', async () => {
      const input = { title: 'Per account twin', description: 'x' };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', input);
      r.switchTo(1);
      const { asked, answer } = await r.confirmed('helpdesk_createTask', input);
      assert.doesNotMatch(asked?.message ?? '', /draft kept/);
      assert.match(answer, /created/);
      assert.equal(filed(other).length, 1);
    });

    it('the same words on another post are another comment', async () => {
      const a = server.insertRecord('posts', { title: 'A', content: 'x' }) as { id: number };
      const b = server.insertRecord('posts', { title: 'B', content: 'x' }) as { id: number };
      await r.confirmed('helpdesk_commentOnPost', { post: a.id, text: 'Same words.' });
      const { answer } = await r.confirmed('helpdesk_commentOnPost', { post: b.id, text: 'Same words.' });
      assert.match(answer, /added to/);
      assert.equal(filed(server).length, 2);
    });

    it('fileAgain with no twin files once; a title differing in case and spacing is a twin', async () => {
      const { answer } = await r.confirmed('helpdesk_createTask', { title: 'Again without twin', fileAgain: true });
      assert.match(answer, /created/);
      const second = await r.confirmed('helpdesk_createTask', { title: '  again   WITHOUT twin ' });
      assert.match(second.answer, /was filed with this intent/);
      assert.equal(filed(server).length, 1);
    });

    it('answered with a post whose ledger file is removed before the yes: nothing is filed', async () => {
      const filedFolder = new MemoryFolder();
      const w = toolRig([server], { filedFolder });
      await w.confirmed('helpdesk_createTask', { title: 'Ledger removed', description: 'x' });
      const asked = await w.tools.confirmation('helpdesk_createTask', { title: 'Ledger removed', description: 'y' }, never);
      assert.match(asked?.title ?? '', /^Answer with/);
      filedFolder.files.clear();
      await w.tools.write('helpdesk_createTask', { title: 'Ledger removed', description: 'y' }, never);
      assert.equal(filed(server).length, 1);
    });

    it('two windows sharing state and folders, each asked the same title, both yes at once: one post at most', async () => {
      const state = memoryState();
      const presence = new MemoryFolder();
      const filedFolder = new MemoryFolder();
      const draftsFolder = new MemoryFolder();
      const one = toolRig([server], { state, presence, filedFolder, draftsFolder });
      const two = toolRig([server], { state, presence, filedFolder, draftsFolder });
      const a = { title: 'Two windows at once', description: 'A' };
      const b = { title: 'Two windows at once', description: 'B' };
      assert.ok(await one.tools.confirmation('helpdesk_createTask', a, never));
      assert.ok(await two.tools.confirmation('helpdesk_createTask', b, never));
      const answers = await Promise.all([
        one.tools.write('helpdesk_createTask', a, never),
        two.tools.write('helpdesk_createTask', b, never),
      ]);
      assert.ok(filed(server).length <= 1, answers.join('\n'));
    });

    it('cancelled between question and yes: nothing sent, and the next yes is not taken for it', async () => {
      const input = { title: 'Cancelled between', description: 'x' };
      assert.ok(await r.tools.confirmation('helpdesk_createTask', input, never));
      const cancelled = { ...never, isCancellationRequested: true };
      assert.match(await r.tools.write('helpdesk_createTask', input, cancelled), /Cancelled/);
      assert.match(await r.tools.write('helpdesk_createTask', input, never), /Nothing was written/);
      assert.equal(filed(server).length, 0);
    });

    it('a draft whose own attempt filed it (answer lost) is not asked about on Retry', async () => {
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', { title: 'Own attempt', description: 'x' });
      const [kept] = r.drafts.all();
      const before = fake.messages.length;
      assert.ok(await r.sender.send(kept!.id));
      assert.ok(!fake.messages.slice(before).some((m) => m.modal));
      assert.equal(filed(server).length, 1);
    });

    it("a TODO's task after the agent filed the title: asked", async () => {
      await r.confirmed('helpdesk_createTask', { title: 'From a TODO', description: 'x' });
      const todo = {
        uri: Uri.file(join(folder, 'a.ts')).toString(),
        line: 0,
        lineText: '// TODO From a TODO',
        prefix: '// ',
        keyword: 'TODO',
        text: 'From a TODO',
      };
      const draft = await r.drafts.create(
        {
          kind: 'task',
          text: formatDraftDocument('From a TODO', ''),
          accountUrl: server.url,
          target: 'task',
          clientId: null,
          todo,
        } as never,
        { claimed: true },
      );
      fake.answers.push('Keep Draft');
      assert.equal(await r.sender.send(draft.id), undefined);
      assert.equal(filed(server).length, 1);
    });

    it('a ledger of 300 entries and 300 drafts: a question is composed within a bound', async () => {
      const filedFolder = new MemoryFolder();
      for (let i = 0; i < 300; i++) {
        const entry = { kind: 'task', accountUrl: server.url, target: 'client:', key: `title ${i}`, postId: i + 1, at: Date.now() };
        filedFolder.files.set(`hb-${String(i).padStart(10, '0')}.json`, { text: JSON.stringify(entry), mtime: Date.now() });
      }
      const w = toolRig([server], { filedFolder });
      for (let i = 0; i < 300; i++)
        await w.drafts.create({
          kind: 'task',
          text: formatDraftDocument(`Draft ${i}`, 'x'.repeat(1000)),
          accountUrl: server.url,
          target: 'task',
        });
      const started = performance.now();
      assert.ok(await w.tools.confirmation('helpdesk_createTask', { title: 'Bounded', description: 'x' }, never));
      const took = performance.now() - started;
      assert.ok(took < guardMs(20), `${took.toFixed(0)} ms`);
    });
  });
});
