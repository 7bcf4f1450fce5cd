import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carriesDraftRef, isDraftRef, newDraftRef, withDraftRef } from '../../src/drafts/draftRef';

describe('draft markers', () => {
  it('are hb- and 10 base-36 characters, and differ each time', () => {
    const refs = new Set(Array.from({ length: 1000 }, newDraftRef));
    assert.equal(refs.size, 1000);
    for (const ref of refs) assert.ok(isDraftRef(ref), ref);
    assert.ok(!isDraftRef('hb-123'), 'too short');
    assert.ok(!isDraftRef(' hb-0123456789'), 'the whole value');
  });

  it('head the content on a line of their own, where a list that cuts content or strips a signature keeps them', () => {
    assert.equal(withDraftRef('Line one\nLine two\n\n', 'hb-0123456789'), 'Sent from VS Code · hb-0123456789\n\nLine one\nLine two');
    assert.ok(
      carriesDraftRef(withDraftRef('x'.repeat(100_000), 'hb-0123456789').slice(0, 250), 'hb-0123456789'),
      'in a 250-character abstract',
    );
    assert.equal(withDraftRef('', 'hb-0123456789'), 'Sent from VS Code · hb-0123456789');
  });

  it('are found as a whole word only', () => {
    const ref = 'hb-0123456789';
    assert.ok(carriesDraftRef(withDraftRef('text', ref), ref));
    assert.ok(carriesDraftRef(`<p>${ref}</p>`, ref), 'in markup the service may wrap it in');
    assert.ok(!carriesDraftRef(`${ref}a`, ref), 'a longer marker is another one');
    assert.ok(!carriesDraftRef(`xhb-0123456789`, ref));
    assert.ok(!carriesDraftRef('hb-012345678', ref));
    assert.ok(!carriesDraftRef(undefined, ref));
    assert.ok(carriesDraftRef(`${ref}a and ${ref}.`, ref), 'a second occurrence counts');
  });
});
