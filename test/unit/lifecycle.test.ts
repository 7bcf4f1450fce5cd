import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Disposable } from '../../src/lifecycle';

/** A part that owns what it is handed, and says when each is ended. */
class Part extends Disposable {
  own(name: string, ended: string[]): void {
    this.register({ dispose: () => void ended.push(name) });
  }

  get done(): boolean {
    return this.isDisposed;
  }
}

describe('lifecycle: a part ends what it registered', () => {
  it('in the order registered, once, however often it is disposed', () => {
    const ended: string[] = [];
    const part = new Part();
    part.own('emitter', ended);
    part.own('listener', ended);
    part.own('watcher', ended);
    assert.deepEqual(ended, []);
    part.dispose();
    part.dispose();
    assert.deepEqual(ended, ['emitter', 'listener', 'watcher']);
    assert.equal(part.done, true);
  });

  it('what is registered once it has ended (a watcher made after its folder) is ended at once', () => {
    const ended: string[] = [];
    const part = new Part();
    part.dispose();
    part.own('late watcher', ended);
    assert.deepEqual(ended, ['late watcher']);
  });
});
