import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Log } from '../../src/log';
import { errorText } from '../../src/ui/errorText';
import { Notifier } from '../../src/ui/notifier';
import { fake } from './fakeVscode';
import { failure, useStandIn } from './support';

/* Errors in words, from the errors the client really makes against the stand-in. */

const stand = useStandIn();

describe('errorText', () => {
  it("a 429 whose Retry-After outlasts the call's time says the service asked to slow down, not that it did not answer", async () => {
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': '9.5' } });
    const text = errorText(await failure(stand.client({ timeoutMs: 2000 }).posts.listHelpdesk()));
    assert.match(text, /asked to slow down \(HTTP 429\)\. Try again in 10 s\./);
    assert.doesNotMatch(text, /did not answer/);
  });

  it('a 429 that asks for a wait of years says "later", not a count of seconds', async () => {
    stand.server.addFault({ path: '/app.json', status: 429, headers: { 'Retry-After': 'Fri, 31 Dec 2100 23:59:59 GMT' } });
    const text = errorText(await failure(stand.client().posts.listHelpdesk()));
    assert.match(text, /asked to slow down \(HTTP 429\)\. Try again later\./);
  });

  it("a 200 whose body is an error: the service's words, and for a write that it may be stored", async () => {
    stand.server.addFault({ method: 'POST', path: '/app/posts.json', body: { error: 'Quota exceeded' } });
    assert.equal(
      errorText(await failure(stand.client().posts.createTask({ title: 'x' }))),
      'The service answered with an error: Quota exceeded. It may have been stored all the same.',
    );
    stand.server.addFault({ method: 'GET', path: '/app.json', body: { error: 'Quota exceeded' } });
    assert.equal(errorText(await failure(stand.client().posts.listHelpdesk())), 'The service answered with an error: Quota exceeded.');
  });

  it('a 403 on a read says this account may not read it, offering no Sign In (the same token would meet the same); a 401 is the sign-in failure', async () => {
    const ui = new Notifier(new Log());
    stand.server.addFault({ method: 'GET', path: '/app/posts/1.json', status: 403, times: 1 });
    const forbidden = await failure(stand.client().posts.get(1));
    const words = errorText(forbidden);
    assert.match(words, /not allowed to read this \(HTTP 403\)/);
    assert.doesNotMatch(words, /[Ss]ign in/);
    fake.reset();
    ui.failure(forbidden, { retry: () => undefined });
    assert.equal(fake.messages.length, 1);
    assert.ok(!fake.messages[0]!.buttons.includes('Sign In Again'), fake.messages[0]!.buttons.join());
    stand.server.addFault({ method: 'GET', path: '/app/posts/1.json', status: 401, times: 1 });
    const rejected = await failure(stand.client().posts.get(1));
    assert.match(errorText(rejected), /Sign in again/);
    fake.reset();
    ui.failure(rejected);
    assert.ok(fake.messages[0]!.buttons.includes('Sign In Again'));
  });
});
