import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import type { WriteInput, WriteTool } from '../../src/agent/tools/writeTools';
import { startStandIn, type StandIn } from '../server';
import { fake, Uri } from './fakeVscode';
import { fences, filed, never, toolRig, withoutRef } from './toolRig';

/*
 * The promises over every write door at once (issue 33): the agent's questions in two chats
 * (asked, answered yes or refused, interleaved), the person's own command and Retry, a TODO's
 * task, with answers lost, the kept draft, the attached file and the parent edited between tries,
 * and the window switching accounts or signing in again. Whatever happens:
 * - every post filed carries a title and content the person was shown (an agent's question they
 *   said yes to) or wrote themselves (their own draft);
 * - one intent is filed at most once, but for each question the person answered "file again"
 *   (the agent's question naming the first, or Send Anyway).
 */

type Call = { tool: WriteTool; input: WriteInput };

const op = fc.oneof(
  fc.record({ op: fc.constant('ask' as const), chat: fc.integer({ min: 0, max: 1 }), call: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant('yes' as const), chat: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ op: fc.constant('no' as const), chat: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ op: fc.constant('person' as const), title: fc.constantFrom('Alpha', 'Beta', 'Delta'), todo: fc.boolean() }),
  fc.record({ op: fc.constant('retry' as const) }),
  fc.record({ op: fc.constant('lose' as const) }),
  fc.record({ op: fc.constant('editFile' as const) }),
  fc.record({ op: fc.constant('editDraft' as const), title: fc.constantFrom('Alpha', 'Beta', 'Other') }),
  fc.record({ op: fc.constant('rename' as const) }),
  fc.record({ op: fc.constant('switch' as const) }),
  fc.record({ op: fc.constant('signInAgain' as const) }),
);
const answer = fc.constantFrom('Keep Draft', 'Send Anyway', undefined);

describe('property: every write door keeps the promises', () => {
  let servers: StandIn[];
  let folder: string;
  before(async () => {
    servers = [await startStandIn({ seed: 'demo' }), await startStandIn({ seed: 'demo', prefix: 'other' })];
  });
  after(async () => {
    for (const server of servers) await server.close();
  });

  it('never a post the person was not shown, never two of one intent unasked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ step: op, answer }), { minLength: 1, maxLength: 14 }), async (steps) => {
        for (const server of servers) {
          server.reset();
          server.clearFaults();
        }
        fake.reset();
        fake.config.set('helpdesk.requestTimeoutSeconds', 3);
        folder = mkdtempSync(join(tmpdir(), 'hb-doors-'));
        fake.folders.push({ uri: Uri.file(folder), name: 'ws', index: 0 });
        try {
          writeFileSync(join(folder, 'a.ts'), 'const v = 0;\n');
          const r = toolRig(servers);
          const baseline = servers.map((server) => Math.max(0, ...server.store.list(server.prefix, 'posts').map((p) => p.id)));
          const parents = servers.map((server) => (server.insertRecord('posts', { title: 'Parent', content: 'x' }) as { id: number }).id);
          const calls = (): Call[] => [
            { tool: 'helpdesk_createTask', input: { title: 'Alpha', file: 'a.ts', startLine: 1 } },
            { tool: 'helpdesk_createTask', input: { title: 'Beta', description: 'b' } },
            { tool: 'helpdesk_commentOnPost', input: { post: parents[0]!, text: 'Gamma' } },
            { tool: 'helpdesk_createTask', input: { title: 'Alpha', description: 'again', fileAgain: true } },
          ];
          /** What the person was shown or wrote, by account: "title\ncontent" without the marker. */
          const shown = servers.map(() => new Set<string>());
          const pending: (Call | undefined)[] = [undefined, undefined];
          let again = 0;
          let edits = 0;
          const accountIndex = () => servers.findIndex((server) => server.url === r.account()?.url);
          for (const { step, answer: reply } of steps) {
            const before = fake.messages.length;
            fake.answers.push(reply);
            switch (step.op) {
              case 'ask': {
                const call = calls()[step.call]!;
                const asked = await r.tools.confirmation(call.tool, call.input, never);
                pending[step.chat] = call;
                if (asked && accountIndex() >= 0) {
                  const [title, content] = fences(asked.message);
                  if (title !== undefined && content !== undefined) shown[accountIndex()]!.add(`${title}\n${withoutRef(content)}`);
                  if (/again\?$/.test(asked.title)) shown[accountIndex()]!.add(`again:${title}`);
                }
                break;
              }
              case 'yes': {
                const call = pending[step.chat];
                pending[step.chat] = undefined;
                if (!call) break;
                const postsBefore = filed(servers[0]!).length + filed(servers[1]!).length;
                await r.tools.write(call.tool, call.input, never);
                const postsAfter = filed(servers[0]!).length + filed(servers[1]!).length;
                if ((call.input as { fileAgain?: boolean }).fileAgain && postsAfter > postsBefore) again++;
                break;
              }
              case 'no':
                pending[step.chat] = undefined;
                break;
              case 'person': {
                const index = accountIndex();
                if (index < 0) break;
                const words = `person words ${edits++}`;
                shown[index]!.add(`${step.title}\n${words}`);
                const todo = step.todo
                  ? {
                      todo: {
                        uri: 'file:///ws/a.ts',
                        line: 0,
                        lineText: `// TODO ${step.title}`,
                        prefix: '// ',
                        keyword: 'TODO',
                        text: step.title,
                      },
                    }
                  : {};
                const draft = await r.drafts.create(
                  {
                    kind: 'task',
                    text: formatDraftDocument(step.title, words),
                    accountUrl: servers[index]!.url,
                    target: 'task',
                    ...todo,
                  } as never,
                  { claimed: true },
                );
                await r.sender.send(draft.id);
                break;
              }
              case 'retry': {
                const [kept] = r.drafts.all();
                if (kept) await r.sender.send(kept.id);
                break;
              }
              case 'lose':
                for (const server of servers)
                  server.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
                break;
              case 'editFile':
                writeFileSync(join(folder, 'a.ts'), `const v = ${edits++};\n`);
                break;
              case 'editDraft': {
                const [kept] = r.drafts.all();
                if (!kept) break;
                const words = `edited ${edits++}`;
                const index = servers.findIndex((server) => server.url === kept.accountUrl);
                shown[index]!.add(`${step.title}\n${words}`);
                await r.drafts.update(kept.id, formatDraftDocument(step.title, words));
                break;
              }
              case 'rename':
                servers[0]!.store.update(servers[0]!.prefix, 'posts', parents[0]!, { title: `Parent ${edits++}` });
                break;
              case 'switch':
                r.switchTo(accountIndex() === 0 ? 1 : 0);
                break;
              case 'signInAgain':
                r.signInAgain(Math.max(0, accountIndex()));
                break;
            }
            // The reply went to the first message with buttons: a "file again" question answered Send Anyway counts.
            const asked = fake.messages.slice(before).find((m) => m.buttons.length > 0);
            if (asked?.modal && reply === 'Send Anyway' && asked.buttons.includes('Send Anyway')) again++;
            fake.answers.length = 0;
          }
          // Never a post the person was not shown.
          for (const [i, server] of servers.entries()) {
            for (const request of filed(server)) {
              const { title, content } = (request.body as { post: { title: string; content: string } }).post;
              assert.ok(
                shown[i]!.has(`${title}\n${withoutRef(content)}`),
                `filed what the person was never shown: ${JSON.stringify({ title, content })}`,
              );
            }
          }
          // One intent, one post, but for each time the person said to file it again.
          let extra = 0;
          for (const [i, server] of servers.entries()) {
            const intents = new Map<string, number>();
            for (const post of server.store.list(server.prefix, 'posts')) {
              const content = String(post.content);
              if (post.id <= baseline[i]! || !content.startsWith('Sent from VS Code · hb-')) continue;
              const key = post.post_id ? `comment ${post.post_id} ${withoutRef(content)}` : `task ${String(post.title).toLowerCase()}`;
              intents.set(key, (intents.get(key) ?? 0) + 1);
            }
            for (const count of intents.values()) extra += Math.max(0, count - 1);
          }
          assert.ok(extra <= again, `${extra} posts of an intent filed already, but the person agreed to ${again}`);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      }),
      { numRuns: 150 },
    );
  });
});
