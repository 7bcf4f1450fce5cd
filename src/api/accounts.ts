import type { CallOptions, Transport } from './http';
import { asObject } from './parse';
import type { CreatedAccount, NewAccount } from './types';

/** Account creation: a new customer account with its first user. */
export class AccountsApi {
  constructor(private readonly http: Transport) {}

  create(account: NewAccount, call?: CallOptions): Promise<CreatedAccount> {
    const read = (json: unknown) => asObject<CreatedAccount>(json, ['prefix', 'api_token', 'url']);
    return this.http.post('/app/account.json', { account: account.account, user: account.user }, read, call);
  }
}
