// The language model tools' registration, at activation (dist/extension.js): VS Code's agent can
// call them before anything else of the extension is used. The work behind them loads on first
// call (see postTools.ts). Where this VS Code has no language model tools API, there are none.
import vscode = require('vscode');
import type { GetPostInput, PostTools, SearchPostsInput } from './postTools';

const { l10n } = vscode;

export function registerTools(tools: () => PostTools): vscode.Disposable {
  if (typeof vscode.lm?.registerTool !== 'function') return new vscode.Disposable(() => undefined);
  const answer = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  return vscode.Disposable.from(
    vscode.lm.registerTool<SearchPostsInput>('helpdesk_searchPosts', {
      prepareInvocation: ({ input }) => ({ invocationMessage: input.query ? l10n.t('Searching the helpdesk for "{0}"', String(input.query).slice(0, 80)) : l10n.t('Listing helpdesk posts') }),
      invoke: async ({ input }, token) => answer(await tools().searchPosts(input, token)),
    }),
    vscode.lm.registerTool<GetPostInput>('helpdesk_getPost', {
      prepareInvocation: ({ input }) => ({ invocationMessage: l10n.t('Reading helpdesk post {0}', String(input.post).slice(0, 40)) }),
      invoke: async ({ input }, token) => answer(await tools().getPost(input, token)),
    }),
  );
}
