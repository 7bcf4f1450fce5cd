import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import type { DraftKind } from '../../src/drafts/drafts';
import { startStandIn, type FaultRule, type Profile } from '../server';
import { fake } from './fakeVscode';
import { rig } from './senderRig';

/*
 * The promise of the lost-answer check, over services drawn from every side of what the notes
 * leave open (order kept or not, .asc refused, a page past the end a 404, comments and bug
 * reports listed or not, content whole, cut, left out or unsigned, 25 or 100 a page, `use_html`
 * as a boolean, a string or not at all) and losses
 * at random points: however each try ends and whatever the person answers (but Send Anyway, the
 * one answer that knowingly risks a copy), no post carrying the draft's text is filed twice, and
 * the draft is removed only once a post carrying it exists.
 */

const profile = fc.record<Profile>({
  name: fc.constant('likely'),
  honoursOrder: fc.boolean(),
  ascOrder: fc.constantFrom('sorts', 'refused'),
  pastEnd: fc.constantFrom('empty', 'notFound'),
  filtersDealsByClient: fc.constant(true),
  maxPerPage: fc.constantFrom(25, 100),
  listsComments: fc.boolean(),
  listsKindOnly: fc.boolean(),
  listContent: fc.constantFrom('full', 'omitted', 'abstract', 'cut', 'unsigned'),
  titleRequired: fc.constant(true),
  deleteAnswer: fc.constant('ok'),
  authorOnCreate: fc.boolean(),
  postUpdates: fc.constantFrom('accepted', 'notFound', 'methodNotAllowed', 'refused422', 'errorBody200'),
  useHtml: fc.constantFrom('boolean', 'string', 'absent'),
});

/** How one try of a POST ends: answered, or lost before or after the service stored it, or refused in some way. */
const tryOutcome = fc.constantFrom<(Omit<FaultRule, 'path'> & { name: string }) | undefined>(
  undefined,
  { name: 'lost before', drop: true },
  { name: 'lost after', dropAfterHandling: true },
  { name: '503 page', status: 503, html: true },
  { name: '500', status: 500 },
  { name: '200 error body', body: { code: 'error', message: 'Something went wrong' } },
  { name: 'garbled', malformedJson: true, status: 201 },
);

const scenario = fc.record({
  profile,
  kind: fc.constantFrom<DraftKind>('bug', 'task', 'comment'),
  /** Posts of this kind the extension filed here before, which the list may have shown. */
  filedBefore: fc.integer({ min: 0, max: 2 }),
  /** The account read its list's first page before the first try (the search's baseline, where the service sorts newest first). */
  listRead: fc.boolean(),
  tries: fc.array(fc.record({ outcome: tryOutcome, answer: fc.constantFrom('Keep Draft', 'Open Helpdesk', undefined) }), {
    minLength: 1,
    maxLength: 4,
  }),
});

describe('property: the lost-answer check', () => {
  it('never files a draft twice, and never drops one that is not on the service', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ profile, kind, filedBefore, listRead, tries }) => {
        const server = await startStandIn({ seed: 'demo', profile });
        try {
          fake.reset();
          const r = rig(server);
          r.signIn();
          const parent = server.store.list(server.prefix, 'posts').find((p) => p.post_id === null)!;
          const create = (text: string) =>
            kind === 'comment'
              ? r.drafts.create({ kind, text: formatDraftDocument('Re: it', text), titled: true, postId: parent.id, accountUrl: r.url })
              : // Each its own title: the same title again is a question of its own (see filedIntents.ts).
                r.drafts.create({ kind, text: formatDraftDocument(`A ${kind}: ${text}`, text), accountUrl: r.url });
          for (let i = 0; i < filedBefore; i++)
            assert.ok(await r.sender.send((await create(`Earlier ${i}`)).id), 'an earlier post is filed');
          if (listRead) await r.account()!.postsPage(1, 50);
          const unique = `Typed once ${Math.random().toString(36).slice(2)}`;
          const draft = await create(unique);
          const carrying = () => server.store.list(server.prefix, 'posts').filter((p) => String(p.content).includes(unique)).length;
          for (const { outcome, answer } of tries) {
            server.clearFaults();
            if (outcome) server.addFault({ ...outcome, method: 'POST', path: '/app/posts.json', times: 1 });
            fake.answers.push(answer);
            await r.sender.send(draft.id);
            fake.answers.length = 0;
            assert.ok(carrying() <= 1, `filed ${carrying()} times`);
            if (!r.drafts.get(draft.id)) assert.equal(carrying(), 1, 'the draft was removed, but no post carries it');
          }
        } finally {
          await server.close();
        }
      }),
      { numRuns: 120 },
    );
  });
});
