import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { HelpdeskClient, type HelpdeskClientOptions, type RequestLogEntry } from '../../src/api';
import { Account } from '../../src/api/account';
import { ListKnowledge, type KnowledgeState } from '../../src/api/listKnowledge';
import { startStandIn, type StandIn, type StandInOptions } from '../server';
import { memoryState } from './memoryState';

export interface Fixture {
  server: StandIn;
  /** A client signed in to the stand-in, with quick retries for tests. */
  client(options?: Partial<HelpdeskClientOptions>): HelpdeskClient;
  /** Every attempt the clients made, as their `onRequest` logged it. */
  log: RequestLogEntry[];
}

/** Starts one stand-in server for the test file and clears its requests and faults before each test. */
export function useStandIn(options: StandInOptions = {}): Fixture {
  const fixture = { log: [] as RequestLogEntry[] } as Fixture;
  before(async () => {
    fixture.server = await startStandIn(options);
  });
  after(() => fixture.server.close());
  beforeEach(() => {
    fixture.server.reset();
    fixture.log.length = 0;
  });
  fixture.client = (overrides = {}) =>
    new HelpdeskClient({
      accountUrl: fixture.server.url,
      token: fixture.server.token,
      retryDelayMs: 10,
      onRequest: (entry) => fixture.log.push(entry),
      ...overrides,
    });
  return fixture;
}

/** Rejects with the error the promise rejects with, and fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

/** Asserts that no form of the token appears anywhere in the error: message, stack, JSON, own fields. */
export function assertNoToken(error: Error, token: string): void {
  const secret = token.split('/')[0]!;
  const forms = [token, encodeURIComponent(token), secret];
  const views = [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(Object.entries(error)), String(error)];
  for (const view of views) {
    for (const form of forms) assert.ok(!view.includes(form), `token found in error: ${view.replace(secret, '<SECRET>')}`);
  }
}

/**
 * Stand-ins for the describe() that calls this, one for each of `options` (the demo data when
 * none): started before its tests and handed to `take`, closed after them, and reset before each
 * test, ahead of the describe's own beforeEach.
 */
export function standInsForSuite(take: (servers: StandIn[]) => void, ...options: StandInOptions[]): void {
  const servers: StandIn[] = [];
  before(async () => {
    servers.push(...(await Promise.all((options.length ? options : [{ seed: 'demo' as const }]).map((o) => startStandIn(o)))));
    take(servers);
  });
  after(() => Promise.all(servers.map((server) => server.close())));
  beforeEach(() => {
    for (const server of servers) server.reset();
  });
}

/** An Account on a stand-in, as the gateway makes one, with quick retries for tests; its list knowledge in `state`. */
export function accountOn(server: StandIn, state: KnowledgeState = memoryState()): Account {
  const api = new HelpdeskClient({ accountUrl: server.url, token: server.token, retryDelayMs: 10 });
  return new Account(server.url, {
    api: () => api,
    signal: new AbortController().signal,
    knowledge: new ListKnowledge(state, server.url),
    log: () => undefined,
  });
}
