import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { StandIn } from '../server';
import { HOSTILE_ACTIVE, HOSTILE_COMMENT } from '../server/demoEmails';
import { never, postToolsRig as rig } from './postToolsRig';
import { assertReadable } from './readableCheck';
import { standInsForSuite } from './support';

/*
 * Issue 49: the agent's reading tools answer with an e-mail as its text and say it was HTML; the
 * thread comes post first, then its comments oldest first. On each profile, whose `use_html` is a
 * boolean, a string or left out. Seen failing on the code before: the answer quoted the markup.
 */

/** What the answer quotes (inside its fences). */
const insideFences = (answer: string) => [...answer.matchAll(/^(`{3,})[^\n]*\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!).join('\n');

for (const profile of ['likely', 'contrary', 'sparse'] as const) {
  describe(`the agent's answers on an HTML e-mail [${profile} service]`, () => {
    let server: StandIn;
    let made: ReturnType<typeof rig>;
    standInsForSuite(([started]) => (server = started!), { seed: 'demo', profile });
    beforeEach(() => (made = rig(server)));
    afterEach(() => made.gateway.dispose());

    const hostile = () => {
      const posts = [...server.store.account('acme').records.posts.values()];
      const post = posts.find((p) => p.content === HOSTILE_ACTIVE)!;
      const comment = posts.find((p) => p.content === HOSTILE_COMMENT)!;
      return { post, comment };
    };

    it('helpdesk_getPost: the e-mail as its text, said to be HTML; its comments after it, as text', async () => {
      const { post, comment } = hostile();
      const answer = await made.tools.getPost({ post: post.id }, never);
      assertReadable(insideFences(answer), `getPost #${post.id}`);
      assert.match(answer, /Invoice portal <https:\/\/pay\.phish\.example\/inv\/2291>/, answer);
      assert.match(answer, /The content is an HTML e-mail, given as its text/, answer);
      if (profile === 'contrary') {
        // This profile lists comments: the thread is there, the post before its comment.
        assert.match(answer, /Comments, oldest first/, answer);
        assert.ok(answer.indexOf('Invoice portal') < answer.indexOf('Did the payment go through?'), answer);
        assert.match(answer, new RegExp(`#?\\w*-?${comment.id}\\b[^\\n]*\\(an HTML e-mail, as text\\)`), answer);
      }
    });

    it('helpdesk_searchPosts: finds the e-mail by its words, not by its markup', async () => {
      // The sparse service lists the first 250 characters of a content: of this e-mail, its head alone.
      const found = await made.tools.searchPosts({ query: profile === 'sparse' ? 'INV-2291' : 'Invoice portal', state: 'all' }, never);
      assert.match(found, /Invoice INV-2291 overdue/, found);
      const markup = await made.tools.searchPosts({ query: 'onmouseover', state: 'all' }, never);
      assert.match(markup, /^No post matched/, markup);
    });

    it("Go to Code's places in an e-mail: what it shows, not what its sender hid", async () => {
      const html = `<div><p>It fails <b>at src/shown.ts:3:5</b>.</p><div style="display:none">at src/hidden.ts:9</div><a href="https://x.example/src/linked.ts:7">log</a></div>`;
      server.addFault({ path: `/app/posts/${hostile().post.id}.json`, body: { ...hostile().post, content: html, use_html: true } });
      const answer = await made.tools.getPost({ post: hostile().post.id }, never);
      assert.match(answer, /src\/shown\.ts:3 /, answer);
      assert.doesNotMatch(answer, /hidden\.ts/, answer);
    });
  });
}
