// helpdesk_getPost: one post, its facts, its content (bounded), the code it points at, and the
// comments the Helpdesk view's list holds on it: the thread in order. An e-mail's HTML is given as
// its text (contentText.ts), and said to be, so the agent reads what the customer wrote, not markup.
import vscode = require('vscode');
import type { Post } from '../../api';
import type { SignedIn, WindowAccount } from '../../accounts/signedIn';
import { referenceText } from '../../code/postReferences';
import { codePlaces } from '../../editor/codePlaces';
import { postIdOf } from '../../search/postIdOf';
import { readSettings } from '../../settings';
import type { HelpdeskStore } from '../../store/helpdeskStore';
import { contentText, type ContentText } from '../../text/contentText';
import { ageText } from '../../text/postFacts';
import { labelText } from '../../text/serverText';
import { factsLine, postRow, readList } from './postList';
import { wordsOnly, type PostData, type ReadAnswer } from './readData';
import { failureAnswer, isInput, NO_INPUT, onAccount, quoted, SIGN_IN, withAbort } from './tool';

export interface GetPostInput {
  /** The post's number, or a reference to it (`HD-123`, `#123`, its address). */
  post: number | string;
}

/** Characters of a post's content in the answer, and of each comment. */
const CONTENT_CHARS = 8000;
const COMMENT_CHARS = 1000;
const COMMENTS_SHOWN = 10;
/** A title's length in the answer. */
const TITLE_CHARS = 300;

/** The tool: its input is what VS Code or the MCP endpoint hands over as the agent wrote it (a GetPostInput, or any JSON value). */
export function getPostTool(
  window: Pick<WindowAccount, 'ready'>,
): (input: unknown, token: vscode.CancellationToken) => Promise<ReadAnswer<PostData>> {
  const reference = (id: number) => referenceText(id, readSettings().referencePrefix);

  async function read({ account, store }: SignedIn, named: unknown, token: vscode.CancellationToken): Promise<ReadAnswer<PostData>> {
    const id = postIdOf(named, account.url, readSettings().referencePrefix);
    if (id === undefined) {
      const given = typeof named === 'string' || typeof named === 'number' ? labelText(String(named).slice(0, 80), 40) : '';
      return wordsOnly(
        `${given ? `"${given}" names no post` : '"post" names no post'}: give its number (123), or a reference such as ${reference(123)}.`,
      );
    }
    let post: Post;
    try {
      post = await withAbort(token, (signal) => account.post(id, signal));
    } catch (error) {
      return wordsOnly(failureAnswer(`Post ${reference(id)} could not be read.`, error));
    }
    const facts = factsLine(store, post);
    const whole = contentText(post);
    const content = contentText(post, CONTENT_CHARS);
    const row = postRow(store, post, reference(post.id), TITLE_CHARS);
    const url = account.link('posts', post.id);
    const parts = [
      `Post ${row.reference}. Web page: ${url}`,
      quoted(`Title: ${row.title}\n${facts}\n\n${content.text}`),
      contentNote(content, whole, CONTENT_CHARS),
    ];
    // Go to Code's places, from the text as shown: an e-mail's links by their addresses, nothing its sender hid.
    const places = await codePlaces(whole.text, token);
    if (places.length > 0) {
      const shown = places.slice(0, 10).map(({ location, file, sure }) => {
        const lines = location.endLine ? `${location.startLine}-${location.endLine}` : `${location.startLine}`;
        if (!file) return `${labelText(location.path, 200)}:${lines} (not in this workspace)`;
        const here = vscode.workspace.asRelativePath(file, true);
        // A path from another machine that only shares a file's name: said so, never given as the file.
        return sure
          ? `${here}:${lines} (in this workspace)`
          : `${labelText(location.path, 200)}:${lines} (not known to be in this workspace; ${here} shares its name)`;
      });
      parts.push('Code it points at (Go to Code opens these):', quoted(shown.join('\n')));
    }
    const thread = await commentsOf(store, post, token, reference);
    parts.push(thread.text);
    return { text: parts.filter(Boolean).join('\n'), data: { ...row, url, content: content.text, comments: thread.comments } };
  }

  return async (input, token) => {
    if (!isInput(input)) return wordsOnly(NO_INPUT);
    return onAccount(
      window,
      (signedIn) => read(signedIn, input.post, token),
      () => wordsOnly(SIGN_IN),
    )();
  };
}

/** The comments the service lists on the post (among the newest posts), or why none are shown. */
async function commentsOf(
  store: HelpdeskStore,
  post: Post,
  token: vscode.CancellationToken,
  reference: (id: number) => string,
): Promise<{ text: string; comments: PostData['comments'] }> {
  const count = typeof post.comments_cache === 'number' ? post.comments_cache : undefined;
  if (count === 0) return { text: 'It has no comments.', comments: [] };
  // The list is read further only while the service counts comments not found yet.
  const listed = await readList(
    store,
    token,
    (posts) => count === undefined || posts.filter((item) => item.post_id === post.id).length >= count,
  );
  const comments = 'error' in listed ? [] : listed.posts.filter((item) => item.post_id === post.id);
  if (comments.length === 0)
    return {
      text: count ? `The helpdesk counts ${count} comments on it, but does not list them here.` : 'No comments are listed on it.',
      comments: [],
    };
  const shown = comments
    .sort((a, b) => a.id - b.id)
    .slice(-COMMENTS_SHOWN)
    .map((comment) => ({ comment, reference: reference(comment.id), content: contentText(comment, COMMENT_CHARS) }));
  const text = shown
    .map(({ comment, reference, content }) => {
      return `${reference} ${ageText(comment, Date.now()) ?? ''}${content.html ? ' (an HTML e-mail, as text)' : ''}\n${content.text}`;
    })
    .join('\n\n');
  return {
    text: [`Comments, oldest first (the last ${shown.length} of ${comments.length} listed):`, quoted(text)].join('\n'),
    comments: shown.map(({ reference, content }) => ({ reference, content: content.text })),
  };
}

/** What the answer says of the content beside it: an e-mail given as its text, and how much of it is shown. */
function contentNote(content: ContentText, whole: ContentText, max: number): string {
  const html = content.html
    ? `The content is an HTML e-mail, given as its text: markup, styles, hidden parts, signatures and tracking left out${content.quoted ? ', quoted earlier messages marked or left out' : ''}.`
    : '';
  const cut = whole.text.length > max ? `Content shown (the first ${max} of ${whole.text.length} characters).` : '';
  return [html, cut].filter(Boolean).join(' ');
}
