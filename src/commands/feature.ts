// A feature says once what it contributes: its commands (what each does with what VS Code passes)
// and the typed action its prompts end in. extension.ts merges the commands into the one table tsc
// checks against the manifest, and hands the actions to the integration tests.
import type { Account } from '../api/account';
import type { CommandId } from '../commandIds';
import type { Services } from '../services';

/** What a command does with what VS Code passes it: a tree node, a document URI, a line, or nothing (see commands/targets.ts). */
export type CommandHandler = (arg: unknown, more?: unknown) => unknown;

export interface Feature<Action> {
  readonly commands: { readonly [id in CommandId]?: CommandHandler };
  /** The work without its boxes, on the window's account (what the integration tests call). */
  readonly action: Action;
}

/** The window's account for an action called without its prompts; none is a caller's mistake. */
export function actionAccount({ gateway }: Pick<Services, 'gateway'>): Account {
  const account = gateway.current?.account;
  if (!account) throw new Error('Not signed in.');
  return account;
}
