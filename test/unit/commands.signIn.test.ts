import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { verifySignIn } from '../../src/commands/signIn';
import { accountUrlProblem } from '../../src/ui/errorText';
import { Session } from '../../src/accounts/session';
import type { SignOutSignal } from '../../src/accounts/signOutSignal';
import { HelpdeskStore } from '../../src/store/helpdeskStore';
import { Gateway } from '../../src/accounts/gateway';
import { Log } from '../../src/log';
import { Notifier } from '../../src/ui/notifier';
import { type StandIn } from '../server';
import { Secrets, Signal } from './fakeSession';
import { fake } from './fakeVscode';
import { memoryState, MemoryAccountList } from './memoryState';
import { standInsForSuite } from './support';

/* Sign-in as the token box sees it: the problem shown beside it, against the stand-in. */

describe('sign-in problems', () => {
  let server: StandIn;
  let gateway: Gateway;
  let ui: Notifier;

  standInsForSuite(([started]) => (server = started!));

  beforeEach(async () => {
    fake.reset();
    const log = new Log();
    const session = new Session(new Secrets(), log, new Signal() as unknown as SignOutSignal, new MemoryAccountList(), memoryState());
    await session.whenRestored();
    gateway = new Gateway(session, log, memoryState(), new HelpdeskStore(log));
    ui = new Notifier(log);
  });

  const problem = async () => {
    const outcome = await verifySignIn({ gateway, ui }, { accountUrl: server.url, token: server.token });
    assert.equal(outcome.signedIn, false);
    return outcome.problem ?? '';
  };

  it("redirected to a sign-in web page of the same site: the token was rejected, or the address is not the account's", async () => {
    server.addFault({ path: '/app.json', redirectTo: '/users/sign_in' });
    server.addFault({
      path: '/users/sign_in',
      status: 200,
      html: true,
      body: '<!doctype html><title>Sign in</title><form action="/users/sign_in"></form>',
    });
    assert.match(await problem(), /the token was rejected, or the address is not the account's/);
  });

  it('redirected to a sign-in page on another host: the same words', async () => {
    server.addFault({ path: '/app.json', redirectTo: 'https://login.example.com/users/sign_in' });
    assert.match(await problem(), /the token was rejected, or the address is not the account's/);
  });

  it("a redirect to a host that holds the token's secret does not quote the secret", async () => {
    const secret = server.token.split('/')[0]!;
    server.addFault({ path: '/app.json', redirectTo: `https://${secret}.example.com/` });
    const said = await problem();
    assert.ok(!said.toLowerCase().includes(secret.toLowerCase()), said.replace(new RegExp(secret, 'gi'), '<SECRET>'));
    assert.match(said, /<redacted>\.example\.com/);
  });
});

describe('the address box', () => {
  it('shows the fix for a mistyped scheme: the address meant, as it should be typed', () => {
    assert.match(accountUrlProblem('https//acme.sugester.com') ?? '', /https:\/\/acme\.sugester\.com\b/);
    assert.match(accountUrlProblem('https;//acme.sugester.com') ?? '', /https:\/\/acme\.sugester\.com\b/);
    assert.match(accountUrlProblem('https:\\\\acme.sugester.com') ?? '', /https:\/\/acme\.sugester\.com\b/);
    assert.match(accountUrlProblem('https//acme.sugester.com') ?? '', /"https\/\/"/, 'what was typed wrong is named');
  });

  it('names a host that is no host name, and how an address looks', () => {
    const said = accountUrlProblem('https://acme..com') ?? '';
    assert.match(said, /acme\.\.com/);
    assert.match(said, /https:\/\/yourcompany\.example\.com/);
  });
});
