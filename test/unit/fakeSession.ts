import { EventEmitter } from './fakeVscode';

/** What a Session needs of the editor, faked: the secret storage and the sign-out signal. */

export class Secrets {
  readonly data = new Map<string, string>();
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;
  get = (key: string) => Promise.resolve(this.data.get(key));
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    this.changed.fire({ key });
  }
}

export class Signal {
  readonly heard = new EventEmitter<string>();
  readonly onDidSignOutElsewhere = this.heard.event;
  readonly announced: string[] = [];
  announce = (accountUrl: string) => Promise.resolve(void this.announced.push(accountUrl));
}
