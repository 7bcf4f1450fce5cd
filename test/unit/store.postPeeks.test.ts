import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type Post } from '../../src/api';
import { PostPeeks } from '../../src/store/postPeeks';

function clock() {
  let now = 1_000_000;
  return { now: () => now, pass: (ms: number) => void (now += ms) };
}

const notFound = () => new ApiError({ kind: 'notFound', method: 'GET', path: '/app/posts/7.json', host: 'acme.example.com', status: 404 });

describe('PostPeeks', () => {
  it('asks once per post for a few minutes, and hovers that come meanwhile share the answer', async () => {
    const time = clock();
    const peeks = new PostPeeks(time.now);
    let asked = 0;
    const load = async (id: number) => ({ id, title: `Post ${id}`, asked: ++asked }) as unknown as Post;
    const [a, b] = await Promise.all([peeks.get(7, load), peeks.get(7, load)]);
    assert.deepEqual(a, b);
    time.pass(2 * 60_000);
    await peeks.get(7, load);
    assert.equal(asked, 1, 'one request in the first minutes');
    await peeks.get(8, load);
    assert.equal(asked, 2, 'another post is another request');
    time.pass(2 * 60_000);
    await peeks.get(7, load);
    assert.equal(asked, 3, 'asked again once stale');
  });

  it('keeps "gone" as long as a post; keeps any other failure for half a minute only', async () => {
    const time = clock();
    const peeks = new PostPeeks(time.now);
    let asked = 0;
    assert.deepEqual(await peeks.get(7, async () => (asked++, Promise.reject(notFound()))), { gone: true });
    time.pass(60_000);
    assert.deepEqual(await peeks.get(7, async () => (asked++, Promise.reject(notFound()))), { gone: true });
    assert.equal(asked, 1);
    const unreachable = () => (asked++, Promise.reject(new Error('unreachable')));
    await assert.rejects(peeks.get(9, unreachable), /unreachable/);
    await assert.rejects(peeks.get(9, unreachable), /unreachable/);
    assert.equal(asked, 2, 'the failure is kept briefly');
    time.pass(31_000);
    await assert.rejects(peeks.get(9, unreachable), /unreachable/);
    assert.equal(asked, 3, 'and asked again after it');
  });

  it('holds at most 200 posts, dropping the oldest, and forgets all on clear()', async () => {
    const peeks = new PostPeeks();
    let asked = 0;
    const load = async (id: number) => (asked++, { id }) as Post;
    for (let id = 1; id <= 201; id++) await peeks.get(id, load);
    await peeks.get(201, load);
    await peeks.get(1, load);
    assert.equal(asked, 202, 'post 1 was dropped, 201 was kept');
    peeks.clear();
    await peeks.get(201, load);
    assert.equal(asked, 203);
  });
});
