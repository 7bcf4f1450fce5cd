import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Log } from '../../src/log';
import { fake } from './fakeVscode';

/* The output channel's lines (the editor faked: fakeVscode.ts). */

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0SECRET';

/** Like the Git extension's GitError: no Error, with a toString of its own. */
class PrintsItself {
  toString(): string {
    return 'Failed to execute git {"exitCode":128}';
  }
}

describe('Log.error', () => {
  let log: Log;

  beforeEach(() => {
    fake.reset();
    log = new Log();
    log.redactWith(() => [TOKEN]);
  });

  const lastLine = () => fake.logLines.at(-1) ?? '';

  it('an Error by its name and message; text, and a value that prints itself, as they print', () => {
    log.error('Failed', new TypeError('no such thing'));
    assert.equal(lastLine(), 'error Failed: TypeError: no such thing');
    log.error('Failed', 'plain words');
    assert.equal(lastLine(), 'error Failed: plain words');
    log.error('Failed', new PrintsItself());
    assert.equal(lastLine(), 'error Failed: Failed to execute git {"exitCode":128}');
    log.error('Failed', 404);
    assert.equal(lastLine(), 'error Failed: 404');
    log.error('Failed');
    assert.equal(lastLine(), 'error Failed');
  });

  it('a thrown object that is no Error is logged by what it holds, not as [object Object]', () => {
    log.error('Failed', { code: 'E_GONE', reason: 'the file went away' });
    assert.doesNotMatch(lastLine(), /\[object Object\]/);
    assert.match(lastLine(), /^error Failed: .*E_GONE.*the file went away/);
  });

  it('a value with no toString at all is logged too (not a TypeError from the log)', () => {
    const bare = Object.assign(Object.create(null) as object, { code: 'E_BARE' });
    assert.doesNotThrow(() => log.error('Failed', bare));
    assert.match(lastLine(), /^error Failed: .*E_BARE/);
  });

  it('the token is cut from what a thrown object holds', () => {
    log.error('Failed', { url: `https://acme.example.com/app/posts.json?api_token=${TOKEN}` });
    assert.match(lastLine(), /acme\.example\.com/);
    assert.ok(!lastLine().includes(TOKEN), lastLine());
  });
});
