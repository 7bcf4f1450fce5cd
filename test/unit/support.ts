import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { HelpdeskClient, type HelpdeskClientOptions, type RequestLogEntry } from '../../src/api';
import { startStandIn, type StandIn, type StandInOptions } from '../server';

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
