import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { type StandIn } from '../server';
import { fake } from './fakeVscode';
import { MemoryFolder } from './memoryState';
import { fences, filed, never, sentPost, toolRig, writeToolsSuite, type ToolRig } from './toolRig';
import { guardMs } from '../limits';

/*
 * The promises at the agent's door (issue 33): a yes sends exactly what its question showed, for
 * the account and user it was asked for, or nothing; an intent filed or kept lately is never filed
 * silently again, whichever door tries; wrong input is answered in words. Each failed on d851c29.
 */

describe("the agent's door keeps the promises", () => {
  const suite = writeToolsSuite('hb-ws-');
  let server: StandIn, other: StandIn, r: ToolRig, folder: string;
  beforeEach(() => void ({ server, other, r, folder } = suite));

  describe('a yes sends what its question showed, or nothing', () => {
    it('a refused question is not sent by a later yes: refused, asked again while signed out, signed in, yes → nothing', async () => {
      const input = { title: 'Refused once', description: 'The person said no.' };
      assert.ok(await r.tools.confirmation('helpdesk_createTask', input, never), 'asked');
      // Refused: VS Code never calls write. The same call again, while signed out: no question.
      r.signOut();
      assert.equal(await r.tools.confirmation('helpdesk_createTask', input, never), undefined);
      r.switchTo(0);
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(filed(server).length, 0, `sent a write the person refused: ${answer}`);
      assert.match(answer, /Nothing was written/);
    });

    it('two questions of one call open at once, showing different code: the yes sends nothing', async () => {
      writeFileSync(join(folder, 'a.ts'), 'const first = 1;\n');
      const input = { title: 'Two chats', file: 'a.ts', startLine: 1 };
      const one = await r.tools.confirmation('helpdesk_createTask', input, never);
      writeFileSync(join(folder, 'a.ts'), 'const second = 2;\n');
      const two = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(one?.message.includes('first') && two?.message.includes('second'));
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(filed(server).length, 0, `sent one of two different questions, unknown which was answered: ${answer}`);
      assert.match(answer, /asked about this very call more than once/);
      assert.match(await r.tools.write('helpdesk_createTask', input, never), /Nothing was written/, 'the other yes sends nothing either');
      assert.equal(filed(server).length, 0);
    });

    it('two questions of one call for two accounts: the yes lands in neither', async () => {
      const input = { title: 'Which account', description: 'Asked in two chats.' };
      const one = await r.tools.confirmation('helpdesk_createTask', input, never);
      r.switchTo(1);
      const two = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(one?.message.includes(server.url) && two?.message.includes(other.url));
      await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(filed(server).length + filed(other).length, 0);
    });

    it('two questions of one call showing the same: one yes files it once, with the marker both showed', async () => {
      const input = { title: 'Asked twice', description: 'Same text.' };
      const one = await r.tools.confirmation('helpdesk_createTask', input, never);
      const two = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.equal(one?.message, two?.message);
      assert.match(await r.tools.write('helpdesk_createTask', input, never), /created/);
      assert.equal(filed(server).length, 1);
    });

    it('what the person reads is what is sent, byte for byte, marker and a heading-like title included', async () => {
      const input = { title: '# Heading-like title', description: 'Line one.\n\n  indented `code`\n' };
      const asked = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(asked);
      const [title, content] = fences(asked.message);
      await r.tools.write('helpdesk_createTask', input, never);
      const sent = sentPost(server);
      assert.equal(title, sent.title, 'the title shown is the title sent');
      assert.equal(content, sent.content, 'the content shown is the content sent, marker included');
      assert.match(String(content), /^Sent from VS Code · hb-[0-9a-z]{10}\n/);
      assert.match(asked.message, /marks the post/, 'says what the marker is for');
    });

    it('asked as one user, signed out and in again to the same address (another user): nothing is sent', async () => {
      const input = { title: 'Asked as Anna', description: 'Not as Bob.' };
      assert.ok(await r.tools.confirmation('helpdesk_createTask', input, never));
      r.signOut();
      r.signInAgain(0);
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.equal(filed(server).length, 0, `sent as a user the question was not asked for: ${answer}`);
      assert.match(answer, /signed in since/);
    });
  });

  describe('never twice, whichever door tries again', () => {
    it("an answer lost, the person's Retry finds the post, then the agent calls again: the question names it, yes answers with it", async () => {
      const input = { title: 'Lost, retried, called again', description: 'Once.' };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', input);
      const [kept] = r.drafts.all();
      assert.ok(kept);
      assert.ok(await r.sender.send(kept.id), "the person's Retry finds the post");
      assert.equal(r.drafts.all().length, 0);
      const { asked, answer } = await r.confirmed('helpdesk_createTask', input);
      const id = server.store.list(server.prefix, 'posts').find((p) => p.title === input.title)!.id;
      assert.match(asked?.title ?? '', new RegExp(`#${id}`), 'the question names the post filed');
      assert.match(asked?.message ?? '', new RegExp(`#${id} was filed with this title .* from VS Code`));
      assert.equal(filed(server).length, 1, `filed twice: ${answer}`);
      assert.match(answer, new RegExp(`#${id} was filed with this intent`));
    });

    it('asked to file again, the question names the first, and yes files a second', async () => {
      const input = { title: 'Wanted twice', description: 'On purpose.' };
      await r.confirmed('helpdesk_createTask', input);
      const again = await r.confirmed('helpdesk_createTask', { ...input, fileAgain: true });
      assert.match(again.asked?.message ?? '', /was filed with this title/);
      assert.match(again.answer, /created/);
      assert.equal(filed(server).length, 2);
    });

    it("the attached file edited before the agent's retry: the kept draft is sent, one post", async () => {
      writeFileSync(join(folder, 'a.ts'), 'const before = 1;\n');
      const input = { title: 'File edited between tries', file: 'a.ts', startLine: 1 };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', input);
      writeFileSync(join(folder, 'a.ts'), 'const after = 2;\n');
      const { asked, answer } = await r.confirmed('helpdesk_createTask', input);
      assert.ok(asked?.message.includes('const before = 1;'), 'the question shows the kept draft, which is what is sent');
      assert.equal(filed(server).length, 1, `filed twice: ${answer}`);
      assert.match(answer, /was on the helpdesk already/);
    });

    it("the kept draft edited and saved by the person, then the agent's retry: one post", async () => {
      const input = { title: 'Draft edited between tries', description: 'First words.' };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_createTask', input);
      const [kept] = r.drafts.all();
      await r.drafts.update(kept!.id, formatDraftDocument('Draft edited, retitled', 'Other words.'));
      const { answer } = await r.confirmed('helpdesk_createTask', input);
      assert.equal(filed(server).length, 1, `filed twice: ${answer}`);
    });

    it("the parent renamed before a comment's retry: one comment", async () => {
      const parent = server.insertRecord('posts', { title: 'Old name', content: 'x' }) as { id: number };
      const input = { post: parent.id, text: 'Fixed in the retry.' };
      server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      await r.confirmed('helpdesk_commentOnPost', input);
      server.store.update(server.prefix, 'posts', parent.id, { title: 'New name' });
      fake.answers.push('Keep Draft');
      const { answer } = await r.confirmed('helpdesk_commentOnPost', input);
      assert.equal(filed(server).length, 1, `commented twice: ${answer}`);
    });

    it("the person's own command twice with one title: asked, naming the first; kept, not filed twice", async () => {
      const text = formatDraftDocument('Crash on save', 'Seen twice.');
      const first = await r.drafts.create({ kind: 'bug', text, accountUrl: server.url });
      assert.ok(await r.sender.send(first.id));
      const second = await r.drafts.create({
        kind: 'bug',
        text: formatDraftDocument('crash  on Save', 'Other words.'),
        accountUrl: server.url,
      });
      fake.answers.push('Keep Draft');
      assert.equal(await r.sender.send(second.id), undefined);
      assert.equal(filed(server).length, 1);
      assert.ok(r.drafts.get(second.id), 'what was typed is kept');
      assert.ok(
        fake.messages.some((m) => /#\d+ was filed with this title/.test(m.text)),
        'the question names the first',
      );
      fake.answers.push('Send Anyway');
      assert.ok(await r.sender.send(second.id), 'Send Anyway files it');
      assert.equal(filed(server).length, 2);
    });

    it('filed in one window, the same title in another: asked there too', async () => {
      const filedFolder = new MemoryFolder();
      const one = toolRig([server], { filedFolder });
      const two = toolRig([server], { filedFolder });
      await one.confirmed('helpdesk_createTask', { title: 'Two windows', description: 'A.' });
      const { asked, answer } = await two.confirmed('helpdesk_createTask', { title: 'Two windows', description: 'B.' });
      assert.match(asked?.message ?? '', /was filed with this title/);
      assert.equal(filed(server).length, 1, answer);
    });
  });

  describe('wrong input is answered in words', () => {
    it("a comment's id given to comment on: refused, naming its post", async () => {
      const parent = server.insertRecord('posts', { title: 'Parent', content: 'x' }) as { id: number };
      const comment = server.insertRecord('posts', { title: 'Re: Parent', content: 'y', post_id: parent.id, task_kind: 'comment' }) as {
        id: number;
      };
      const { asked, answer } = await r.confirmed('helpdesk_commentOnPost', { post: comment.id, text: 'On a comment?' });
      assert.equal(asked, undefined);
      assert.match(answer, new RegExp(`is a comment on #${parent.id}`));
      assert.equal(filed(server).length, 0);
    });

    it('an end line past the end of the file is refused, not cut', async () => {
      writeFileSync(join(folder, 'four.ts'), 'a\nb\nc\nd\n');
      for (const endLine of [99, 1e308]) {
        const { asked, answer } = await r.confirmed('helpdesk_createTask', {
          title: 'Past the end',
          file: 'four.ts',
          startLine: 2,
          endLine,
        });
        assert.equal(asked, undefined, String(endLine));
        assert.match(answer, /past the end/, answer);
      }
      assert.equal(filed(server).length, 0);
    });
  });

  it('every input an agent controls, at 1 MB: answered within a bound, nothing sent', async () => {
    const big = 'x '.repeat(512 * 1024);
    const inputs: Array<[Parameters<typeof r.tools.write>[0], Record<string, unknown>]> = [
      ['helpdesk_createTask', { title: big }],
      ['helpdesk_createTask', { title: 'T', description: big }],
      ['helpdesk_fileBug', { title: 'T', file: big }],
      ['helpdesk_fileBug', { title: 'T', file: 'a.ts', startLine: big }],
      ['helpdesk_fileBug', { title: 'T', file: 'a.ts', endLine: big }],
      ['helpdesk_commentOnPost', { post: big, text: 'x' }],
      ['helpdesk_commentOnPost', { post: 1, text: big }],
      ['helpdesk_createTask', { title: 'T', fileAgain: big, description: big }],
    ];
    writeFileSync(join(folder, 'a.ts'), 'a\n');
    for (const [tool, input] of inputs) {
      const started = performance.now();
      await r.confirmed(tool, input as never);
      const took = performance.now() - started;
      assert.ok(took < guardMs(70), `${tool} ${Object.keys(input).join(',')}: ${took.toFixed(0)} ms`);
    }
    assert.equal(filed(server).length, 0);
  });
});
