import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { madeOnFirstUse, onFirstUse } from '../../src/firstUse';

/** A module as a dynamic import meets it: evaluated once per load, handing out its handler. */
function fakeModule(fails = 0) {
  const counts = { loads: 0, runs: 0 };
  let failing = fails;
  const load = async () => {
    counts.loads++;
    await new Promise((resolve) => setImmediate(resolve));
    if (failing-- > 0) throw new Error('The module could not be loaded.');
    return { handler: (arg: string) => (counts.runs++, `ran ${arg}`) };
  };
  return { counts, load };
}

describe('firstUse: what activation does not need, loaded at its first use', () => {
  it('loads nothing until it is used', () => {
    const { counts, load } = fakeModule();
    onFirstUse(load);
    assert.equal(counts.loads, 0);
  });

  it('two commands racing the first load: one load, and each command runs once', async () => {
    const { counts, load } = fakeModule();
    const loaded = onFirstUse(load);
    const run = async (arg: string) => (await loaded()).handler(arg);
    const answers = await Promise.all([run('a'), run('b')]);
    assert.deepEqual(answers, ['ran a', 'ran b']);
    assert.deepEqual(counts, { loads: 1, runs: 2 });
    assert.equal(await run('c'), 'ran c');
    assert.deepEqual(counts, { loads: 1, runs: 3 }, 'loaded once for good');
  });

  it('a load that fails fails each caller waiting on it, runs nothing, and is tried again at the next use', async () => {
    const { counts, load } = fakeModule(1);
    const loaded = onFirstUse(load);
    const run = async (arg: string) => (await loaded()).handler(arg);
    const results = await Promise.allSettled([run('a'), run('b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /could not be loaded/);
    assert.deepEqual(counts, { loads: 1, runs: 0 });
    assert.equal(await run('c'), 'ran c');
    assert.deepEqual(counts, { loads: 2, runs: 1 });
  });

  it('a load that throws before its promise is a rejection, not a throw at the call', async () => {
    const loaded = onFirstUse<never>(() => {
      throw new Error('broken');
    });
    const pending = loaded();
    await assert.rejects(pending, /broken/);
  });

  it('a value is made once, at its first use', () => {
    let made = 0;
    const pattern = madeOnFirstUse(() => (made++, /[\p{L}]/u));
    assert.equal(made, 0);
    assert.equal(pattern().test('ż'), true);
    assert.equal(pattern(), pattern());
    assert.equal(made, 1);
  });
});
