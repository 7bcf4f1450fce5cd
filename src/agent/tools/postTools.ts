// The helpdesk's read tools (helpdesk_searchPosts, helpdesk_getPost) as the one object both doors
// call: VS Code's language model tools (registerTools.ts) and the MCP endpoint (agent/mcp/dispatch.ts).
import type vscode = require('vscode');
import type { Identity } from '../../accounts/identity';
import type { WindowAccount } from '../../accounts/signedIn';
import { getPostTool } from './getPost';
import type { PostData, ReadAnswer, SearchData } from './readData';
import { searchPostsTool } from './searchPosts';

export type ReadTool = 'helpdesk_searchPosts' | 'helpdesk_getPost';

/** Each input is what VS Code hands over as the agent wrote it (a SearchPostsInput, a GetPostInput): any JSON value, whatever the schema says. */
export interface PostTools {
  /** The answers in words (VS Code's chat). */
  searchPosts(input: unknown, token: vscode.CancellationToken): Promise<string>;
  getPost(input: unknown, token: vscode.CancellationToken): Promise<string>;
  /** The same answers with their data (MCP's structured content). */
  read(tool: ReadTool, input: unknown, token: vscode.CancellationToken): Promise<ReadAnswer<SearchData | PostData>>;
}

/** The read tools, on the window's account: its store's list of posts is what they read further. */
export function postTools(window: Pick<WindowAccount, 'ready'>, identity: Identity): PostTools {
  const searchPosts = searchPostsTool(window, identity);
  const getPost = getPostTool(window);
  return {
    searchPosts: async (input, token) => (await searchPosts(input, token)).text,
    getPost: async (input, token) => (await getPost(input, token)).text,
    read: (tool, input, token) => (tool === 'helpdesk_searchPosts' ? searchPosts : getPost)(input, token),
  };
}
