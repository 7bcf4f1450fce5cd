// A command as the table in src/extension.ts holds it: what it does with the window's signed-in
// context, and what it does signed out. The table wraps every one in the one door, withSignedIn
// (accounts/signedIn.ts), as rust-analyzer's CommandFactory does with its CtxInit: no command
// waits for the session or looks up the account by itself. A feature says once what it
// contributes: its commands, and the typed action its prompts end in (what the integration tests call).
import { withSignedIn, type SignedIn, type WindowAccount } from '../accounts/signedIn';
import type { CommandId } from '../commandIds';
import type { Services } from '../services';
import { signInFirst } from './prompts';

/** What VS Code passes a command: a tree node, a document URI, a line, or nothing (see targets.ts). */
export type CommandHandler = (arg: unknown, more?: unknown) => unknown;

export interface Command {
  /** On the window's account, once the session was restored. */
  readonly signedIn: (signedIn: SignedIn, arg: unknown, more?: unknown) => unknown;
  /** While no account is signed in to in this window. */
  readonly signedOut: CommandHandler;
}

export interface Feature<Action> {
  readonly commands: { readonly [id in CommandId]?: Command };
  /** The work without its boxes, on the window's account (what the integration tests call). */
  readonly action: Action;
}

/** A command that does the same signed in or out: it needs no account (a view's filter, signing out). */
export function anyAccount(run: CommandHandler): Command {
  return { signedIn: (_signedIn, arg, more) => run(arg, more), signedOut: run };
}

/** A command that does nothing signed out (the views' welcome says how to sign in). */
export function onlySignedIn(run: Command['signedIn']): Command {
  return { signedIn: run, signedOut: () => undefined };
}

/** A command on the account: signed out, the person is asked to sign in first, and it runs on the account they signed in to. */
export function needsAccount(services: Pick<Services, 'gateway' | 'ui'>, run: Command['signedIn']): Command {
  return {
    signedIn: run,
    signedOut: async (arg, more) => {
      const signedIn = await signInFirst(services);
      return signedIn && run(signedIn, arg, more);
    },
  };
}

/** The commands as VS Code calls them: each through the one door. */
export function commandHandlers<T extends { readonly [id: string]: Command }>(
  window: Pick<WindowAccount, 'ready'>,
  commands: T,
): { readonly [id in keyof T]: CommandHandler } {
  return Object.fromEntries(
    Object.entries(commands).map(([id, command]) => [id, withSignedIn(window, command.signedIn, command.signedOut)]),
  ) as { [id in keyof T]: CommandHandler };
}

/** An action called while signed out: a caller's mistake. */
export function notSignedIn(): never {
  throw new Error('Not signed in.');
}
