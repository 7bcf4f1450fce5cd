import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, HelpdeskClient } from '../../src/api';
import { startStandIn } from '../server';
import { assertNoToken, failure, useStandIn } from './support';

const stand = useStandIn();

const count = (method: string, path: string) => stand.server.requests.filter((r) => r.method === method && r.path === path).length;

describe('retries', () => {
  it('retries a GET after a 503 and succeeds', async () => {
    stand.server.addFault({ path: '/app/clients.json', status: 503, html: true, times: 1 });
    assert.ok(Array.isArray((await stand.client().clients.list()).items));
    assert.equal(count('GET', '/app/clients.json'), 2);
  });

  it('retries a GET after a dropped connection, a 502, 504 and 429', async () => {
    for (const fault of [{ drop: true }, { status: 502 }, { status: 504 }, { status: 429, headers: { 'Retry-After': '0' } }]) {
      stand.server.reset();
      stand.server.addFault({ path: '/app.json', times: 1, ...fault });
      await stand.client().posts.listHelpdesk();
      assert.equal(count('GET', '/app.json'), 2, JSON.stringify(fault));
    }
  });

  it('gives up after two retries', async () => {
    stand.server.addFault({ path: '/app/clients.json', status: 503 });
    await assert.rejects(stand.client().clients.list(), { kind: 'server', status: 503 });
    assert.equal(count('GET', '/app/clients.json'), 3);
  });

  it('does not retry other errors: 500, 401, 404, 422', async () => {
    stand.server.addFault({ path: '/app/clients.json', status: 500 });
    await assert.rejects(stand.client().clients.list(), { kind: 'server' });
    await assert.rejects(stand.client({ token: 'nope/acme' }).posts.listHelpdesk(), { kind: 'auth' });
    await assert.rejects(stand.client().posts.get(424242), { kind: 'notFound' });
    assert.equal(stand.server.requests.length, 3);
  });

  it('never retries a POST or PUT, whatever the failure', async () => {
    const api = stand.client();
    const { id } = await api.clients.create({ name: 'Once' });
    stand.server.reset();
    stand.server.addFault({ status: 503 });
    await assert.rejects(api.posts.createTask({ title: 'x' }), { kind: 'server' });
    await assert.rejects(api.clients.update(id, { note: 'n' }), { kind: 'server' });
    stand.server.clearFaults();
    stand.server.addFault({ drop: true });
    await assert.rejects(api.posts.reportError({ title: 'x', content: 'y' }), { kind: 'network' });
    assert.deepEqual(
      stand.server.requests.map((r) => r.method),
      ['POST', 'PUT', 'POST'],
    );
  });

  it('does not retry a timeout', async () => {
    stand.server.addFault({ path: '/app.json', hang: true });
    await assert.rejects(stand.client({ timeoutMs: 200 }).posts.listHelpdesk(), { kind: 'timeout' });
    assert.equal(count('GET', '/app.json'), 1);
  });

  it('waits as Retry-After says before retrying', async () => {
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': '1' }, times: 1 });
    const started = Date.now();
    await stand.client().posts.listHelpdesk();
    assert.ok(Date.now() - started >= 950, `retried after ${Date.now() - started} ms`);
    assert.equal(count('GET', '/app.json'), 2);
  });

  it('waits no longer than maxRetryAfterSeconds, whatever the service asks (Infinity, a far date, a far reset time)', async () => {
    const cases: Record<string, string>[] = [
      { 'Retry-After': 'Infinity' },
      { 'Retry-After': 'Fri, 31 Dec 2100 23:59:59 GMT' },
      { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 86_400) },
    ];
    for (const headers of cases) {
      stand.server.reset();
      stand.server.addFault({ path: '/app.json', status: 429, headers });
      const started = Date.now();
      const tooLong = new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000).unref());
      const error = await Promise.race([
        failure(stand.client({ timeoutMs: 60_000, maxRetryAfterSeconds: 1 }).posts.listHelpdesk()),
        tooLong,
      ]);
      assert.ok(error instanceof ApiError, `${JSON.stringify(headers)}: ${String(error)}`);
      assert.equal(error.kind, 'rateLimited');
      assert.ok(Date.now() - started < 4000, `${JSON.stringify(headers)}: ${Date.now() - started} ms`);
    }
  });

  it("a Retry-After longer than what is left of the call's time is not waited for: the call ends at once as asked to slow down, not as a timeout", async () => {
    for (const status of [429, 503]) {
      stand.server.reset();
      stand.server.addFault({ path: '/app.json', status, headers: { 'Retry-After': '9.5' } });
      const error = await failure(stand.client({ timeoutMs: 2000 }).posts.listHelpdesk());
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, status === 429 ? 'rateLimited' : 'server', error.message);
      assert.equal(count('GET', '/app.json'), 1, 'asked once');
    }
  });

  it('the log says the wait that really comes: none when the call fails at once, the wait otherwise', async () => {
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': 'Fri, 31 Dec 2100 23:59:59 GMT' }, times: 1 });
    await assert.rejects(stand.client().posts.listHelpdesk(), { kind: 'rateLimited' });
    assert.deepEqual(
      stand.log.map((e) => [e.status, e.retryInSeconds]),
      [[429, undefined]],
    );

    stand.server.reset();
    stand.log.length = 0;
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': '0' }, times: 1 });
    stand.server.addFault({ path: '/app.json', status: 502, times: 1 });
    await stand.client().posts.listHelpdesk();
    assert.deepEqual(
      stand.log.map((e) => [e.status, e.retryInSeconds]),
      [
        [429, 0],
        [502, 0.02],
        [200, undefined],
      ],
      'the backoff doubles at the second retry',
    );

    stand.server.reset();
    stand.log.length = 0;
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': '0' } });
    await assert.rejects(stand.client().posts.listHelpdesk(), { kind: 'rateLimited' });
    assert.deepEqual(
      stand.log.map((e) => e.retryInSeconds),
      [0, 0, undefined],
      'the last attempt is not tried again',
    );
  });

  it('stops retrying when cancelled during the wait', async () => {
    stand.server.addFault({ path: '/app.json', status: 503, headers: { 'Retry-After': '5' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(stand.client().posts.listHelpdesk({}, { signal: controller.signal }), { kind: 'cancelled' });
    assert.equal(count('GET', '/app.json'), 1);
  });
});

describe('redirects', () => {
  it("follows a GET redirect within the account's origin, sending the token there itself (never one the service put in the target)", async () => {
    const api = stand.client();
    const a = await api.clients.create({ name: 'A' });
    const b = await api.clients.create({ name: 'B' });
    for (const query of ['', '?api_token=not-the-token&x=1']) {
      stand.server.reset();
      stand.server.addFault({ path: `/app/clients/${a.id}.json`, redirectTo: `/app/clients/${b.id}.json${query}`, times: 1 });
      assert.equal((await api.clients.get(a.id)).name, 'B', `redirected to ${query || 'a target without a token'}`);
      const followed = stand.server.requests.at(-1)!;
      assert.equal(followed.path, `/app/clients/${b.id}.json`);
      assert.ok(followed.query.api_token === stand.server.token, "the account's own token, once");
    }
  });

  it('does not follow a redirect to another origin, so the token never reaches it', async () => {
    const other = await startStandIn();
    try {
      for (const method of ['GET', 'POST'] as const) {
        stand.server.reset();
        stand.server.addFault({ redirectTo: `${other.url}/app/clients.json` });
        const api = stand.client();
        const error = await failure(method === 'GET' ? api.clients.list() : api.clients.create({ name: 'X' }));
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.kind, 'badResponse');
        assert.equal(error.reason, 'foreignRedirect');
        assert.equal(error.redirectHost, new URL(other.url).host);
        assertNoToken(error, stand.server.token);
        assert.equal(stand.server.requests.length, 1, 'and it is not retried');
      }
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });
});

describe('redirects to a host named after the token', () => {
  it("a redirect whose host holds the token's secret is refused, and the host is quoted redacted", async () => {
    const secret = stand.server.token.split('/')[0]!;
    for (const target of [`https://${secret}.example.com/app.json`, `https://x${secret.toUpperCase()}y.example.com/`]) {
      stand.server.reset();
      stand.server.addFault({ path: '/app.json', redirectTo: target });
      const error = await failure(stand.client().posts.listHelpdesk());
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.reason, 'foreignRedirect');
      assertNoToken(error, stand.server.token);
      assert.ok(
        !error.redirectHost?.toLowerCase().includes(secret) && error.redirectHost?.includes('<redacted>'),
        'the host is quoted redacted',
      );
    }
  });
});

describe('redirects of a write', () => {
  it('never repeats a POST or PUT at a redirect, even within the origin (the first may have been stored)', async () => {
    const api = stand.client();
    const client = await api.clients.create({ name: 'A' });
    for (const [method, call] of [
      ['POST', () => api.posts.createTask({ title: 'Once' })],
      ['PUT', () => api.clients.update(client.id, { name: 'B' })],
    ] as const) {
      stand.server.reset();
      const path = method === 'POST' ? '/app/posts.json' : `/app/clients/${client.id}.json`;
      stand.server.addFault({ method, path, status: 303, redirectTo: `${stand.server.url}${path}` });
      const error = await failure(call());
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, 'badResponse');
      assert.equal(error.reason, 'writeRedirect');
      assert.equal(count(method, path), 1, `${method}: sent once`);
      assertNoToken(error, stand.server.token);
    }
  });
});

describe('request log', () => {
  it('logs every attempt with method, status and time, the token redacted', async () => {
    stand.server.addFault({ path: '/app.json', status: 503, times: 1 });
    await stand.client().posts.listHelpdesk({ page: 2 });
    assert.equal(stand.log.length, 2);
    assert.deepEqual(
      stand.log.map((e) => e.status),
      [503, 200],
    );
    for (const entry of stand.log) {
      assert.equal(entry.method, 'GET');
      assert.match(entry.url, /^\/app\.json\?api_token=<redacted>&page=2$/);
      assert.ok(entry.durationMs >= 0);
      const text = JSON.stringify(entry);
      assert.ok(!text.includes(stand.server.token) && !text.includes(encodeURIComponent(stand.server.token)));
    }
  });

  it('logs attempts that got no answer', async () => {
    stand.server.addFault({ path: '/app/posts.json', drop: true });
    await assert.rejects(stand.client().posts.createTask({ title: 'x' }), { kind: 'network' });
    assert.equal(stand.log.length, 1);
    assert.equal(stand.log[0]!.status, undefined);
    assert.ok(stand.log[0]!.failure);
  });
});

describe('bounds', () => {
  /** A raw server on loopback: `handle` writes the answer its own way. */
  async function rawServer(handle: (response: import('node:http').ServerResponse) => void) {
    const { createServer } = await import('node:http');
    const server = createServer((_request, response) => handle(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    };
  }

  it('one deadline covers the body too: an answer that trickles after its headers times out', async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = await rawServer((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      timers.push(setInterval(() => response.write(' '), 100));
    });
    try {
      const client = new HelpdeskClient({ accountUrl: server.url, token: 'x'.repeat(20), timeoutMs: 800, retryLimit: 0 });
      const started = Date.now();
      const tooLong = new Promise((resolve) => setTimeout(() => resolve('still reading after 4 s'), 4000).unref());
      const error = await Promise.race([failure(client.posts.listHelpdesk()), tooLong]);
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, 'timeout');
      assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
    } finally {
      timers.forEach(clearInterval);
      await server.close();
    }
  });

  it('an answer past the byte cap is refused as it arrives, not read whole', async () => {
    let written = 0;
    const server = await rawServer((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      const chunk = '0,'.repeat(32 * 1024);
      const more = () => {
        while (written < 64 * 1024 * 1024 && response.write(chunk)) written += chunk.length;
        if (written < 64 * 1024 * 1024) response.once('drain', more);
        else response.end('0]');
      };
      more();
    });
    try {
      const client = new HelpdeskClient({ accountUrl: server.url, token: 'x'.repeat(20), maxAnswerBytes: 1024 * 1024, retryLimit: 0 });
      const error = await failure(client.posts.listHelpdesk());
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, 'badResponse');
      assert.equal(error.reason, 'tooLarge');
      assert.ok(written < 32 * 1024 * 1024, `the server wrote ${written} bytes before the client stopped reading`);
    } finally {
      await server.close();
    }
  });
});
