import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { extensionApi, outputLog, signInToStandIn, standInOf, useCleanSlate, waitFor } from './helpers';

const likely = standInOf('likely');
const contrary = standInOf('contrary');

/** The workspace's settings file as written (the binding goes there). */
function workspaceSettings(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  try {
    return readFileSync(join(folder.uri.fsPath, '.vscode', 'settings.json'), 'utf8');
  } catch {
    return '';
  }
}

describe('several accounts', () => {
  useCleanSlate();
  afterEach(async () => {
    const api = await extensionApi();
    await api.session.bindWorkspace(undefined);
    await signInToStandIn();
  });

  it('signed in to two: both listed; Switch Account moves this window and its views to the other, without a token asked', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    assert.equal(api.session.accountUrl, contrary.url);
    await vscode.commands.executeCommand('helpdesk.switchAccount', likely.url);
    assert.equal(api.session.accountUrl, likely.url);
    const accounts = await api.session.signedInAccounts();
    assert.ok(accounts.includes(likely.url) && accounts.includes(contrary.url), accounts.join(', '));
    assert.equal(api.gateway.current?.account?.url, likely.url, 'the calls go to the account switched to');
    await waitFor('the view to name the account', () => api.postsView.description?.startsWith(new URL(likely.url).host));
    await waitFor('the Clients view to name it too', () => api.clientsView.description === new URL(likely.url).host);
    await vscode.commands.executeCommand('helpdesk.switchAccount', contrary.url);
    assert.equal(api.gateway.current?.account?.url, contrary.url);
  });

  it('Use This Account for This Workspace writes the address (never the token) into the workspace settings; a switch elsewhere then leaves this workspace on it', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // likely, this window's now
    await vscode.commands.executeCommand('helpdesk.useAccountForWorkspace');
    const written = workspaceSettings();
    assert.ok(written.includes(likely.url), written);
    for (const token of [likely.token, contrary.token])
      assert.ok(!written.includes(token.split('/')[0]!), 'no token in the workspace settings');
    assert.equal(api.session.boundAccountUrl, likely.url);
    // Signing in to another account here stores it, and the workspace stays on its own.
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    assert.equal(api.session.accountUrl, likely.url);
    assert.ok((await api.session.signedInAccounts()).includes(contrary.url));
    // The account new windows start with changes; this workspace stays on its own.
    await vscode.workspace.getConfiguration().update('helpdesk.accountUrl', likely.url, vscode.ConfigurationTarget.Global);
    await api.session.restore();
    assert.equal(api.session.accountUrl, likely.url);
    // Unbound, the window takes the account last chosen in it: the one signed in to here last.
    await vscode.commands.executeCommand('helpdesk.stopUsingAccountForWorkspace');
    await waitFor('the window to take the account last chosen in it', () => api.session.accountUrl === contrary.url);
    assert.ok(!workspaceSettings().includes(likely.url), 'the binding is gone');
  });

  it('signing out of one account leaves the other signed in, in this window too', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn();
    await vscode.commands.executeCommand('helpdesk.signOut', contrary.url);
    assert.equal(api.session.accountUrl, likely.url, "still this window's account");
    assert.equal(api.session.state, 'signedIn');
    assert.deepEqual(
      (await api.session.signedInAccounts()).filter((url) => url === contrary.url),
      [],
      'the other is gone',
    );
    await vscode.commands.executeCommand('helpdesk.switchAccount', contrary.url);
    assert.equal(api.session.accountUrl, likely.url, 'no switch to an account signed out of');
  });

  it('a draft written for one account, sent from a window on the other, goes to its own account with its own token, and says so', async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    const control = (path: string, init?: RequestInit) => fetch(`${contrary.url}/__standin/${path}`, init);
    await control('faults', {
      method: 'POST',
      body: JSON.stringify({ method: 'POST', path: '/app/posts.json', status: 503, html: true, times: 1 }),
    });
    await api.actions.createTask({ title: `Written for contrary ${Date.now()}`, content: 'Kept' });
    const [draft] = api.drafts.all();
    assert.ok(draft && draft.accountUrl === contrary.url, 'kept as a draft of the contrary account');
    await signInToStandIn(); // this window: likely
    await control('requests', { method: 'DELETE' });
    await fetch(`${likely.url}/__standin/requests`, { method: 'DELETE' });
    const logged = outputLog(api).length;
    await vscode.commands.executeCommand('helpdesk.sendDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
    await waitFor('the draft to be sent', () => api.drafts.all().length === 0);
    await waitFor('the notification to name the account', () => outputLog(api).slice(logged).includes(`created. (in ${contrary.url})`));
    const there = (await (await control('requests')).json()) as { method: string; path: string }[];
    const here = (await (await fetch(`${likely.url}/__standin/requests`)).json()) as { method: string; path: string }[];
    assert.ok(
      there.some((r) => r.method === 'POST' && r.path === '/app/posts.json'),
      'filed at the contrary stand-in',
    );
    assert.ok(!here.some((r) => r.method === 'POST'), "nothing filed at the window's account");
    await control('faults', { method: 'DELETE' });
  });

  it("a post address of each account signed in to hovers with that account's token, and both link into the editor", async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // this window: likely
    const [theirs] = (await (
      await fetch(`${contrary.url}/app.json?api_token=${encodeURIComponent(contrary.token)}&per_page=1`)
    ).json()) as { id: number; title: string }[];
    assert.ok(theirs);
    const document = await vscode.workspace.openTextDocument({
      content: `// ${contrary.url}/app/posts/${theirs.id} and ${likely.url}/app/posts/${theirs.id}`,
      language: 'typescript',
    });
    const clear = (url: string) => fetch(`${url}/__standin/requests`, { method: 'DELETE' });
    await clear(contrary.url);
    await clear(likely.url);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(0, 5),
    );
    // As shown: the hover's Markdown escapes server text and the host with character references.
    const text = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
      .join('\n')
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    assert.ok(text.includes(new URL(contrary.url).host), `names the account:\n${text}`);
    assert.ok(!/could not be loaded|Sign in/.test(text), `read with its token:\n${text}`);
    const asked = async (url: string) =>
      ((await (await fetch(`${url}/__standin/requests`)).json()) as { path: string }[]).map((r) => r.path);
    const postPath = `/app/posts/${theirs.id}.json`;
    assert.deepEqual(
      (await asked(contrary.url)).filter((path) => path === postPath),
      [postPath],
      'asked at its own address',
    );
    assert.deepEqual(
      (await asked(likely.url)).filter((path) => path === postPath),
      [],
      "not asked of the window's account",
    );
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
    assert.deepEqual(
      links.map((l) => l.target?.scheme),
      ['helpdesk-post', 'helpdesk-post'],
      'both open in the editor',
    );
    for (const link of links) assert.ok(!link.target?.toString().includes(contrary.token.split('/')[0]!), 'no token in a link');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("a post address of another account opens its post in the editor, read with that account's token; a post document stays its account's after a switch", async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn(); // this window: likely
    const [theirs] = (await (
      await fetch(`${contrary.url}/app.json?api_token=${encodeURIComponent(contrary.token)}&per_page=1`)
    ).json()) as { id: number }[];
    assert.ok(theirs);
    // The document names the web page of the account it was read from.
    const ofTheirs = `${contrary.url}/app/posts/${theirs.id}`;
    const document = await vscode.workspace.openTextDocument({
      content: `// ${contrary.url}/app/posts/${theirs.id}`,
      language: 'typescript',
    });
    const [link] = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
    assert.ok(link?.target);
    await fetch(`${likely.url}/__standin/requests`, { method: 'DELETE' });
    const shown = await vscode.workspace.openTextDocument(link.target);
    assert.ok(shown.getText().includes(ofTheirs), `the other account's post:\n${shown.getText().slice(0, 400)}`);
    const asked = ((await (await fetch(`${likely.url}/__standin/requests`)).json()) as { path: string }[]).map((r) => r.path);
    assert.ok(!asked.includes(`/app/posts/${theirs.id}.json`), "not read from the window's account");
    // A post of this window's account, opened here, stays that account's once the window switches.
    const [ours] = (await (await fetch(`${likely.url}/app.json?api_token=${encodeURIComponent(likely.token)}&per_page=1`)).json()) as {
      id: number;
    }[];
    assert.ok(ours);
    await api.postDocuments.open(ours.id);
    const opened = vscode.window.activeTextEditor?.document.uri;
    assert.ok(opened);
    await vscode.commands.executeCommand('helpdesk.switchAccount', contrary.url);
    assert.equal(api.session.accountUrl, contrary.url);
    await vscode.commands.executeCommand('helpdesk.openPostAsText', opened);
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(text.includes(`${likely.url}/app/posts/${ours.id}`), `still the first account's post:\n${text.slice(0, 400)}`);
    // Open in Browser on it goes to that account's page too (Copy Link shows the same).
    await vscode.commands.executeCommand('helpdesk.copyLink', opened);
    assert.equal(await vscode.env.clipboard.readText(), `${likely.url}/app/posts/${ours.id}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("VS Code's Accounts menu lists each account signed in to; signing out of one takes it away there", async () => {
    const api = await extensionApi();
    assert.equal(await api.actions.signIn({ accountUrl: contrary.url, token: contrary.token }), true);
    await signInToStandIn();
    const listed = async () => (await vscode.authentication.getAccounts('helpdesk')).map((a) => a.id);
    await waitFor(
      'both accounts in the Accounts menu',
      async () => (await listed()).includes(contrary.url) && (await listed()).includes(likely.url),
    );
    await vscode.commands.executeCommand('helpdesk.signOut', contrary.url);
    await waitFor('the account signed out of to leave the menu', async () => !(await listed()).includes(contrary.url));
    assert.ok((await listed()).includes(likely.url));
  });
});
