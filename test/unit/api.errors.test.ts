import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { ApiError, type ApiErrorKind } from '../../src/api';
import { assertNoToken, failure, useStandIn } from './support';

const stand = useStandIn();

/** Fails the call, checks its kind and that the token is nowhere in the error, and returns it. */
async function expectError(promise: Promise<unknown>, kind: ApiErrorKind, status?: number): Promise<ApiError> {
  const error = await failure(promise);
  assert.ok(error instanceof ApiError, `expected ApiError, got ${error.name}: ${error.message}`);
  assert.equal(error.kind, kind, error.message);
  assert.equal(error.status, status);
  assertNoToken(error, stand.server.token);
  assert.ok(!('cause' in error), 'no cause that could hold request objects');
  return error;
}

describe('error kinds', () => {
  it('auth: an unknown token is rejected with 401, and that token is not in the error either', async () => {
    const wrong = 'wrongSecret123/acme';
    const error = await expectError(stand.client({ token: wrong }).clients.list(), 'auth', 401);
    assertNoToken(error, wrong);
    assert.equal(error.method, 'GET');
    assert.equal(error.path, '/app/clients.json');
    assert.equal(error.host, new URL(stand.server.url).host);
  });

  it('auth: 403 keeps what the service said about it', async () => {
    stand.server.addFault({ path: '/app/deals.json', status: 403, body: { code: 'error', message: 'No access to deals' } });
    const error = await expectError(stand.client().deals.list(), 'auth', 403);
    assert.equal(error.serverMessage, 'No access to deals');
  });

  it('notFound: an unknown id', async () => {
    const error = await expectError(stand.client().posts.get(987654), 'notFound', 404);
    const host = new URL(stand.server.url).host;
    assert.equal(error.method, 'GET');
    assert.equal(error.path, '/app/posts/987654.json');
    assert.equal(error.host, host);
    assert.ok(error.message.includes(`GET ${host}/app/posts/987654.json`), error.message);
  });

  it('validation: 422 field messages are parsed', async () => {
    const error = await expectError(stand.client().clients.create({ email: 'no-name@x.test' }), 'validation', 422);
    assert.ok(error.fieldErrors?.name?.length, JSON.stringify(error.fieldErrors));
    assert.match(error.serverMessage ?? '', /^name /);
  });

  it('validation: a plain-string message is shown as it is', async () => {
    stand.server.addFault({ method: 'POST', path: '/app/posts.json', status: 422, body: { code: 'error', message: 'Title is too long' } });
    const error = await expectError(stand.client().posts.createTask({ title: 'x' }), 'validation', 422);
    assert.equal(error.serverMessage, 'Title is too long');
    assert.equal(error.fieldErrors, undefined);
  });

  it("validation: a malformed body gets the stand-in's 400", async () => {
    const response = await fetch(`${stand.server.url}/app/clients.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"api_token":',
    });
    assert.equal(response.status, 400);
  });

  it('rateLimited: 429 with a long Retry-After is not waited for and says when to retry', async () => {
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': '120' } });
    const error = await expectError(stand.client().posts.listHelpdesk(), 'rateLimited', 429);
    assert.equal(error.retryAfterSeconds, 120);
    assert.equal(stand.server.requests.length, 1);
  });

  it('server: 500 with a JSON body', async () => {
    stand.server.addFault({ path: '/app/clients.json', status: 500, body: { code: 'error', message: 'boom' } });
    const error = await expectError(stand.client().clients.create({ name: 'X' }), 'server', 500);
    assert.equal(error.serverMessage, 'boom');
  });

  it("server: a 2xx answer whose body is the service's error (no id) keeps its words, for a write and a read", async () => {
    const bodies = [
      { body: { code: 'error', message: 'Title is too long' }, said: 'Title is too long' },
      { body: { error: 'Title is too long' }, said: 'Title is too long' },
      { body: { code: 'error', message: { title: ["can't be blank"] } }, said: "title can't be blank" },
    ];
    for (const { body, said } of bodies) {
      stand.server.reset();
      stand.server.addFault({ method: 'POST', path: '/app/posts.json', body });
      const write = await expectError(stand.client().posts.createTask({ title: 'x' }), 'server', 200);
      assert.equal(write.serverMessage, said, JSON.stringify(body));
      assert.equal(write.method, 'POST');
      stand.server.addFault({ method: 'GET', path: '/app.json', body });
      const read = await expectError(stand.client().posts.listHelpdesk(), 'server', 200);
      assert.equal(read.serverMessage, said, JSON.stringify(body));
    }
  });

  it('a 2xx record that has an id is a record, whatever its code says (a status named "error")', async () => {
    stand.server.addFault({ method: 'GET', path: '/app/clients/5.json', body: { id: 5, code: 'error', name: 'Error Inc.' } });
    assert.equal((await stand.client().clients.get(5)).name, 'Error Inc.');
  });

  it("server: a proxy's HTML 502 page is not shown to the person", async () => {
    stand.server.addFault({ path: '/app.json', status: 502, html: true });
    const error = await expectError(stand.client().posts.listHelpdesk(), 'server', 502);
    assert.equal(error.serverMessage, undefined);
    assert.ok(!/</.test(error.message), error.message);
  });

  it('badResponse: an HTML page with status 200', async () => {
    stand.server.addFault({ path: '/app.json', status: 200, html: true });
    const error = await expectError(stand.client().posts.listHelpdesk(), 'badResponse');
    assert.equal(error.reason, 'html');
  });

  it('badResponse: malformed JSON', async () => {
    stand.server.addFault({ path: '/app.json', malformedJson: true });
    const error = await expectError(stand.client().posts.listHelpdesk(), 'badResponse');
    assert.equal(error.reason, 'notJson');
  });

  it('badResponse: an empty body where a record was expected', async () => {
    stand.server.addFault({ path: '/app/posts.json', emptyBody: true });
    const error = await expectError(stand.client().posts.reportError({ title: 't', content: 'c' }), 'badResponse');
    assert.equal(error.reason, 'empty');
  });

  it('badResponse: JSON of the wrong shape', async () => {
    // A list in an envelope under another key than the plural (`posts`) is not a list of posts.
    stand.server.addFault({ path: '/app.json', status: 200, body: { deals: [] } });
    const notList = await expectError(stand.client().posts.listHelpdesk(), 'badResponse');
    assert.equal(notList.reason, 'unexpected');
    assert.equal(notList.expected, 'a list of posts, got an object');
    stand.server.addFault({ path: '/app/clients.json', method: 'POST', status: 201, body: [1, 2] });
    const notRecord = await expectError(stand.client().clients.create({ name: 'X' }), 'badResponse');
    assert.equal(notRecord.reason, 'unexpected');
    assert.equal(notRecord.expected, 'a client record, got a list');
  });

  it('badResponse: a server that echoes the token still yields a redacted message', async () => {
    const token = stand.server.token;
    stand.server.addFault({
      path: '/app/clients.json',
      status: 422,
      body: { code: 'error', message: `token ${token} / ${encodeURIComponent(token)} is bad` },
      times: 1,
    });
    const error = await expectError(stand.client().clients.create({ name: 'X' }), 'validation', 422);
    assert.match(error.serverMessage ?? '', /^token <redacted> \/ <redacted> is bad$/);
    // Field errors too: field names and messages.
    stand.server.addFault({
      path: '/app/clients.json',
      status: 422,
      body: { code: 'error', message: { name: [`${token} is taken`], [token]: ['bad'] } },
      times: 1,
    });
    const fields = await expectError(stand.client().clients.create({ name: 'X' }), 'validation', 422);
    assert.deepEqual(fields.fieldErrors, { name: ['<redacted> is taken'], '<redacted>': ['bad'] });
    assert.match(fields.serverMessage ?? '', /<redacted>/);
  });

  it('network: nothing listens on the port', async () => {
    const port = await closedPort();
    const error = await expectError(stand.client({ accountUrl: `http://127.0.0.1:${port}`, retryLimit: 0 }).clients.list(), 'network');
    assert.equal(error.code, 'ECONNREFUSED');
  });

  it('network: the connection drops before an answer', async () => {
    stand.server.addFault({ path: '/app/posts.json', drop: true });
    await expectError(stand.client().posts.createTask({ title: 'x' }), 'network');
  });

  it('timeout: no answer within the limit', async () => {
    stand.server.addFault({ path: '/app.json', hang: true });
    const error = await expectError(stand.client({ timeoutMs: 1000 }).posts.listHelpdesk(), 'timeout');
    assert.equal(error.timeoutSeconds, 1);
  });

  it('cancelled: the caller aborts while waiting', async () => {
    stand.server.addFault({ path: '/app.json', latencyMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expectError(stand.client().posts.listHelpdesk({}, { signal: controller.signal }), 'cancelled');
    assert.ok(Date.now() - started < 1500, 'the call ends when aborted, not when the server answers');
  });

  it('cancelled: an already aborted signal sends nothing', async () => {
    await expectError(stand.client().posts.listHelpdesk({}, { signal: AbortSignal.abort() }), 'cancelled');
    assert.equal(stand.server.requests.length, 0);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
