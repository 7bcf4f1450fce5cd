// The fault matrix: every failure the service (or the road to it) can produce, injected by the
// stand-in server, with the outcome a person sees. One table for reading a view, one for
// sending something typed; then deleted records, lost answers, races and a very large account.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Post } from '../../../src/api';
import type { TestApi } from '../../../src/extension';
import type { HelpdeskNode } from '../../../src/views/nodes';
import { startStandIn } from '../../server';
import type { FaultRule } from '../../server';
import { extensionApi, labelOf, logShows, signInToStandIn, standIn, useCleanSlate, waitFor } from './helpers';

type Rule = Omit<FaultRule, 'path'> & { path?: string; pathPattern?: string };

const config = () => vscode.workspace.getConfiguration('helpdesk');
const postRows = (nodes: HelpdeskNode[]) => nodes.filter((n) => n.contextValue?.startsWith('post'));
const count = async (method: string, path: string) =>
  (await standIn.requests()).filter((r) => r.method === method && r.path === path).length;

async function refreshPosts(api: TestApi): Promise<HelpdeskNode[]> {
  await vscode.commands.executeCommand('helpdesk.refreshPosts');
  return api.posts.getChildren();
}

interface ReadCase {
  fault: string;
  rule: Rule;
  /** Seconds for helpdesk.requestTimeoutSeconds during the case. */
  timeoutSeconds?: number;
  /** What the view shows: fresh rows, or what was there with an error row saying this. */
  expect: { rows: 'fresh' } | { error: RegExp } | { state: 'rejected' | 'unreachable'; error?: RegExp };
  /** GET /app.json requests for one refresh (retries included). */
  requests: number;
  /** A line the output channel must show. */
  logs?: RegExp;
}

const html = { html: true };
const READS: ReadCase[] = [
  { fault: '401 in the middle of a session', rule: { status: 401 }, expect: { state: 'rejected' }, requests: 1 },
  {
    fault: '403',
    rule: { status: 403, body: { code: 'error', message: 'Insufficient rights' } },
    expect: { error: /not allowed to read this \(HTTP 403\): Insufficient rights\. Ask the helpdesk's administrator for access/ },
    requests: 1,
  },
  {
    fault: '429 with Retry-After: 1, once',
    rule: { status: 429, headers: { 'Retry-After': '1' }, times: 1 },
    expect: { rows: 'fresh' },
    requests: 2,
    logs: /slow down \(HTTP 429\): waiting 1 s/,
  },
  {
    fault: '429 with Retry-After: 60',
    rule: { status: 429, headers: { 'Retry-After': '60' } },
    expect: { error: /asked to slow down \(HTTP 429\)\. Try again in 60 s/ },
    requests: 1,
  },
  {
    fault: '429 with Retry-After: 9.5, more than the call has left',
    rule: { status: 429, headers: { 'Retry-After': '9.5' } },
    timeoutSeconds: 5,
    expect: { error: /asked to slow down \(HTTP 429\)\. Try again in 10 s/ },
    requests: 1,
  },
  {
    fault: "200 whose body is the service's error",
    rule: { body: { code: 'error', message: 'Read-only for maintenance' } },
    expect: { error: /The service answered with an error: Read-only for maintenance\./ },
    requests: 1,
  },
  {
    fault: '500 with an HTML page',
    rule: { status: 500, ...html },
    expect: { error: /The service failed \(HTTP 500\)\. Try again later\./ },
    requests: 1,
  },
  { fault: '502 with an HTML page, once', rule: { status: 502, ...html, times: 1 }, expect: { rows: 'fresh' }, requests: 2 },
  {
    fault: '503 with an HTML page, every time',
    rule: { status: 503, ...html },
    expect: { error: /The service failed \(HTTP 503\)\. Try again later\./ },
    requests: 3,
  },
  {
    fault: 'a timeout (no answer)',
    rule: { hang: true },
    timeoutSeconds: 1,
    expect: { state: 'unreachable', error: /did not answer within 1 s/ },
    requests: 1,
  },
  {
    fault: 'a reset connection',
    rule: { drop: true },
    expect: { state: 'unreachable', error: /closed before an answer came/ },
    requests: 3,
  },
  { fault: 'malformed JSON', rule: { malformedJson: true }, expect: { error: /not valid JSON/ }, requests: 1 },
  { fault: 'an empty body', rule: { emptyBody: true }, expect: { error: /empty answer where a record was expected/ }, requests: 1 },
];

describe('fault matrix: the Helpdesk view', () => {
  useCleanSlate();
  afterEach(async () => {
    await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  for (const c of READS) {
    const outcome =
      'rows' in c.expect
        ? 'waits or retries, then shows the posts'
        : 'state' in c.expect
          ? `the session goes "${c.expect.state}"`
          : 'the loaded rows stay, with a row saying what failed';
    it(`${c.fault}: ${outcome}`, async () => {
      const api = await extensionApi();
      const shown = await refreshPosts(api);
      const before = postRows(shown);
      assert.ok(
        before.length > 0,
        `rows before the fault: ${shown.map(labelOf).join(' | ')} (${api.session.state}, ${api.store.posts.state.items.length} items, error ${String(api.store.posts.state.error)})`,
      );
      if (c.timeoutSeconds) await config().update('requestTimeoutSeconds', c.timeoutSeconds, vscode.ConfigurationTarget.Global);
      await standIn.clearRequests();
      await standIn.addFault({ method: 'GET', path: '/app.json', ...c.rule });

      const nodes = await refreshPosts(api);
      const errorRow = nodes.find((n) => n.id === 'posts:error');
      if ('rows' in c.expect) {
        assert.equal(errorRow, undefined);
        assert.deepEqual(
          postRows(nodes).map((n) => n.id),
          before.map((n) => n.id),
        );
      } else {
        if ('state' in c.expect) assert.equal(api.session.state, c.expect.state);
        else assert.equal(api.session.state, 'signedIn', 'the token is still good');
        if (c.expect.error) {
          assert.match(labelOf(errorRow ?? { label: '(no error row)' }), c.expect.error);
          assert.doesNotMatch(labelOf(errorRow!), /<html|nginx/i, 'no HTML in the message');
          assert.deepEqual(
            postRows(nodes).map((n) => n.id),
            before.map((n) => n.id),
            'what was loaded stays',
          );
        }
        if (api.session.state === 'rejected') assert.deepEqual(nodes, [], 'the "Sign In Again" welcome view takes over');
      }
      assert.equal(await count('GET', '/app.json'), c.requests, 'requests, retries included');
      if (c.logs) await logShows(api, c.logs);

      await standIn.clearFaults();
      if (api.session.state === 'rejected') await signInToStandIn();
      const recovered = await refreshPosts(api);
      assert.equal(
        recovered.find((n) => n.id === 'posts:error'),
        undefined,
        'a refresh after the fault recovers',
      );
      assert.equal(api.session.state, 'signedIn');
    });
  }
});

describe('an error on a page after the first: the rows read stay, and the list ends with a retry', () => {
  useCleanSlate();
  afterEach(async () => {
    await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  const run = (row: vscode.TreeItem) => vscode.commands.executeCommand(row.command!.command, ...(row.command!.arguments ?? []));

  it('the Helpdesk view: "Could not load more", and Retry goes on from there', async () => {
    const api = await extensionApi();
    await config().update('pageSize', 10, vscode.ConfigurationTarget.Global);
    const first = postRows(await refreshPosts(api));
    assert.ok(first.length > 0);
    await standIn.addFault({ method: 'GET', path: '/app.json', status: 500, times: 1 });
    await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
    const nodes = await api.posts.getChildren();
    assert.deepEqual(
      postRows(nodes).map((n) => n.id),
      first.map((n) => n.id),
      'the rows shown stay',
    );
    const last = nodes.at(-1)!;
    assert.equal(last.id, 'posts:error');
    assert.match(labelOf(last), /^Could not load more: The service failed \(HTTP 500\).*Click to retry\.$/);
    await run(last);
    const after = await api.posts.getChildren();
    assert.equal(
      after.find((n) => n.id === 'posts:error'),
      undefined,
      'the retry worked',
    );
    assert.ok(postRows(after).length > first.length, 'the next page came');
    assert.deepEqual(
      postRows(after)
        .slice(0, first.length)
        .map((n) => n.id),
      first.map((n) => n.id),
    );
  });

  it('deals under a client: the deals read stay, "Could not load more" ends them, and Retry reads them all', async function () {
    const api = await extensionApi();
    const create = async (path: string, body: object) => {
      const response = await fetch(`${standIn.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_token: standIn.token, ...body }),
      });
      return ((await response.json()) as { id: number }).id;
    };
    // More deals than one page holds (100), so that a second page is asked for.
    const clientId = await create('/app/clients.json', { client: { name: 'AAA Many Deals' } });
    const dealIds: number[] = [];
    try {
      for (let i = 1; i <= 101; i++)
        dealIds.push(await create('/app/deals.json', { deal: { name: `Deal ${String(i).padStart(3, '0')}`, client_id: clientId } }));
      await vscode.commands.executeCommand('helpdesk.refreshClients');
      const client = (await api.clients.getChildren()).find((n) => n.id === `client:${clientId}`);
      assert.ok(client, 'the new client is listed');
      // The first page passes (a rule with a latency only), the second fails.
      await standIn.addFault({ method: 'GET', path: '/app/deals.json', latencyMs: 1, times: 1 });
      await standIn.addFault({ method: 'GET', path: '/app/deals.json', status: 500, times: 1 });
      const rows = await api.clients.getChildren(client);
      assert.equal(rows.filter((n) => n.contextValue === 'deal').length, 100, 'the deals of page 1 stay');
      const last = rows.at(-1)!;
      assert.match(labelOf(last), /^Could not load more: The service failed \(HTTP 500\).*Click to retry\.$/);
      assert.ok(last.command, 'the row retries');
      await run(last);
      const again = await api.clients.getChildren(client);
      assert.equal(again.filter((n) => n.contextValue === 'deal').length, 101, `every deal: ${labelOf(again.at(-1)!)}`);
      assert.ok(
        again.every((n) => n.contextValue === 'deal'),
        'no error row left',
      );
    } finally {
      for (const id of dealIds) await standIn.deleteRecord('deals', id);
      await standIn.deleteRecord('clients', clientId);
      await vscode.commands.executeCommand('helpdesk.refreshClients');
    }
  });

  it('deals under a client: the first page fails: an error row that retries', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('helpdesk.refreshClients');
    const client = (await api.clients.getChildren()).find((n) => n.contextValue === 'client')!;
    await standIn.addFault({ method: 'GET', path: '/app/deals.json', status: 500, times: 1 });
    const rows = await api.clients.getChildren(client);
    assert.equal(rows.length, 1);
    assert.match(labelOf(rows[0]!), /^Could not load deals: The service failed \(HTTP 500\)/);
    assert.ok(rows[0]!.command, 'the row retries');
    await run(rows[0]!);
    const again = await api.clients.getChildren(client);
    assert.ok(!again.some((n) => /^Could not load/.test(labelOf(n))), 'the retry worked');
  });
});

interface WriteCase {
  fault: string;
  rule: Rule;
  timeoutSeconds?: number;
  /** The notification, as the output channel records it. */
  says: RegExp;
  state?: 'rejected' | 'unreachable';
  /** Did the stand-in store the post although no good answer came? */
  stored: boolean;
}

const WRITES: WriteCase[] = [
  {
    fault: '401 while sending',
    rule: { status: 401 },
    says: /Not sent: The API token was rejected \(HTTP 401\).*Your draft is kept/,
    state: 'rejected',
    stored: false,
  },
  {
    fault: '403 while sending',
    rule: { status: 403 },
    says: /Not sent: The API token is not allowed to do this \(HTTP 403\)/,
    stored: false,
  },
  {
    fault: '422 with field messages',
    rule: { status: 422, body: { code: 'error', message: { title: ["can't be blank"], content: ['is too long'] } } },
    says: /Not sent: .*title can't be blank; content is too long.*Your draft is kept/,
    stored: false,
  },
  {
    fault: '429 (a POST is never retried by itself)',
    rule: { status: 429, headers: { 'Retry-After': '30' } },
    says: /Not sent: .*asked to slow down \(HTTP 429\)\. Try again in 30 s/,
    stored: false,
  },
  {
    fault: "200 whose body is the service's error",
    rule: { body: { code: 'error', message: 'Read-only for maintenance' } },
    says: /Not sent: The service answered with an error: Read-only for maintenance\. It may have been stored all the same\. Your draft is kept\./,
    stored: false,
  },
  {
    fault: '500 with an HTML page',
    rule: { status: 500, ...html },
    says: /Not sent: The service failed \(HTTP 500\)\. Try again later\./,
    stored: false,
  },
  {
    fault: 'a timeout',
    rule: { hang: true },
    timeoutSeconds: 1,
    says: /Not sent: .*did not answer within 1 s/,
    state: 'unreachable',
    stored: false,
  },
  {
    fault: 'a reset connection',
    rule: { drop: true },
    says: /Not sent: Could not reach .*closed before an answer came/,
    state: 'unreachable',
    stored: false,
  },
  {
    fault: 'malformed JSON',
    rule: { malformedJson: true },
    says: /Not sent: The service sent an answer that is not valid JSON/,
    stored: false,
  },
  { fault: 'an empty body', rule: { emptyBody: true }, says: /Not sent: The service sent an empty answer/, stored: false },
  {
    fault: 'stored, then the connection dropped',
    rule: { dropAfterHandling: true },
    says: /Not sent: Could not reach .*closed before an answer came/,
    state: 'unreachable',
    stored: true,
  },
];

describe('fault matrix: sending a task (nothing typed is lost, nothing is filed twice)', () => {
  useCleanSlate();
  afterEach(async () => {
    await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  for (const c of WRITES) {
    it(`${c.fault}: the draft is kept, and sending it again files it once`, async () => {
      const api = await extensionApi();
      await refreshPosts(api);
      const title = `Fault: ${c.fault} ${Date.now()}`;
      if (c.timeoutSeconds) await config().update('requestTimeoutSeconds', c.timeoutSeconds, vscode.ConfigurationTarget.Global);
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', times: 1, ...c.rule });

      const result = await api.actions.createTask({ title, content: 'Typed with care' });
      assert.equal(result, undefined, 'not reported as created');
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      assert.match(draft.text, new RegExp(`^${title.replace(/[()]/g, '\\$&')}\\n`));
      assert.equal(await count('POST', '/app/posts.json'), 1, 'one POST: never retried by itself');
      if (c.state) assert.equal(api.session.state, c.state);
      await logShows(api, c.says);
      const stored = async () =>
        (
          await fetch(`${standIn.url}/app.json?api_token=${encodeURIComponent(standIn.token)}&per_page=20&order=id.desc`).then(
            (r) => r.json() as Promise<Post[]>,
          )
        ).filter((p) => p.title === title);
      assert.equal((await stored()).length, c.stored ? 1 : 0, c.stored ? 'the service has it' : 'the service does not have it');

      await standIn.clearFaults();
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      if (api.session.state === 'rejected') await signInToStandIn();
      await vscode.commands.executeCommand('helpdesk.sendDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      await waitFor('the draft to be removed', () => api.drafts.all().length === 0);
      assert.equal((await stored()).length, 1, 'filed exactly once');
      assert.equal(await count('POST', '/app/posts.json'), c.stored ? 1 : 2, c.stored ? 'found, not sent again' : 'sent again');
      if (c.stored) await logShows(api, /was on the helpdesk already.*Not sent again/);
    });
  }
});

describe('deleted records, stale answers and large accounts', () => {
  useCleanSlate();

  it('an open post is read again when it is opened again', async () => {
    const api = await extensionApi();
    const id = Number(postRows(await refreshPosts(api))[2]!.id!.split(':')[1]);
    await api.postDocuments.open(id);
    const editor = await waitFor('the post editor', () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'helpdesk-post' ? vscode.window.activeTextEditor : undefined,
    );
    assert.doesNotMatch(editor.document.getText(), /Could not load/);
    await standIn.deleteRecord('posts', id);
    await api.postDocuments.open(id);
    await waitFor('the post to be read again', () => /Could not load post #\d+: Not found/.test(editor.document.getText()));
  });

  it('404: a post deleted elsewhere leaves the tree on refresh; opening it says so', async () => {
    const api = await extensionApi();
    const rows = postRows(await refreshPosts(api));
    const doomed = Number(rows[0]!.id!.split(':')[1]);
    await standIn.deleteRecord('posts', doomed);
    assert.ok(!postRows(await refreshPosts(api)).some((n) => n.id === `post:${doomed}`), 'gone after a refresh');

    const other = Number(rows[1]!.id!.split(':')[1]);
    await standIn.deleteRecord('posts', other);
    await api.postDocuments.open(other);
    const editor = await waitFor('the post editor', () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'helpdesk-post' ? vscode.window.activeTextEditor : undefined,
    );
    assert.match(editor.document.getText(), new RegExp(`Could not load post #${other}: Not found \\(HTTP 404\\)`));
    assert.ok(!postRows(await api.posts.getChildren()).some((n) => n.id === `post:${other}`), 'and it leaves the tree at once');
  });

  it('404 while commenting (the task was deleted meanwhile): the comment stays a draft', async () => {
    const api = await extensionApi();
    const id = Number(postRows(await refreshPosts(api))[0]!.id!.split(':')[1]);
    await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 404, times: 1 });
    const result = await api.actions.commentOnTask({ postId: id, text: 'Still reproducible' });
    assert.equal(result, undefined);
    assert.match(api.drafts.all()[0]?.text ?? '', /^Re: .*\n\nStill reproducible\n$/);
    await logShows(api, /Not sent: Not found \(HTTP 404\).*It may have been deleted\. Your draft is kept\./);
  });

  it('rapid refreshes: one load in flight, and a slow stale answer never overwrites a fresh one', async () => {
    const api = await extensionApi();
    await refreshPosts(api);
    const stale = [{ id: 999_999, title: 'STALE ANSWER', content: '', kind: 'question' }];
    await standIn.addFault({ method: 'GET', path: '/app.json', times: 1, latencyMs: 600, body: stale });
    await standIn.clearRequests();

    const slow = vscode.commands.executeCommand('helpdesk.refreshPosts');
    await waitFor('the slow request to reach the server', async () => (await count('GET', '/app.json')) === 1);
    const fresh = vscode.commands.executeCommand('helpdesk.refreshPosts');
    // The view asking again and again while it loads (switching views, scrolling) joins the load.
    const asked = await Promise.all([
      api.posts.getChildren(),
      api.posts.getChildren(),
      vscode.commands.executeCommand('helpdesk.loadMore', 'posts'),
      api.posts.getChildren(),
    ]);
    await Promise.all([slow, fresh]);
    await new Promise((resolve) => setTimeout(resolve, 800)); // the stale answer has arrived by now

    const labels = postRows(await api.posts.getChildren()).map(labelOf);
    assert.ok(!labels.includes('STALE ANSWER'), 'the aborted, slower answer was dropped');
    assert.ok(labels.length > 0);
    assert.ok(!postRows(asked[0]).map(labelOf).includes('STALE ANSWER'));
    assert.equal(await count('GET', '/app.json'), 2, 'the two refreshes, and nothing for the joined asks');
  });

  it('a 50,000-post account: only the pages asked for are loaded', async function () {
    const large = await startStandIn({ seed: { posts: 50_000 } });
    try {
      const api = await extensionApi();
      const ok = await api.actions.signIn({ accountUrl: large.url, token: large.token });
      assert.equal(ok, true);
      large.requests.length = 0;
      const first = await refreshPosts(api);
      assert.equal(first.at(-1)?.contextValue, 'loadMore');
      await vscode.commands.executeCommand('helpdesk.loadMore', 'posts');
      await api.posts.getChildren();
      const pages = large.requests.filter((r) => r.path === '/app.json').map((r) => r.query.page);
      assert.deepEqual(
        pages,
        ['1', '2'],
        `two pages for two asks; ${api.session.accountUrl} vs ${large.url}: ${large.requests.map((r) => r.path).join(' ')}`,
      );
      assert.equal(api.store.posts.state.items.length, 100, 'two pages of 50');
    } finally {
      await large.close();
      await signInToStandIn();
    }
  });
});

/** The extension's ApiError is another bundle's class: tell it by its fields. */
const isAuthError = (error: Error & { kind?: string }) => error.name === 'ApiError' && error.kind === 'auth';

describe('a rejected token, whichever call meets it', () => {
  useCleanSlate();

  it('401 while Comment on Task reads the task: the views say the token was rejected', async () => {
    const api = await extensionApi();
    const id = Number(postRows(await refreshPosts(api))[0]!.id!.split(':')[1]);
    await standIn.addFault({ method: 'GET', path: `/app/posts/${id}.json`, status: 401 });
    await assert.rejects(api.actions.commentOnTask({ postId: id, text: 'Seen again' }), isAuthError);
    assert.equal(api.session.state, 'rejected');
    assert.deepEqual(await api.posts.getChildren(), [], 'the "Sign In Again" welcome view takes over');
  });

  it("401 met by a command (Comment on Task on a post's document): the command says so in words, and the views too", async () => {
    const api = await extensionApi();
    const id = Number(postRows(await refreshPosts(api))[0]!.id!.split(':')[1]);
    await standIn.addFault({ method: 'GET', path: `/app/posts/${id}.json`, status: 401 });
    const result = await vscode.commands.executeCommand(
      'helpdesk.commentOnTask',
      vscode.Uri.from({ scheme: 'helpdesk-post', path: `/${id}.md` }),
    );
    assert.equal(result, undefined, 'the command ends, nothing thrown at the caller');
    assert.equal(api.session.state, 'rejected');
    await logShows(api, /Notification: The API token was rejected \(HTTP 401\)\. Sign in again with a current token\./);
  });

  it('401 while Link Deal writes: the views say the token was rejected', async () => {
    const api = await extensionApi();
    const deals = (await fetch(`${standIn.url}/app/deals.json?api_token=${encodeURIComponent(standIn.token)}`).then((r) => r.json())) as {
      id: number;
      client_id: number | null;
    }[];
    const free = deals.find((d) => d.client_id === null)!;
    const clients = (await fetch(`${standIn.url}/app/clients.json?api_token=${encodeURIComponent(standIn.token)}`).then((r) =>
      r.json(),
    )) as { id: number }[];
    await standIn.addFault({ method: 'PUT', path: `/app/deals/${free.id}.json`, status: 401 });
    await assert.rejects(api.actions.linkDeal({ clientId: clients[0]!.id, dealId: free.id }), isAuthError);
    assert.equal(api.session.state, 'rejected');
    assert.deepEqual(await api.clients.getChildren(), [], 'the "Sign In Again" welcome view takes over');
  });
});
