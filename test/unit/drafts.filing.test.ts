import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type ApiErrorKind, type Post } from '../../src/api';
import type { Draft, DraftKind, UnconfirmedSend } from '../../src/drafts/draft';
import { formatDraftDocument } from '../../src/drafts/draftDocument';
import { fileDraft, type Filing, type FilingAccount, type FilingContext } from '../../src/drafts/filing';
import type { FiledSought, FindOutcome } from '../../src/api/filedSearch';

/* The exactly-once protocol alone: no editor, no service, no store. Every call it makes to the
 * account and every marker it writes goes into one trail, in order. */

const apiError = (kind: ApiErrorKind, status?: number) =>
  new ApiError({ kind, method: 'POST', path: '/app/posts.json', host: 'acme.example.com', status });

interface Desk {
  /** The draft as the store holds it now: each marker written lands here. */
  draft: Draft;
  trail: string[];
  /** Where the search looked. */
  sought: FiledSought[];
  /** What was sent, in order. */
  sent: { title: string; content: string; parentId?: number; client_id?: number | null }[];
  logged: string[];
  /** The search's next answer. */
  found: Post | FindOutcome | Error;
  /** The create's next answer: a post, or an error thrown; `hang` waits for the cancel. */
  created: Post | Error | 'hang';
  remembering: 'ok' | 'fails';
  /** The step whose signal is aborted once its call has started (1 = the first call to the service). */
  cancelStep?: number;
  /** The newest post the account saw heading its list, sent newest first (the baseline a first attempt writes). */
  newestListed: number | undefined;
  /** Files `draft`; `signedInToIt` false: its account is not signed in to. */
  file(more?: Partial<FilingContext>, signedInToIt?: boolean): Promise<Filing>;
}

function desk(kind: DraftKind = 'task', text = formatDraftDocument('A title', 'Typed with care'), more: Partial<Draft> = {}): Desk {
  let steps = 0;
  const d: Desk = {
    draft: {
      id: 'd1',
      kind,
      text,
      accountUrl: 'https://acme.example.com',
      createdAt: 1,
      updatedAt: 1,
      ...(kind === 'comment' ? { postId: 7, titled: true } : {}),
      ...more,
    },
    trail: [],
    sought: [],
    sent: [],
    logged: [],
    found: 'absent',
    created: { id: 101 },
    remembering: 'ok',
    newestListed: 40,
    // What a filing remembers of its post is written in the turn after (see `noted`): waited for here.
    file: async (more = {}, signedInToIt = true) => {
      const filing = await fileDraft(d.draft, signedInToIt ? account : undefined, {
        signedIn: true,
        markers,
        step,
        log: (message) => void d.logged.push(message),
        ...more,
      });
      if ('noted' in filing) await filing.noted;
      return filing;
    },
  };
  const created = (what: string, body: Desk['sent'][number], signal?: AbortSignal): Promise<Post> => {
    d.trail.push(what);
    d.sent.push(body);
    const answer = d.created;
    if (answer === 'hang') return new Promise((_, reject) => signal!.addEventListener('abort', () => reject(apiError('cancelled'))));
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const account: FilingAccount = {
    get newestListed() {
      return d.newestListed;
    },
    findFiled: async (sought, signal) => {
      d.trail.push('findFiled');
      d.sought.push(sought);
      await Promise.resolve();
      if (signal?.aborted) throw apiError('cancelled');
      if (d.found instanceof Error) throw d.found;
      return d.found;
    },
    noteFiled: async (noted, id, ref) => {
      d.trail.push(`noteFiled ${noted} #${id} ${ref}`);
      if (d.remembering === 'fails') throw new Error('storage full');
    },
    createTask: (task, signal) =>
      created('createTask', { title: task.title, content: task.content ?? '', client_id: task.client_id }, signal),
    reportError: (report, signal) => created('reportError', { title: report.title, content: report.content }, signal),
    addComment: (parentId, comment, signal) =>
      created('addComment', { title: comment.title, content: comment.content, parentId, client_id: comment.client_id }, signal),
  };
  const markers = {
    setUnconfirmed: async (id: string, unconfirmed: UnconfirmedSend | undefined) => {
      assert.equal(id, d.draft.id);
      d.trail.push(unconfirmed ? `mark ${unconfirmed.ref}` : 'unmark');
      d.draft = { ...d.draft, unconfirmed };
    },
    endAttempt: async (id: string) => {
      assert.equal(id, d.draft.id);
      d.trail.push('end attempt');
      d.draft = { ...d.draft, unconfirmed: undefined, ref: undefined };
    },
  };
  const step = <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    d.trail.push('step');
    const called = call(controller.signal);
    // Cancel pressed while the call is on its way.
    if (++steps === d.cancelStep) controller.abort();
    return called;
  };
  return d;
}

const refOf = (d: Desk) => d.draft.unconfirmed?.ref ?? assert.fail('no marker');

describe('fileDraft', () => {
  it('a new draft: the marker, with the baseline, is written before the post is sent, and the post is remembered after', async () => {
    const d = desk();
    const filing = await d.file();
    const ref = refOf(d);
    assert.match(ref, /^hb-[0-9a-z]{10}$/);
    assert.deepEqual(d.trail, [`mark ${ref}`, 'step', 'createTask', `noteFiled task #101 ${ref}`]);
    assert.deepEqual(d.draft.unconfirmed, { ref, sentText: d.draft.text, newestPostId: 40, markerAtHead: true });
    assert.equal(d.sent[0]!.content, `Sent from VS Code · ${ref}\n\nTyped with care`);
    assert.ok(filing.outcome === 'filed');
    assert.deepEqual([filing.post, filing.sentText], [{ id: 101 }, d.draft.text]);
  });

  it('no baseline known: none is written, and a later search reads the list to its end', async () => {
    const d = desk();
    d.newestListed = undefined;
    await d.file();
    assert.equal(d.draft.unconfirmed?.newestPostId, undefined);
  });

  it('each kind goes to its own call, with its title, its owner, and the marker heading its content', async () => {
    const bug = desk('bug', formatDraftDocument('Crash', 'It crashed'), { clientId: 3 });
    await bug.file();
    assert.deepEqual(bug.sent, [{ title: 'Crash', content: `Sent from VS Code · ${refOf(bug)}\n\nIt crashed` }]);
    const task = desk('task', formatDraftDocument('Do it', 'Soon'), { clientId: 3 });
    await task.file();
    assert.deepEqual(task.sent, [{ title: 'Do it', content: `Sent from VS Code · ${refOf(task)}\n\nSoon`, client_id: 3 }]);
    const comment = desk('comment', formatDraftDocument('Re: it', 'Said once'));
    await comment.file();
    assert.deepEqual(comment.sent, [
      { title: 'Re: it', content: `Sent from VS Code · ${refOf(comment)}\n\nSaid once`, parentId: 7, client_id: undefined },
    ]);
    const old = desk('comment', 'All content\n', { titled: undefined });
    await old.file();
    assert.equal(old.sent[0]!.title, 'Re: #7', 'a comment from before comments had titles gets one');
  });

  it("refuses, touching nothing, where it cannot send: signed out, the draft's account not signed in to, an empty title, an empty comment", async () => {
    const cases: [Desk, Partial<FilingContext>, boolean, string][] = [
      [desk(), { signedIn: false }, false, 'signedOut'],
      [desk(), { signedIn: true }, false, 'accountSignedOut'],
      [desk('task', '\n\nOnly a body\n'), {}, true, 'emptyTitle'],
      [desk('comment', 'Re: it\n'), {}, true, 'emptyComment'],
      // Signed out wins over what the draft lacks, and a marker from before changes nothing.
      [desk('task', '', { unconfirmed: { ref: 'hb-0123456789' } }), { signedIn: false }, false, 'signedOut'],
    ];
    for (const [d, context, signedInToIt, why] of cases) {
      assert.deepEqual(await d.file(context, signedInToIt), { outcome: 'refused', why });
      assert.deepEqual(d.trail, [], why);
    }
  });

  for (const [name, error] of [
    ['refused (422)', apiError('validation', 422)],
    ['unavailable (503)', apiError('server', 503)],
  ] as const) {
    it(`a clear "not stored", ${name}: failed, and the marker written for the attempt is forgotten`, async () => {
      const d = desk();
      d.created = error;
      const filing = await d.file();
      assert.deepEqual(filing, { outcome: 'failed', error, mayBeStored: false });
      assert.deepEqual(d.trail.slice(1), ['step', 'createTask', 'unmark']);
      assert.equal(d.draft.unconfirmed, undefined, 'the next send sends at once');
    });
  }

  for (const [name, error] of [
    ['no answer', apiError('network')],
    ['a timeout', apiError('timeout')],
    ['a server error', apiError('server', 500)],
    ['a 200 whose body is an error', apiError('validation', 200)],
    ['a garbled answer', apiError('badResponse', 201)],
    ['something else', new Error('surprise')],
  ] as const) {
    it(`${name} may have stored the post: failed, and the marker kept for the next send to look with`, async () => {
      const d = desk();
      d.created = error;
      const filing = await d.file();
      assert.deepEqual(filing, { outcome: 'failed', error, mayBeStored: true });
      assert.equal(d.trail.at(-1), 'createTask');
      assert.ok(d.draft.unconfirmed?.ref);
    });
  }

  it('a lost answer, then a second send: the post that carries the marker is filed earlier, remembered, and not sent again', async () => {
    const d = desk();
    d.created = apiError('network');
    await d.file();
    const ref = refOf(d);
    const firstText = d.draft.text;
    d.trail.length = 0;
    d.found = { id: 77 };
    d.newestListed = 99;
    const filing = await d.file();
    assert.deepEqual(d.trail, ['step', 'findFiled', `noteFiled task #77 ${ref}`]);
    assert.deepEqual(
      d.sought,
      [{ kind: 'task', ref, after: 40, parentId: undefined, markerAtHead: true }],
      "with the first attempt's baseline",
    );
    assert.ok(filing.outcome === 'filedEarlier');
    assert.equal(filing.post.id, 77);
    assert.equal(filing.sentText, firstText, 'the text it was filed with, to tell edits since');
  });

  it('a comment is looked for on its post', async () => {
    const d = desk('comment', formatDraftDocument('Re: it', 'Said once'), { unconfirmed: { ref: 'hb-0123456789', markerAtHead: true } });
    await d.file();
    assert.equal(d.sought[0]!.parentId, 7);
  });

  it('proven not filed: the next attempt goes with the same marker and baseline, and writes nothing first when nothing changed', async () => {
    const d = desk();
    d.created = apiError('network');
    await d.file();
    const mark = d.draft.unconfirmed;
    d.trail.length = 0;
    d.created = { id: 102 };
    d.newestListed = 99;
    const filing = await d.file();
    assert.deepEqual(d.trail, ['step', 'findFiled', 'step', 'createTask', `noteFiled task #102 ${mark!.ref}`]);
    assert.deepEqual(d.draft.unconfirmed, mark);
    assert.equal(filing.outcome, 'filed');
  });

  it('edited between attempts: the marker is written again with the text now sent, before it goes', async () => {
    const d = desk();
    d.created = apiError('network');
    await d.file();
    const ref = refOf(d);
    d.draft = { ...d.draft, text: formatDraftDocument('A title', 'Typed with care, and more') };
    d.trail.length = 0;
    d.created = { id: 102 };
    await d.file();
    assert.deepEqual(d.trail.slice(0, 4), ['step', 'findFiled', `mark ${ref}`, 'step']);
    assert.equal(d.draft.unconfirmed?.sentText, d.draft.text);
    assert.equal(d.draft.unconfirmed?.newestPostId, 40);
  });

  for (const doubt of ['unsure', 'unproven'] as const) {
    it(`not found, and its absence not proven (${doubt}): maybe filed, nothing sent; sent anyway, it goes with the same marker and no second search`, async () => {
      const d = desk('task', formatDraftDocument('A title', 'Typed'), {
        unconfirmed: { ref: 'hb-0123456789', sentText: formatDraftDocument('A title', 'Typed'), markerAtHead: true },
      });
      d.found = doubt;
      const filing = await d.file();
      assert.equal(filing.outcome === 'maybeFiled' && filing.doubt, doubt);
      assert.deepEqual(d.trail, ['step', 'findFiled']);
      d.trail.length = 0;
      const again = await d.file({ resendAnyway: true });
      assert.deepEqual(d.trail, ['step', 'createTask', 'noteFiled task #101 hb-0123456789']);
      assert.equal(d.sent[0]!.content, 'Sent from VS Code · hb-0123456789\n\nTyped');
      assert.equal(again.outcome, 'filed');
    });
  }

  it('an attempt from before markers cannot be looked for: maybe filed at once; sent anyway, a marker is written first, at the head', async () => {
    const d = desk('task', formatDraftDocument('A title', 'Typed'), { unconfirmed: { newestPostId: 12 } });
    assert.equal((await d.file()).outcome, 'maybeFiled');
    assert.deepEqual(d.trail, ['step'], 'no search');
    d.trail.length = 0;
    await d.file({ resendAnyway: true });
    const ref = refOf(d);
    assert.deepEqual(d.trail, [`mark ${ref}`, 'step', 'createTask', `noteFiled task #101 ${ref}`]);
    assert.deepEqual(d.draft.unconfirmed, { ref, sentText: d.draft.text, newestPostId: 12, markerAtHead: true });
  });

  it('a marker of an earlier version (at the end of the content) is looked for as such, and moves to the head for the next attempt', async () => {
    const d = desk('task', formatDraftDocument('A title', 'Typed'), {
      unconfirmed: { ref: 'hb-0123456789', sentText: formatDraftDocument('A title', 'Typed') },
    });
    await d.file();
    assert.equal(d.sought[0]!.markerAtHead, false);
    assert.deepEqual(d.trail.slice(0, 3), ['step', 'findFiled', 'mark hb-0123456789']);
    assert.equal(d.draft.unconfirmed?.markerAtHead, true);
  });

  it('cancelled while the post is on its way: failed, and the marker kept, since it may have arrived', async () => {
    const d = desk();
    d.created = 'hang';
    d.cancelStep = 1;
    const filing = await d.file();
    assert.ok(filing.outcome === 'failed');
    assert.equal(filing.error instanceof ApiError && filing.error.kind, 'cancelled');
    assert.equal(filing.mayBeStored, true);
    assert.deepEqual(d.trail.slice(1), ['step', 'createTask'], 'no "not stored" write after it');
    assert.ok(d.draft.unconfirmed?.ref);
  });

  it('cancelled during the search: failed, nothing sent, the marker as it was', async () => {
    const d = desk('task', formatDraftDocument('A title', 'Typed'), { unconfirmed: { ref: 'hb-0123456789', markerAtHead: true } });
    d.cancelStep = 1;
    const filing = await d.file();
    assert.equal(filing.outcome === 'failed' && filing.mayBeStored, true);
    assert.deepEqual(d.trail, ['step', 'findFiled']);
    assert.deepEqual(d.draft.unconfirmed, { ref: 'hb-0123456789', markerAtHead: true });
  });

  it('a search that fails: failed, nothing sent, the marker kept', async () => {
    const d = desk('task', formatDraftDocument('A title', 'Typed'), { unconfirmed: { ref: 'hb-0123456789', markerAtHead: true } });
    d.found = apiError('network');
    const filing = await d.file();
    assert.deepEqual(filing, { outcome: 'failed', error: d.found, mayBeStored: true });
    assert.deepEqual(d.trail, ['step', 'findFiled']);
  });

  it('a later attempt refused (422) keeps the marker: the attempt before it, whose answer was lost, may be on the service', async () => {
    const d = desk('task', formatDraftDocument('A title', 'Typed'), { unconfirmed: { ref: 'hb-0123456789', markerAtHead: true } });
    d.created = apiError('validation', 422);
    const filing = await d.file({ resendAnyway: true });
    assert.equal(filing.outcome === 'failed' && filing.mayBeStored, true);
    assert.ok(!d.trail.includes('unmark'));
  });

  it('a post filed is filed, even where remembering it fails: the failure is logged', async () => {
    const d = desk();
    d.remembering = 'fails';
    assert.equal((await d.file()).outcome, 'filed');
    assert.deepEqual(d.logged, ['Could not remember post #101 as filed']);
  });
});
