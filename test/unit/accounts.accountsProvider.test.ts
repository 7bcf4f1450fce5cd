import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountsProvider } from '../../src/accounts/accountsProvider';
import type { Session } from '../../src/accounts/session';
import { EventEmitter } from './fakeVscode';

describe('the accounts where VS Code shows accounts', () => {
  it('one session per account signed in to, named by its host, holding no token; removing one signs out of it', async () => {
    const signedOut: string[] = [];
    const session = {
      onDidChange: new EventEmitter<void>().event,
      signedInAccounts: async () => ['https://alpha.example.com', 'https://beta.example.org'],
      signOut: async (url: string) => void signedOut.push(url),
    } as unknown as Session;
    const provider = new AccountsProvider(session, new EventEmitter<void>().event);
    const sessions = await provider.getSessions();
    assert.deepEqual(
      sessions.map((s) => [s.id, s.account.label, s.accessToken]),
      [
        ['https://alpha.example.com', 'alpha.example.com', ''],
        ['https://beta.example.org', 'beta.example.org', ''],
      ],
    );
    await provider.removeSession('https://beta.example.org');
    assert.deepEqual(signedOut, ['https://beta.example.org']);
    provider.dispose();
  });
});
