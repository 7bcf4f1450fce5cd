import vscode = require('vscode');
import type { Client } from '../api';
import { ClientNode, DealNode, PostNode } from '../views/nodes';
import { postOf } from '../views/postUri';

// What VS Code passes to a command as its first argument: the tree node it was run on (view
// menus, inline buttons, a row's click), the document's URI (editor title buttons), or nothing
// (Command Palette, keybindings); a hover's links pass a post's id.

/**
 * The post a command was run on: a post's row, its open document (whose URI may name another
 * account: `accountUrl`, untrusted until resolved, see `accountOf`), or its id (a hover's link).
 */
export function targetPost(arg: unknown): { id: number; node?: PostNode; accountUrl?: string } | undefined {
  if (arg instanceof PostNode) return { id: arg.post.id, node: arg };
  if (typeof arg === 'number') return Number.isSafeInteger(arg) && arg > 0 ? { id: arg } : undefined;
  return arg instanceof vscode.Uri ? postOf(arg) : undefined;
}

/** The client a command was run on: a client's row. */
export function targetClient(arg: unknown): Client | undefined {
  return arg instanceof ClientNode ? arg.client : undefined;
}

/** The web page of what a command was run on: a post, client or deal row, or a post's document. */
export function targetRecord(arg: unknown): { resource: 'posts' | 'clients' | 'deals'; id: number } | undefined {
  if (arg instanceof ClientNode) return { resource: 'clients', id: arg.client.id };
  if (arg instanceof DealNode) return { resource: 'deals', id: arg.deal.id };
  const post = targetPost(arg);
  return post ? { resource: 'posts', id: post.id } : undefined;
}

/** The document a command was run on (an editor title button), else the active editor's. */
export function targetUri(arg: unknown): vscode.Uri | undefined {
  return arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
}
