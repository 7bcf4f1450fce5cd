import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_PAGES } from '../../src/api';
import { findLastPage } from '../../src/store/lastPages';

/** Pages 1…last hold records; `probed` records what was read. */
function pagesUpTo(last: number) {
  const probed: number[] = [];
  const holds = async (page: number) => (probed.push(page), page >= 1 && page <= last);
  return { probed, holds };
}

describe('findLastPage', () => {
  it('from page 1: the last page, in at most 2·log2(n) + 1 reads', async () => {
    for (let last = 1; last <= 300; last++) {
      const { probed, holds } = pagesUpTo(last);
      assert.equal(await findLastPage(holds, 1, true), last);
      assert.ok(probed.length <= 2 * Math.floor(Math.log2(last)) + 1, `${last} pages: ${probed.length} reads`);
      assert.ok(!probed.includes(1), 'page 1 is known already');
    }
  });

  it('from a page found before: up when the list grew, down when it shrank, to 0 when it is empty; reads grow with the change only', async () => {
    for (const before of [1, 2, 7, 100]) {
      for (const now of [0, 1, 2, before - 1, before, before + 1, before + 5, before * 3]) {
        if (now < 0) continue;
        const { probed, holds } = pagesUpTo(now);
        const fromHolds = await holds(before);
        assert.equal(await findLastPage(holds, before, fromHolds), now, `${before} → ${now}`);
        const change = Math.abs(now - before) + 1;
        assert.ok(
          probed.length <= 2 * Math.ceil(Math.log2(change)) + 3,
          `${before} → ${now}: ${probed.length} reads (${probed.join(' ')})`,
        );
      }
    }
  });

  it('reads no page past MAX_PAGES', async () => {
    const { probed, holds } = pagesUpTo(MAX_PAGES * 3);
    assert.equal(await findLastPage(holds, 1, true), MAX_PAGES);
    assert.ok(probed.every((page) => page <= MAX_PAGES));
  });
});
