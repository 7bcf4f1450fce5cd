// The language model tools' registration, at activation: VS Code's agent can call them before
// anything else of the extension is used (see postTools.ts, writeTools.ts). Where this VS Code
// has no language model tools API, there are none.
import vscode = require('vscode');
import { labelText } from '../text/serverText';
import type { GetPostInput, PostTools, SearchPostsInput } from './postTools';
import type { UpdatePostInput, UpdatePostTools } from './updatePostTool';
import type { WriteInput, WriteTool, WriteTools } from './writeTools';

const { l10n } = vscode;

export type HelpdeskTools = PostTools & WriteTools & UpdatePostTools;

const WRITING: Record<WriteTool, (input: WriteInput) => string> = {
  helpdesk_fileBug: () => l10n.t('Filing a bug on the helpdesk'),
  helpdesk_createTask: () => l10n.t('Creating a helpdesk task'),
  helpdesk_commentOnPost: (input) => l10n.t('Commenting on helpdesk post {0}', given(fieldOf(input, 'post'), 40)),
};

/** A field of the agent's input, which may be any JSON value (null, a string, an array) whatever the schema says. */
function fieldOf(input: unknown, field: string): unknown {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>)[field] : undefined;
}

/** A text or number the agent gave, for one line of the chat: cut before it is cleaned, whatever its length. */
function given(value: unknown, max: number): string {
  return labelText(typeof value === 'string' ? value.slice(0, 4 * max) : typeof value === 'number' ? String(value) : '', max);
}

/** What VS Code shows while a read tool runs. */
export const READING = {
  helpdesk_searchPosts: (input: unknown) => {
    const query = given(fieldOf(input, 'query'), 80);
    return query ? l10n.t('Searching the helpdesk for "{0}"', query) : l10n.t('Listing helpdesk posts');
  },
  helpdesk_getPost: (input: unknown) => {
    const post = given(fieldOf(input, 'post'), 40);
    return post ? l10n.t('Reading helpdesk post {0}', post) : l10n.t('Reading a helpdesk post');
  },
};

export function registerTools(tools: HelpdeskTools): vscode.Disposable {
  if (typeof vscode.lm?.registerTool !== 'function') return new vscode.Disposable(() => undefined);
  const answer = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  // A write is confirmed by the person before VS Code calls `invoke`; refused, it never is.
  const writing = (name: WriteTool) =>
    vscode.lm.registerTool<WriteInput>(name, {
      prepareInvocation: async ({ input }, token) => {
        const asked = await tools.confirmation(name, input, token);
        const confirmationMessages = asked && { title: asked.title, message: new vscode.MarkdownString(asked.message) };
        return { invocationMessage: WRITING[name](input), confirmationMessages };
      },
      invoke: async ({ input }, token) => answer(await tools.write(name, input, token)),
    });
  return vscode.Disposable.from(
    vscode.lm.registerTool<SearchPostsInput>('helpdesk_searchPosts', {
      prepareInvocation: ({ input }) => ({ invocationMessage: READING.helpdesk_searchPosts(input) }),
      invoke: async ({ input }, token) => answer(await tools.searchPosts(input, token)),
    }),
    vscode.lm.registerTool<GetPostInput>('helpdesk_getPost', {
      prepareInvocation: ({ input }) => ({ invocationMessage: READING.helpdesk_getPost(input) }),
      invoke: async ({ input }, token) => answer(await tools.getPost(input, token)),
    }),
    writing('helpdesk_fileBug'),
    writing('helpdesk_createTask'),
    writing('helpdesk_commentOnPost'),
    // Asked like the writes: exactly what changes is shown, and nothing is changed without a yes.
    vscode.lm.registerTool<UpdatePostInput>('helpdesk_updatePost', {
      prepareInvocation: async ({ input }, token) => {
        const asked = await tools.updatePostConfirmation(input, token);
        const confirmationMessages = asked && { title: asked.title, message: new vscode.MarkdownString(asked.message) };
        return { invocationMessage: l10n.t('Updating helpdesk post {0}', given(fieldOf(input, 'post'), 40)), confirmationMessages };
      },
      invoke: async ({ input }, token) => answer(await tools.updatePost(input, token)),
    }),
  );
}
