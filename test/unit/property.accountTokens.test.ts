import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { findPostReferences } from '../../src/code/postReferences';
import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Gateway } from '../../src/accounts/gateway';
import { Log } from '../../src/log';
import { startStandIn, type StandIn } from '../server';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';

/*
 * Several accounts at once: whatever the window's account, whichever account's post address a
 * text holds, and wherever a service redirects, a token only ever reaches its own account's
 * address. Three stand-ins (three addresses, three tokens); every request each one records must
 * carry its own token or none.
 */

describe('property: a token only ever reaches its own account', () => {
  const servers: StandIn[] = [];

  before(async () => {
    for (const prefix of ['alpha', 'beta', 'gamma']) servers.push(await startStandIn({ seed: 'demo', prefix }));
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  it('over random window accounts, references to posts of any account, and redirects to other accounts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.array(
          fc.record({
            to: fc.integer({ min: 0, max: 2 }),
            post: fc.integer({ min: 1, max: 40 }),
            redirectTo: fc.option(fc.integer({ min: 0, max: 2 })),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (windowIndex, hovers) => {
          fake.reset();
          for (const server of servers) server.reset();
          const secrets = new Secrets();
          const list = new MemoryAccountList();
          for (const server of servers) {
            secrets.data.set(`helpdesk.token:${server.url}`, server.token);
            await list.add(server.url);
          }
          fake.config.set('helpdesk.accountUrl', servers[windowIndex]!.url);
          const session = new Session(secrets, new Log(), new Signal() as unknown as SignOutSignal, list, memoryState());
          await session.whenRestored();
          const gateway = new Gateway(session, new Log(), memoryState(), new HelpdeskStore(new Log()));
          try {
            const text = hovers.map((h) => `${servers[h.to]!.url}/app/posts/${h.post}`).join(' and ');
            const references = findPostReferences(text, { accountUrl: session.accountUrl, otherAccountUrls: await list.all() });
            assert.equal(references.length, hovers.length, text);
            for (const [i, reference] of references.entries()) {
              const hover = hovers[i]!;
              const redirectTo = hover.redirectTo;
              if (redirectTo !== null)
                servers[hover.to]!.addFault({
                  path: `/app/posts/${hover.post}.json`,
                  redirectTo: `${servers[redirectTo]!.url}/app/posts/${hover.post}.json`,
                  times: 1,
                });
              const account = await gateway.accountFor(reference.accountUrl ?? session.accountUrl!);
              assert.equal(account?.url, servers[hover.to]!.url, 'the reference is read with its own account');
              await account.post(reference.postId).catch(() => undefined);
            }
            for (const server of servers) {
              for (const request of server.requests) {
                const token = request.query.api_token;
                assert.ok(token === undefined || token === server.token, `${server.url} received another account's token`);
                const whole = JSON.stringify(request);
                for (const other of servers)
                  if (other !== server)
                    assert.ok(
                      !whole.includes(other.token.split('/')[0]!),
                      `${server.url} received ${other.url}'s token somewhere in a request`,
                    );
              }
            }
          } finally {
            gateway.dispose();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
