// The language model tools' registration, at activation: VS Code's agent can call them before
// anything else of the extension is used (one tool a file: searchPosts.ts, getPost.ts,
// fileBug.ts, createTask.ts, commentOnPost.ts, updatePost.ts). Where this VS Code has no language
// model tools API, there are none. What VS Code hands over is the agent's input as it wrote it:
// each tool reads it into its type where it enters, so nothing here casts it.
import vscode = require('vscode');
import { cutMarkdown } from '../../text/markdown';
import { labelText } from '../../text/serverText';
import type { ToolName } from '../../toolNames';
import type { PostTools } from './postTools';
import { isInput, TOOL_ANSWER_CHARS } from './tool';
import type { UpdatePostTools } from './updatePost';
import type { WriteTool, WriteTools } from './writeTools';

const { l10n } = vscode;

export type HelpdeskTools = PostTools & WriteTools & UpdatePostTools;

const WRITING: Record<WriteTool, (input: unknown) => string> = {
  helpdesk_fileBug: () => l10n.t('Filing a bug on the helpdesk'),
  helpdesk_createTask: () => l10n.t('Creating a helpdesk task'),
  helpdesk_commentOnPost: (input) => l10n.t('Commenting on helpdesk post {0}', given(fieldOf(input, 'post'), 40)),
};

/** A field of the agent's input, which may be any JSON value (null, a string, an array) whatever the schema says. */
function fieldOf(input: unknown, field: string): unknown {
  return isInput(input) ? input[field] : undefined;
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

/** A tool as VS Code's agent meets it. Each input is what VS Code hands over as the agent wrote it: any JSON value, whatever the schema says. */
interface ToolEntry {
  /** What VS Code shows while it runs. */
  running(input: unknown): string;
  /** What the person is asked before it runs (the writes); undefined: nothing to ask, or the call can only answer why not. */
  ask?(input: unknown, token: vscode.CancellationToken): Promise<{ title: string; message: string } | undefined>;
  /** Its answer, in words for the agent. */
  invoke(input: unknown, token: vscode.CancellationToken): Promise<string>;
}

/**
 * One entry for each tool of the manifest (contributes.languageModelTools), no more: tsc checks it
 * (see ToolName, written from package.json by esbuild.mjs).
 */
function toolTable(tools: HelpdeskTools): Record<ToolName, ToolEntry> {
  const write = (name: WriteTool): ToolEntry => ({
    running: (input) => WRITING[name](input),
    ask: (input, token) => tools.confirmation(name, input, token),
    invoke: (input, token) => tools.write(name, input, token),
  });
  return {
    helpdesk_searchPosts: { running: READING.helpdesk_searchPosts, invoke: (input, token) => tools.searchPosts(input, token) },
    helpdesk_getPost: { running: READING.helpdesk_getPost, invoke: (input, token) => tools.getPost(input, token) },
    helpdesk_fileBug: write('helpdesk_fileBug'),
    helpdesk_createTask: write('helpdesk_createTask'),
    helpdesk_commentOnPost: write('helpdesk_commentOnPost'),
    // Asked like the writes: exactly what changes is shown, and nothing is changed without a yes.
    helpdesk_updatePost: {
      running: (input) => l10n.t('Updating helpdesk post {0}', given(fieldOf(input, 'post'), 40)),
      ask: (input, token) => tools.updatePostConfirmation(input, token),
      invoke: (input, token) => tools.updatePost(input, token),
    },
  };
}

export function registerTools(tools: HelpdeskTools): vscode.Disposable {
  if (typeof vscode.lm?.registerTool !== 'function') return new vscode.Disposable(() => undefined);
  const answer = (text: string) =>
    new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(cutMarkdown(text, TOOL_ANSWER_CHARS))]);
  // A tool the person is asked about runs only once they said yes: VS Code calls `invoke` then, never when refused.
  const register = ([name, tool]: [string, ToolEntry]) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async ({ input }, token) => {
        const asked = await tool.ask?.(input, token);
        const confirmationMessages = asked && { title: asked.title, message: new vscode.MarkdownString(asked.message) };
        return { invocationMessage: tool.running(input), confirmationMessages };
      },
      invoke: async ({ input }, token) => answer(await tool.invoke(input, token)),
    });
  return vscode.Disposable.from(...Object.entries(toolTable(tools)).map(register));
}
