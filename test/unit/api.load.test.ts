import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

describe('loading the API client', () => {
  it("builds no Request: ky's checks of what fetch supports wait for the first call, not activation", async () => {
    const Original = globalThis.Request;
    let built = 0;
    globalThis.Request = new Proxy(Original, {
      construct(target, args: unknown[], newTarget) {
        built += 1;
        return Reflect.construct(target, args, newTarget) as Request;
      },
    });
    try {
      // esbuild inlines the dynamic import: the modules' top level runs here, after the count began.
      const api = await import('../../src/api');
      assert.equal(typeof api.HelpdeskClient, 'function');
    } finally {
      globalThis.Request = Original;
    }
    assert.equal(built, 0);
  });
});
