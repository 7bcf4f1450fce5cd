// Signing the Helpdesk extension in to a stand-in account, and reaching its test API.
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { BENCH_ENV, type BenchAccount } from '../results';

export async function helpdeskApi(): Promise<TestApi> {
  const id = process.env[BENCH_ENV.extension] ?? '';
  // A build before the one composition root exported `load()`, which gave the test API (see --against).
  const extension = vscode.extensions.getExtension<TestApi | { load(): TestApi } | undefined>(id);
  if (!extension) throw new Error(`${id} is not loaded in this extension host.`);
  const exports = await extension.activate();
  if (!exports) throw new Error(`${id} exports no test API: is the host in test mode?`);
  return 'load' in exports ? exports.load() : exports;
}

export async function signIn(account: BenchAccount): Promise<TestApi> {
  const api = await helpdeskApi();
  const ok = await api.actions.signIn({ accountUrl: account.url, token: account.token });
  if (ok !== true) throw new Error(`Could not sign in to the stand-in at ${account.url}.`);
  // Signing in changes the account setting, and the session reads the token again on that change.
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (!api.gateway.current?.account || api.session.state !== 'signedIn')
    throw new Error(`Not signed in after signing in to ${account.url}.`);
  return api;
}
