// The helpdesk's read tools (helpdesk_searchPosts, helpdesk_getPost) as the one object both doors
// call: VS Code's language model tools (registerTools.ts) and the MCP endpoint (agent/mcp/dispatch.ts).
import type vscode = require('vscode');
import type { Identity } from '../../accounts/identity';
import type { WindowAccount } from '../../accounts/signedIn';
import { getPostTool } from './getPost';
import { searchPostsTool } from './searchPosts';

/** Each input is what VS Code hands over as the agent wrote it (a SearchPostsInput, a GetPostInput): any JSON value, whatever the schema says. */
export interface PostTools {
  searchPosts(input: unknown, token: vscode.CancellationToken): Promise<string>;
  getPost(input: unknown, token: vscode.CancellationToken): Promise<string>;
}

/** The read tools, on the window's account: its store's list of posts is what they read further. */
export function postTools(window: Pick<WindowAccount, 'ready'>, identity: Identity): PostTools {
  return { searchPosts: searchPostsTool(window, identity), getPost: getPostTool(window) };
}
