import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../src/api';
import { PagedList } from '../../src/store/pagedList';
import { ShownPosts } from '../../src/views/shownPosts';

// Review: every change a PagedList tells lets ShownPosts stay equal to filtering the whole list.
function rand(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

for (const [reversed, byId] of [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
]) {
  describe(`ListChange keeps ShownPosts consistent (${reversed ? 'service lists oldest first' : 'newest first'}${byId ? ', found by bisection' : ''})`, () => {
    it('random loads, refreshes, upserts, replaces, removes', async () => {
      for (let seed = 1; seed <= 40; seed++) {
        const r = rand(seed);
        let data: Post[] = Array.from({ length: 60 + Math.floor(r() * 60) }, (_, i) => ({
          id: i + 1,
          closed: r() < 0.3,
          ...(r() < 0.1 ? { post_id: 1 } : {}),
        }));
        let next = 1000;
        const list = new PagedList<Post>(
          async (page, perPage) => {
            const sorted = [...data].sort((a, b) => (reversed ? a.id - b.id : b.id - a.id));
            const items = sorted.slice((page - 1) * perPage, page * perPage).map((p) => ({ ...p }));
            return { items, received: items.length };
          },
          () => 7,
          (a, b) => b.id - a.id,
          undefined,
          { byId },
        );
        const shown = new ShownPosts((p) => p.closed !== true && typeof p.post_id !== 'number');
        list.onDidChange((c) => c.from !== undefined && shown.forget(c.from));
        for (let step = 0; step < 40; step++) {
          const x = r();
          const items = list.state.items;
          if (x < 0.4) await list.loadMore();
          else if (x < 0.5) await list.refresh();
          else if (x < 0.6) {
            const p = { id: next++, closed: r() < 0.3 };
            if (r() < 0.7) data = [...data, p];
            list.upsert(p);
          } else if (x < 0.75 && items.length) {
            const p = items[Math.floor(r() * items.length)]!;
            list.replace({ ...p, closed: !p.closed });
          } else if (x < 0.85 && items.length) {
            const p = items[Math.floor(r() * items.length)]!;
            if (r() < 0.5) data = data.filter((d) => d.id !== p.id);
            list.remove(p.id);
          } else if (x < 0.9 && data.length) {
            data = data.filter((_, i) => i !== Math.floor(r() * data.length));
          } else if (x < 0.93) list.reset();
          const all = list.state.items;
          const expect = all.filter((p) => p.closed !== true && typeof p.post_id !== 'number');
          assert.deepEqual(shown.of(all), expect, `seed ${seed} step ${step}`);
        }
      }
    });
  });
}
