import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { assertNoTokenIn, extensionApi, secretKeyOf, signInToStandIn, standIn, waitFor } from './helpers';

const secretKey = () => secretKeyOf(standIn.url);

describe('sign-in', () => {
  before(async () => {
    await vscode.commands.executeCommand('helpdesk.signOut');
  });

  afterEach(async () => {
    await standIn.clearFaults();
  });

  it('starts signed out, with empty views for the welcome content', async () => {
    const api = await extensionApi();
    assert.equal(api.session.state, 'signedOut');
    assert.deepEqual(await api.posts.getChildren(), []);
    assert.deepEqual(await api.clients.getChildren(), []);
  });

  it('refuses a wrong token without storing anything', async () => {
    const api = await extensionApi();
    const ok = await (await extensionApi()).actions.signIn({ accountUrl: standIn.url, token: 'wrong-token/acme' });
    assert.equal(ok, false);
    assert.equal(api.session.state, 'signedOut');
    assert.equal(await api.context.secrets.get(secretKey()), undefined);
  });

  it('refuses plain http to a host that is not loopback, before sending anything', async () => {
    await standIn.clearRequests();
    const ok = await (await extensionApi()).actions.signIn({ accountUrl: 'http://helpdesk.example.com', token: standIn.token });
    assert.equal(ok, false);
    assert.equal((await standIn.requests()).length, 0);
  });

  it('verifies with one call and keeps the token in secret storage only', async () => {
    await standIn.clearRequests();
    const api = await signInToStandIn();
    assert.equal(api.session.state, 'signedIn');
    const requests = await standIn.requests();
    assert.equal(requests.length, 1, 'one cheap call to verify');
    assert.equal(requests[0]!.path, '/app.json');
    assert.equal(requests[0]!.query.per_page, '1');

    assert.equal(await api.context.secrets.get(secretKey()), standIn.token);
    assert.equal(vscode.workspace.getConfiguration('helpdesk').get('accountUrl'), standIn.url);
    assertNoTokenIn('settings', JSON.stringify(vscode.workspace.getConfiguration('helpdesk')));
    for (const memento of [api.context.globalState, api.context.workspaceState]) {
      for (const key of memento.keys()) assertNoTokenIn(`state "${key}"`, `${key}=${JSON.stringify(memento.get(key))}`);
    }
  });

  it('shows "rejected" when the token stops working, and recovers on sign-in', async () => {
    const api = await signInToStandIn();
    await standIn.addFault({ status: 401 }); // a revoked token fails on every path
    await vscode.commands.executeCommand('helpdesk.refresh');
    await waitFor('the rejected state', () => api.session.state === 'rejected');
    assert.deepEqual(await api.posts.getChildren(), [], 'the welcome view takes over');
    await standIn.clearFaults();
    await signInToStandIn();
    assert.equal(api.session.state, 'signedIn');
  });

  it('shows "unreachable" when the service cannot be reached, and recovers on refresh', async () => {
    const api = await signInToStandIn();
    await standIn.addFault({ path: '/app.json', drop: true });
    await vscode.commands.executeCommand('helpdesk.refresh');
    await waitFor('the unreachable state', () => api.session.state === 'unreachable');
    await standIn.clearFaults();
    await vscode.commands.executeCommand('helpdesk.refresh');
    await waitFor('signed in again', () => api.session.state === 'signedIn');
  });

  it('signing out deletes the secret and empties the views', async () => {
    const api = await signInToStandIn();
    await vscode.commands.executeCommand('helpdesk.signOut');
    assert.equal(api.session.state, 'signedOut');
    assert.equal(await api.context.secrets.get(secretKey()), undefined);
    assert.deepEqual(await api.posts.getChildren(), []);
  });

  /** What another window's SignOutSignal writes when it signs out of `accountUrl`. */
  let announced = 0;
  const announceSignOutElsewhere = async (
    api: TestApi,
    accountUrl: string,
    announcement = { accountUrl, window: 'another window', id: `another window.${++announced}` },
  ) => {
    const file = vscode.Uri.joinPath(api.context.globalStorageUri, 'signed-out.json');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(announcement)));
    return announcement;
  };

  it('follows a sign-out in another window, and deletes its own copy of the token', async () => {
    const api = await signInToStandIn();
    await announceSignOutElsewhere(api, standIn.url);
    await waitFor('signed out', () => api.session.state === 'signedOut');
    assert.equal(await api.context.secrets.get(secretKey()), undefined, 'a stale copy would come back on the next restore');
    assert.deepEqual(await api.posts.getChildren(), []);
  });

  it('acts on one sign-out once: the same report again does not sign out a sign-in made since', async () => {
    let api = await signInToStandIn();
    const announcement = await announceSignOutElsewhere(api, standIn.url);
    await waitFor('signed out', () => api.session.state === 'signedOut');
    api = await signInToStandIn();
    await announceSignOutElsewhere(api, standIn.url, announcement);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the test above sees a sign-out well within this
    assert.equal(api.session.state, 'signedIn');
    assert.equal(await api.context.secrets.get(secretKey()), standIn.token);
  });

  it('stays signed in when another window signs out of a different account', async () => {
    const api = await signInToStandIn();
    await announceSignOutElsewhere(api, 'https://other-account.example.com');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the test above sees a sign-out well within this
    assert.equal(api.session.state, 'signedIn');
    assert.equal(await api.context.secrets.get(secretKey()), standIn.token);
  });

  it('follows the secret storage: a token removed elsewhere signs this window out', async () => {
    const api = await signInToStandIn();
    await api.context.secrets.delete(secretKey());
    await waitFor('signed out', () => api.session.state === 'signedOut');
  });
});
