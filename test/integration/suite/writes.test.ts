import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Deal, Post } from '../../../src/api';
import { DraftStore } from '../../../src/drafts/drafts';
import { draftFolder, presenceFolder } from '../../../src/drafts/draftFolders';
import { PROFILES } from '../../server';
import { extensionApi, forEachProfile, labelOf, logShows, standIn, useCleanSlate, waitFor, withoutRef } from './helpers';

type Body = Record<string, unknown> & { post?: Record<string, unknown>; deal?: Record<string, unknown> };

async function lastPost(method: string, path: string): Promise<Body> {
  const request = (await standIn.requests()).filter((r) => r.method === method && r.path === path).at(-1);
  assert.ok(request, `the server received ${method} ${path}`);
  return request.body as Body;
}

/** A record straight from the stand-in, as a reader of the web app would see it. */
async function read<T>(path: string): Promise<T> {
  const response = await fetch(`${standIn.url}${path}?api_token=${encodeURIComponent(standIn.token)}`);
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

forEachProfile((profile) =>
  describe('writing', () => {
    useCleanSlate();

    it("Comment on Task sends post_id, task_kind comment, a title, the text and the parent's client and responsible person", async () => {
      const parents = await read<Post[]>('/app.json');
      const parent = parents.find((p) => p.client_id && p.responsible_id && p.task_kind !== 'comment' && !p.post_id)!;
      const comment = await (await extensionApi()).actions.commentOnTask({ postId: parent.id, text: 'Reproduced on 2.3.1' });
      assert.ok(comment?.id);
      const body = await lastPost('POST', '/app/posts.json');
      assert.equal(body.api_token, standIn.token);
      assert.deepEqual(
        { ...body.post, content: withoutRef(body.post?.content) },
        {
          title: `Re: ${parent.title}`,
          content: 'Reproduced on 2.3.1',
          client_id: parent.client_id,
          responsible_id: parent.responsible_id,
          post_id: parent.id,
          task_kind: 'comment',
        },
      );
      assert.equal((await read<Post>(`/app/posts/${parent.id}.json`)).comments_cache, (parent.comments_cache ?? 0) + 1);
      assert.deepEqual((await extensionApi()).drafts.all(), [], 'the draft is gone once the server confirmed');
    });

    it('Create Task sends title, content and client, and the task appears at the top of the view', async () => {
      const api = await extensionApi();
      const client = (await read<{ id: number }[]>('/app/clients.json'))[0]!;
      const task = await api.actions.createTask({ title: 'Renew the certificate', content: 'Expires Friday', clientId: client.id });
      assert.ok(task?.id);
      const body = await lastPost('POST', '/app/posts.json');
      assert.deepEqual(
        { ...body.post, content: withoutRef(body.post?.content) },
        { title: 'Renew the certificate', content: 'Expires Friday', task_kind: 'task', client_id: client.id },
      );
      const first = (await api.posts.getChildren())[0]!;
      assert.equal(first.id, `post:${task.id}`);
    });

    it("Link Deal sets an unlinked deal's client_id, and the client shows it", async () => {
      const api = await extensionApi();
      const free = (await read<Deal[]>('/app/deals.json')).find((d) => d.client_id === null)!;
      assert.ok(free, 'the demo has deals without a client');
      const client = (await read<{ id: number }[]>('/app/clients.json'))[1]!;
      await api.actions.linkDeal({ clientId: client.id, dealId: free.id });
      const body = await lastPost('PUT', `/app/deals/${free.id}.json`);
      assert.deepEqual(body.deal, { client_id: client.id });
      const node = (await api.clients.getChildren()).find((n) => n.id === `client:${client.id}`)!;
      const deals = await api.clients.getChildren(node);
      assert.ok(deals.some((d) => d.id === `deal:${free.id}`));
    });

    it("Link Deal creates a new deal for the client with a name, a price and the workspace's repository", async () => {
      const client = (await read<{ id: number }[]>('/app/clients.json'))[2]!;
      const deal = await (
        await extensionApi()
      ).actions.linkDeal({ clientId: client.id, newDeal: { name: 'Support renewal', price: 990.5 } });
      assert.ok(deal?.id);
      const body = await lastPost('POST', '/app/deals.json');
      assert.deepEqual(body.deal, {
        name: 'Support renewal',
        client_id: client.id,
        price: 990.5,
        external_ids: { repository: 'https://github.com/example/sample' },
      });
    });

    it('an answer lost after the task was stored: sending it again files nothing twice, wherever the service lists it', async () => {
      const api = await extensionApi();
      await vscode.commands.executeCommand('helpdesk.refreshPosts');
      await api.posts.getChildren();
      const title = `Lost answer ${Date.now()}`;
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await api.actions.createTask({ title, content: 'Filed once' }), undefined, 'not reported as created');
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      const send = () =>
        vscode.commands.executeCommand('helpdesk.sendDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      const postsSent = async () => (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json').length;
      // Wherever the service lists it (newest first, or oldest first whatever it is asked), the
      // marker the first try carried finds that very post: nothing to ask, nothing sent again.
      await send();
      await waitFor('the draft to be gone', () => api.drafts.all().length === 0);
      assert.equal(await postsSent(), 1, 'filed once');
      await logShows(api, /was on the helpdesk already/);
      const [first] = (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json');
      assert.match(
        String((first?.body as { post: { content: string } }).post.content),
        /^Sent from VS Code · hb-[0-9a-z]{10}\n\nFiled once$/,
        'the marker at the head of the content',
      );
      assert.equal((await api.posts.getChildren()).filter((n) => labelOf(n) === title).length, 1, 'the view shows it once');
    });

    it('an answer lost, then the draft edited: the post found is the first try, and the edited draft is kept, not sent', async () => {
      const api = await extensionApi();
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await api.actions.createTask({ title: `Edited after ${Date.now()}`, content: 'First words' }), undefined);
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      const uri = vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` });
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await editor.edit((e) => e.insert(new vscode.Position(editor.document.lineCount, 0), 'Second thoughts\n'));
      await vscode.commands.executeCommand('helpdesk.sendDraft', uri);
      await logShows(
        api,
        /was on the helpdesk already: your earlier attempt reached it.*You edited the draft since, so it is kept and not sent/,
      );
      const kept = api.drafts.all();
      assert.equal(kept.length, 1, 'the edited draft is kept');
      assert.match(kept[0]!.text, /Second thoughts/);
      assert.equal(kept[0]!.unconfirmed, undefined, 'no longer waiting on the first try: sending it files it anew');
      assert.equal(
        (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json').length,
        1,
        'nothing sent again',
      );
    });

    const listsComments = PROFILES[profile].listsComments;
    it(`a comment whose answer was lost: ${listsComments ? 'found by its marker among the listed comments' : 'comments are not listed, so the person is asked'}`, async () => {
      const api = await extensionApi();
      const parent = (await read<Post[]>('/app.json')).find((p) => !p.post_id && p.task_kind !== 'comment')!;
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', dropAfterHandling: true, times: 1 });
      assert.equal(await api.actions.commentOnTask({ postId: parent.id, text: 'Said once' }), undefined, 'not reported as added');
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      if (!listsComments) api.ui.answerNextQuestion('Keep Draft');
      await vscode.commands.executeCommand('helpdesk.sendDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      const commentsSent = async () => (await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json').length;
      if (!listsComments) {
        await logShows(
          api,
          /Your comment on #\d+ may have been filed: the answer to your earlier attempt was lost, and the helpdesk's list did not show a comment filed from VS Code/,
        );
        assert.equal(api.drafts.all().length, 1, 'kept');
      } else {
        await waitFor('the draft to be gone', () => api.drafts.all().length === 0);
        await logShows(api, /was on the helpdesk already/);
      }
      assert.equal(await commentsSent(), 1, 'not sent again');
    });

    it('two presses of Send at once (a double click, or Retry while Send runs) file the draft once', async () => {
      const api = await extensionApi();
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 503, html: true, times: 1 });
      await api.actions.createTask({ title: `Pressed twice ${Date.now()}`, content: 'Once is enough' });
      const [draft] = api.drafts.all();
      assert.ok(draft, 'a draft to send');
      await standIn.clearRequests();
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', hold: true, times: 1 });
      const uri = vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` });
      const presses = Promise.all([
        vscode.commands.executeCommand('helpdesk.sendDraft', uri),
        vscode.commands.executeCommand('helpdesk.sendDraft', uri),
      ]);
      // The first press's POST held at the helpdesk while the second press runs.
      await waitFor('the POST to be under way', async () => (await standIn.requests()).some((r) => r.method === 'POST'));
      await standIn.release();
      await presses;
      await waitFor('the draft to be sent', () => api.drafts.all().length === 0);
      assert.equal((await standIn.requests()).filter((r) => r.method === 'POST' && r.path === '/app/posts.json').length, 1, 'one POST');
    });

    it('Discard Draft throws away that draft only, and leaves another unsaved file as it is', async () => {
      const api = await extensionApi();
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 503, html: true, times: 1 });
      await api.actions.createTask({ title: 'To be discarded', content: 'x' });
      const [draft] = api.drafts.all();
      assert.ok(draft);
      const other = await vscode.workspace.openTextDocument({ content: 'unsaved work', language: 'plaintext' });
      await vscode.window.showTextDocument(other);
      await (await vscode.window.showTextDocument(other)).edit((e) => e.insert(new vscode.Position(0, 0), 'more '));
      api.ui.answerNextQuestion('Discard');
      await vscode.commands.executeCommand('helpdesk.discardDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      assert.deepEqual(api.drafts.all(), [], 'the draft is gone');
      assert.ok(vscode.workspace.textDocuments.includes(other), 'the other file is still open');
      assert.equal(other.getText(), 'more unsaved work', 'and keeps what was typed');
      assert.ok(other.isDirty);
    });

    it('Retry and Send All send what an edited, open draft shows, and leave other editors alone', async () => {
      const api = await extensionApi();
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 503, html: true, times: 1 });
      await api.actions.createTask({ title: 'Retry me', content: 'Old words' });
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      const editor = await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` })),
      );
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), 'Retry me\n\nNew words\n'));
      assert.ok(editor.document.isDirty, 'edited, not saved');
      const other = await vscode.workspace.openTextDocument({ content: 'unsaved work', language: 'plaintext' });
      const otherEditor = await vscode.window.showTextDocument(other);
      await otherEditor.edit((e) => e.insert(new vscode.Position(0, 0), 'more '));

      await api.sender.send(draft.id);
      await waitFor('the draft to be sent', () => api.drafts.all().length === 0);
      assert.equal(withoutRef((await lastPost('POST', '/app/posts.json')).post?.content), 'New words', 'what the editor showed');
      assert.ok(vscode.workspace.textDocuments.includes(other), 'the other file is still open');
      assert.equal(other.getText(), 'more unsaved work');
      assert.ok(other.isDirty);
    });

    it('a failed send keeps the draft, and Send Draft delivers it later', async () => {
      const api = await extensionApi();
      const parent = (await read<Post[]>('/app.json')).find((p) => !p.post_id)!;
      await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 503, html: true });
      const result = await api.actions.commentOnTask({ postId: parent.id, text: 'Do not lose me' });
      assert.equal(result, undefined);
      const [draft] = api.drafts.all();
      assert.ok(draft, 'the draft is kept');
      assert.equal(draft.text, `Re: ${parent.title}\n\nDo not lose me\n`, 'its title, then the text');
      assert.equal((await standIn.requests()).filter((r) => r.method === 'POST').length, 1, 'a POST is never retried by itself');

      await standIn.clearFaults();
      await vscode.commands.executeCommand('helpdesk.sendDraft', vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      assert.deepEqual(api.drafts.all(), []);
      assert.equal(withoutRef((await lastPost('POST', '/app/posts.json')).post?.content), 'Do not lose me');
    });

    it('a draft opened in the editor is saved back to the store and sent from there', async () => {
      const api = await extensionApi();
      await standIn.addFault({
        method: 'POST',
        path: '/app/posts.json',
        status: 422,
        body: { code: 'error', message: { title: ["can't be blank"] } },
        times: 1,
      });
      await api.actions.createTask({ title: 'x' });
      const [draft] = api.drafts.all();
      assert.ok(draft);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` }));
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, document.lineCount, 0), 'Corrected title\n\nNow with details\n'));
      await vscode.commands.executeCommand('helpdesk.sendDraft');
      await waitFor('the draft to be sent', () => api.drafts.all().length === 0);
      const body = await lastPost('POST', '/app/posts.json');
      assert.equal(body.post?.title, 'Corrected title');
      assert.equal(withoutRef(body.post?.content), 'Now with details');
    });

    it('Open Post shows the post read-only, its content fenced so nothing in it renders', async () => {
      const hostile = await fetch(`${standIn.url}/app/posts.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          api_token: standIn.token,
          post: { title: 'Hostile <script>alert(1)</script>', content: 'before\n```\n<img src="https://evil.example/x.png">\n```\nafter' },
        }),
      });
      const post = (await hostile.json()) as Post;
      await (await extensionApi()).postDocuments.open(post.id);
      const editor = await waitFor('the post editor', () =>
        vscode.window.activeTextEditor?.document.uri.scheme === 'helpdesk-post' ? vscode.window.activeTextEditor : undefined,
      );
      const text = editor.document.getText();
      assert.match(text, /^# Hostile \\<script\\>alert\(1\)\\<\/script\\>/);
      assert.match(text, /\n````text\nbefore\n```\n<img/, 'a fence longer than the one inside');
      assert.ok(!editor.document.isDirty);
    });

    it('Open Post on a post already open shows it as the service has it now, once the command is done', async () => {
      const api = await extensionApi();
      const post = await api.actions.createTask({ title: `Before ${Date.now()}`, content: 'Words' });
      assert.ok(post);
      await api.postDocuments.open(post.id);
      // The post's document names its account.
      const uri = vscode.Uri.from({
        scheme: 'helpdesk-post',
        path: `/${post.id}.md`,
        query: new URLSearchParams({ account: standIn.url }).toString(),
      }).toString();
      const document = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      assert.match(document()?.getText() ?? '', /^# Before/);
      await standIn.changeRecord('posts', post.id, { title: 'After the web app' });
      // Closed, the document stays known to VS Code for a while: opening it again must read it again.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.ok(document(), 'still known');
      await api.postDocuments.open(post.id);
      assert.match(document()?.getText() ?? '', /^# After the web app/);
    });
  }),
);

describe('drafts across windows', () => {
  useCleanSlate();

  it("a draft open in this window's editor is held here: another window (one global storage) sees it held, so does not offer it; closed, it is free", async () => {
    const api = await extensionApi();
    await standIn.addFault({ method: 'POST', path: '/app/posts.json', status: 503, html: true, times: 1 });
    await api.actions.createTask({ title: `Still being written ${Date.now()}`, content: 'First words' });
    const [draft] = api.drafts.all();
    assert.ok(draft, 'kept as a draft');
    const uri = vscode.Uri.from({ scheme: 'helpdesk-draft', path: `/${draft.id}.md` });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    // Another window of this VS Code: a store of its own over the same global state and storage folder.
    const other = new DraftStore(
      api.context.globalState,
      draftFolder(api.context.globalStorageUri),
      presenceFolder(api.context.globalStorageUri),
    );
    try {
      await waitFor('this window to say it has the draft open', () => other.heldElsewhere(draft.id));
      assert.deepEqual(
        api.context.globalState.keys().filter((key) => key.startsWith('helpdesk.window')),
        [],
        'said in a file of its own, not in the global state every window rewrites',
      );
      assert.equal((await other.claim(draft.id)).taken, true, 'a claim is about sending; editing does not block it');
      await other.release(draft.id);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor('the draft to be free once its editor closed', async () => !(await other.heldElsewhere(draft.id)));
    } finally {
      other.dispose();
    }
  });
});
